"""Stopping a trainer cleanly: Ctrl-C or SIGTERM sets an event the training loop checks between batches, so it
finishes the batch in hand, checkpoints and stops (``kill -9`` still loses the work since the last checkpoint).
A terminal's Ctrl-C reaches every process of the session: the actor and evaluation processes ignore it and are
stopped by the learner."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def stop_requested() -> Iterator[threading.Event]:
    """An event set by SIGINT or SIGTERM while the block runs; the previous handlers are restored after it."""
    stop = threading.Event()
    previous = {signum: signal.signal(signum, lambda *_: stop.set()) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def sigint_held() -> Iterator[None]:
    """SIGINT held back (blocked) while the block starts child processes: a child inherits the mask, so a Ctrl-C
    during its start-up waits until it ignores the signal (``ignore_sigint``); this process gets it after."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def ignore_sigint() -> None:
    """In a child process (an actor, an evaluation): leave Ctrl-C to the learner, which stops the children."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


__all__ = ["ignore_sigint", "sigint_held", "stop_requested"]
