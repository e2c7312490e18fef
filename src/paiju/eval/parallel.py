"""Run an evaluation's independent units (decks, deals, shards) in parallel and collect the results in order.

Each unit must carry everything it needs (its own seeds), so that the results are the same for any number of
workers, any chunking and any backend (``Parallelism``): ``local`` runs the units in this process with one
worker, else in spawned processes; ``ray`` runs them as Ray tasks of one CPU each, on a local Ray instance or on
a cluster (``paiju.ray_cluster``). The work function and its arguments must be picklable (a module-level
function, a ``functools.partial`` of one with a frozen config), and anything costly such as agents is built
inside the worker. On a cluster every node needs paiju installed, and work that writes files (corpus shards)
needs a folder that every node sees.

An error raised by the work in a worker is raised here as it was (``AgentError`` naming the agent, the seat
and the cause); one that cannot be pickled comes back as a ``PaijuError`` with its type and text, and a
worker that dies raises a ``PaijuError`` naming units left unplayed. Local workers die with this process
(``paiju.core.processes``): killing an evaluation leaves none of them playing on. Ray may run a task again when
its worker dies (the units' seeds make the results the same).
"""

from __future__ import annotations

import math
import multiprocessing
import pickle
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal, Protocol, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from paiju.core.errors import PaijuError
from paiju.core.processes import die_with_parent
from paiju.eval.checks import is_positive_integer

Result = TypeVar("Result")
Work = Callable[[range], list[Any]]
Finished = Callable[[int, list[Any]], None]
"""Called with a chunk's index and its results as each chunk finishes."""

Backend = Literal["local", "ray"]
"""Where units run: processes on this machine, or Ray tasks (on this machine or a cluster)."""
BACKENDS: tuple[Backend, ...] = ("local", "ray")
CHUNKS_PER_WORKER = 8
"""Chunks handed to each worker, so that the load evens out and the progress bar moves."""
LOG_SECONDS = 60.0
"""Least time between two progress lines when standard error is not a terminal."""
MAX_CHUNK = 64
CANCEL_SECONDS = 5.0
"""How long Ray tasks cancelled after a failure are waited for."""


@dataclass(frozen=True, slots=True)
class Parallelism:
    """How independent units are played at once, and where; the results never depend on it."""

    workers: int = 1
    """Units in play at once: processes (``local``) or Ray tasks of one CPU each (``ray``)."""
    backend: Backend = "local"
    """``local``: this process with one worker, else spawned processes; ``ray``: Ray tasks."""
    address: str | None = None
    """Ray only: the address of a cluster started with ``ray start --head`` (``HEAD:6379``); ``None``: the Ray
    instance this process already runs, or a local one of ``workers`` CPUs."""

    def __post_init__(self) -> None:
        if not is_positive_integer(self.workers):
            raise PaijuError(f"workers must be a positive integer, got {self.workers!r}")
        if self.backend not in BACKENDS:
            raise PaijuError(f"unknown backend {self.backend!r}; choose {' or '.join(BACKENDS)}")
        if self.address is not None and self.backend != "ray":
            raise PaijuError(f"a cluster address ({self.address}) needs the ray backend, not {self.backend}")

    @classmethod
    def of(cls, config: Parallel) -> Parallelism:
        """The parallelism a configuration's ``workers``, ``backend`` and ``address`` fields describe."""
        return cls(config.workers, config.backend, config.address)

    @contextmanager
    def ready(self) -> Iterator[None]:
        """The ``with`` block with Ray started or joined for the ``ray`` backend (``map_units`` in it uses that
        instance), so that an unreachable cluster is refused before anything is written; nothing for ``local``."""
        if self.backend != "ray":
            yield
            return
        from paiju.ray_cluster import using_ray

        with using_ray(self.address, self.workers):
            yield


class Parallel(Protocol):
    """A configuration naming its parallelism in three fields, as evaluation and corpus configurations do."""

    @property
    def workers(self) -> int: ...

    @property
    def backend(self) -> Backend: ...

    @property
    def address(self) -> str | None: ...


def map_units(work: Callable[[range], list[Result]], units: int, parallelism: Parallelism | int,
              progress: bool = True, description: str = "playing") -> list[Result]:
    """``work`` applied to consecutive chunks of ``range(units)``, results concatenated in unit order.

    ``work(chunk)`` returns one result per unit of ``chunk``. ``parallelism`` says where the chunks run (a number:
    that many local workers); the chunks are the same for every backend. A progress bar (on standard error)
    counts units as their chunks finish; when standard error is not a terminal, plain lines do (``ProgressLines``).
    """
    run = parallelism if isinstance(parallelism, Parallelism) else Parallelism(parallelism)
    if units < 0:
        raise ValueError(f"need units >= 0, got units={units}")
    size = max(1, min(MAX_CHUNK, math.ceil(units / (run.workers * CHUNKS_PER_WORKER))))
    chunks = [range(start, min(start + size, units)) for start in range(0, units, size)]
    if not chunks:  # nothing to start Ray or processes for
        return []
    done: dict[int, list[Result]] = {}
    with _progress_bar(progress, description, units) as advance:

        def finished(index: int, results: list[Result]) -> None:
            done[index] = _checked(results, chunks[index])
            advance(len(chunks[index]))

        if run.backend == "ray":
            _in_ray_tasks(work, chunks, run, finished)
        elif run.workers == 1:
            for index, chunk in enumerate(chunks):
                finished(index, work(chunk))
        else:
            _in_processes(work, chunks, run.workers, finished)
    return [result for index in range(len(chunks)) for result in done[index]]


