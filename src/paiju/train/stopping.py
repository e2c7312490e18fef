"""Stopping a trainer cleanly: Ctrl-C or SIGTERM sets an event the training loop checks between batches, so it
finishes the batch in hand, checkpoints and stops (``kill -9`` still loses the work since the last checkpoint)."""

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


__all__ = ["stop_requested"]
