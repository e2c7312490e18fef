"""Run an evaluation's independent units (decks) in worker processes and collect the results in order.

Each unit must carry everything it needs (its own seeds), so that the results are the same for any
number of workers and any chunking. Workers are started with ``spawn``: the work function and its
arguments must be picklable (a module-level function, a ``functools.partial`` of one with a frozen
config), and anything costly such as agents is built inside the worker.

An error raised by the work in a worker is raised here as it was (``AgentError`` naming the agent, the seat
and the cause); one that cannot be pickled comes back as a ``PaijuError`` with its type and text, and a
worker that dies raises a ``PaijuError`` naming units left unplayed.
"""

from __future__ import annotations

import math
import multiprocessing
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from paiju.core.errors import PaijuError

Result = TypeVar("Result")

CHUNKS_PER_WORKER = 8
"""Chunks handed to each worker, so that the load evens out and the progress bar moves."""
MAX_CHUNK = 64


def map_units(work: Callable[[range], list[Result]], units: int, workers: int, progress: bool = True,
              description: str = "playing") -> list[Result]:
    """``work`` applied to consecutive chunks of ``range(units)``, results concatenated in unit order.

    ``work(chunk)`` returns one result per unit of ``chunk``. With one worker everything runs in this
    process; otherwise in ``workers`` spawned processes. A progress bar (on standard error) counts units.
    """
    if units < 0 or workers < 1:
        raise ValueError(f"need units >= 0 and workers >= 1, got units={units}, workers={workers}")
    size = max(1, min(MAX_CHUNK, math.ceil(units / (workers * CHUNKS_PER_WORKER))))
    chunks = [range(start, min(start + size, units)) for start in range(0, units, size)]
    done: dict[int, list[Result]] = {}
    with _progress_bar(progress, description, units) as advance:
        if workers == 1:
            for index, chunk in enumerate(chunks):
                done[index] = _checked(work(chunk), chunk)
                advance(len(chunk))
        else:
            with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
                futures = {pool.submit(_work_in_worker, work, chunk): index for index, chunk in enumerate(chunks)}
                try:
                    for future in as_completed(futures):
                        index = futures[future]
                        done[index] = _checked(_result(future.result, chunks[index]), chunks[index])
                        advance(len(chunks[index]))
                finally:  # after a failure, do not play the chunks still waiting
                    for future in futures:
                        future.cancel()
    return [result for index in range(len(chunks)) for result in done[index]]


def _work_in_worker(work: Callable[[range], list[Result]], chunk: range) -> list[Result]:
    """``work(chunk)``, run in a worker: an error that cannot be pickled back is replaced by a ``PaijuError``."""
    try:
        return work(chunk)
    except Exception as error:
        try:
            pickle.loads(pickle.dumps(error))
        except Exception:
            raise PaijuError(f"work on units {_units(chunk)} failed: {type(error).__name__}: {error}") from None
        raise


def _result(result: Callable[[], list[Result]], chunk: range) -> list[Result]:
    """A finished chunk's results; a ``PaijuError`` naming the chunk when its worker died."""
    try:
        return result()
    except BrokenProcessPool as error:
        raise PaijuError(f"a worker process died before units {_units(chunk)} were played ({error})") from None


def _units(chunk: range) -> str:
    return f"{chunk.start}..{chunk.stop - 1}"


def _checked(results: list[Result], chunk: range) -> list[Result]:
    if len(results) != len(chunk):
        raise RuntimeError(f"work on units {_units(chunk)} returned {len(results)} results")
    return results


@contextmanager
def _progress_bar(shown: bool, description: str, total: int) -> Iterator[Callable[[int], None]]:
    if not shown:
        yield lambda units: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True)) as bar:
        task = bar.add_task(description, total=total)
        yield lambda units: bar.advance(task, units)