def _in_processes(work: Work, chunks: Sequence[range], workers: int, finished: Finished) -> None:
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=die_with_parent) as pool:
        futures = {pool.submit(_work_in_worker, work, chunk): index for index, chunk in enumerate(chunks)}
        try:
            for future in as_completed(futures):
                index = futures[future]
                finished(index, _result(future.result, chunks[index]))
        finally:  # after a failure, do not play the chunks still waiting
            for future in futures:
                future.cancel()


def _in_ray_tasks(work: Work, chunks: Sequence[range], parallelism: Parallelism, finished: Finished) -> None:
    """The chunks as Ray tasks of one CPU, ``parallelism.workers`` of them in flight at a time."""
    with parallelism.ready():
        import ray

        task = ray.remote(num_cpus=1)(_work_in_worker)
        shared = ray.put(work)
        waiting = deque(enumerate(chunks))
        running: dict[Any, int] = {}
        try:
            while waiting or running:
                while waiting and len(running) < parallelism.workers:
                    index, chunk = waiting.popleft()
                    running[task.remote(shared, chunk)] = index
                (ready,), _ = ray.wait(list(running))
                index = running.pop(ready)
                finished(index, _ray_result(ray, ready, chunks[index]))
        finally:  # after a failure, stop the chunks in play; their results and errors go unseen, as locally
            for reference in running:
                ray.cancel(reference)
            _drop(ray, list(running))


def _drop(ray: ModuleType, references: list[Any]) -> None:
    """Collect cancelled tasks' outcomes (waiting ``CANCEL_SECONDS`` at most), so that Ray does not log their
    errors as unhandled."""
    if not references:
        return
    ended, _ = ray.wait(references, num_returns=len(references), timeout=CANCEL_SECONDS)
    for reference in ended:
        with suppress(ray.exceptions.RayError):
            ray.get(reference)


def _work_in_worker(work: Work, chunk: range) -> list[Any]:
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


def _ray_result(ray: ModuleType, reference: Any, chunk: range) -> list[Any]:
    """A finished Ray task's results; the work's own error raised as itself; a ``PaijuError`` naming the chunk
    when the task could not finish."""
    try:
        return ray.get(reference)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, Exception):
            raise error.cause from None
        raise PaijuError(f"work on units {_units(chunk)} failed: {error}") from None
    except ray.exceptions.RayError as error:
        raise PaijuError(f"a Ray task stopped before units {_units(chunk)} were played "
                         f"({type(error).__name__})") from None


def _units(chunk: range) -> str:
    return f"{chunk.start}..{chunk.stop - 1}"


def _checked(results: list[Result], chunk: range) -> list[Result]:
    if len(results) != len(chunk):
        raise RuntimeError(f"work on units {_units(chunk)} returned {len(results)} results")
    return results


@contextmanager
def _progress_bar(shown: bool, description: str, total: int) -> Iterator[Callable[[int], None]]:
    """A bar on a terminal; elsewhere (a log file, a batch job) one plain line at most every ``LOG_SECONDS``."""
    if not shown:
        yield lambda units: None
        return
    console = Console(stderr=True)
    if not console.is_terminal:
        yield ProgressLines(description, total, console)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with Progress(*columns, console=console) as bar:
        task = bar.add_task(description, total=total)
        yield lambda units: bar.advance(task, units)


class ProgressLines:
    """Progress written as plain lines (``playing: 64/256 (25 %), 12 min elapsed, about 36 min left``): the first
    finished chunk, then at most one line every ``LOG_SECONDS``, and the last; the time left assumes the units to
    come take as long as those done."""

    def __init__(self, description: str, total: int, console: Console, clock: Callable[[], float] = time.monotonic,
                 ) -> None:
        self.description, self.total, self.console, self.clock = description, total, console, clock
        self.start = clock()
        self.done = 0
        self.last_line: float | None = None

    def __call__(self, units: int) -> None:
        self.done += units
        now = self.clock()
        if self.done < self.total and self.last_line is not None and now - self.last_line < LOG_SECONDS:
            return
        self.last_line = now
        elapsed = now - self.start
        line = (f"{self.description}: {self.done}/{self.total} ({100 * self.done // self.total} %), "
                f"{_minutes(elapsed)} elapsed")
        if self.done < self.total:
            line += f", about {_minutes(elapsed * (self.total - self.done) / self.done)} left"
        self.console.print(line, highlight=False, soft_wrap=True)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 60 else f"{seconds / 60:.0f} min"
