"""Worker processes that do not outlive the process that started them.

A worker started with ``spawn`` (an evaluation's or a corpus's, a training run's actors and its background
evaluation) keeps playing its unit of work when its parent is killed — SIGTERM's default action and SIGKILL run
no cleanup in the parent — and holds a core until that unit ends. On Linux a process can ask the kernel to kill
it when its parent dies (``prctl(PR_SET_PDEATHSIG)``, prctl(2)); elsewhere this module does nothing.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys

PR_SET_PDEATHSIG = 1
"""prctl(2) option: the signal this process gets when the thread that started it ends."""


def die_with_parent() -> None:
    """Called first thing in a worker process: on Linux, SIGKILL it when its parent dies; if the parent died
    before the request was made, exit now. A no-op elsewhere, and in a process that was not started by
    ``multiprocessing``."""
    parent = multiprocessing.parent_process()
    if not sys.platform.startswith("linux") or parent is None:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
        return
    if os.getppid() != parent.pid:
        os._exit(1)


__all__ = ["die_with_parent"]
