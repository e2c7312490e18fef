"""Where the actors run: ``local`` (one process each on this machine) or ``ray`` (Ray actors, on this machine
or across a cluster started with ``ray start``). An actor is any object with a ``collect`` method, built in its
own process from a class and that actor's arguments (each trainer's ``*_selfplay`` or ``*_actors`` module).
The learner sees one interface, ``ActorPool``:

- ``submit(worker, *arguments)`` asks actor ``worker`` for ``collect(*arguments)`` (DMC: a chunk index, its
  frames, and fresh weights or ``None`` to keep the current ones);
- ``result(worker)`` waits for that call's result.

A worker that fails raises ``TrainingError`` with its traceback in the learner: nothing is retried silently.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import traceback
from abc import ABC, abstractmethod
from multiprocessing.connection import Connection
from typing import Any

from paiju.core.errors import PaijuError
from paiju.core.processes import die_with_parent
from paiju.ray_cluster import start_ray
from paiju.train.stopping import ignore_sigint, sigint_held

Actors = tuple[type, list[tuple[Any, ...]]]
"""The actors of a pool: their class, and one tuple of constructor arguments per actor."""


class TrainingError(PaijuError):
    """An actor failed, or the backend could not start."""


class ActorPool(ABC):
    @abstractmethod
    def submit(self, worker: int, *arguments: Any) -> None: ...

    @abstractmethod
    def result(self, worker: int) -> Any: ...

    @abstractmethod
    def close(self) -> None: ...


def _serve(connection: Connection, actor_class: type, arguments: tuple[Any, ...]) -> None:
    """A local actor process: build the actor, then answer ``collect`` requests until told to stop. Ctrl-C is the
    learner's to handle (it finishes the step in hand, then stops the actors): the process ignores SIGINT. It dies
    with the learner's process (``die_with_parent``)."""
    die_with_parent()
    ignore_sigint()
    worker = actor_class(*arguments)
    while True:
        request = connection.recv()
        if request is None:
            return
        try:
            connection.send(("ok", worker.collect(*request)))
        except Exception:
            connection.send(("error", traceback.format_exc()))
            return


class LocalPool(ActorPool):
    """Actor processes started with ``spawn`` (no state inherited from the learner), talking over pipes."""

    def __init__(self, actors: Actors) -> None:
        context = multiprocessing.get_context("spawn")
        self.connections: list[Connection] = []
        self.processes = []
        actor_class, arguments = actors
        for worker, own in enumerate(arguments):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there, actor_class, own), daemon=True,
                                      name=f"paiju-actor-{worker}")
            with sigint_held():
                process.start()
            there.close()
            self.connections.append(here)
            self.processes.append(process)

    def submit(self, worker: int, *arguments: Any) -> None:
        self.connections[worker].send(arguments)

    def result(self, worker: int) -> Any:
        try:
            status, value = self.connections[worker].recv()
        except EOFError:
            code = self.processes[worker].exitcode
            raise TrainingError(f"actor {worker} exited (code {code})") from None
        if status != "ok":
            raise TrainingError(f"actor {worker} failed:\n{value}")
        return value

    def close(self) -> None:
        for connection in self.connections:
            with contextlib.suppress(BrokenPipeError, OSError):
                connection.send(None)
        for process in self.processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()


class RayPool(ActorPool):
    """Ray actors (one CPU each); the learner stays in the driver. ``address``: join an existing cluster (see
    ``paiju.ray_cluster``: the Ray instance this process already runs is kept)."""

    def __init__(self, actors: Actors, address: str | None) -> None:
        actor_class, arguments = actors
        self.owns_ray = start_ray(address or None, len(arguments))
        import ray

        remote = ray.remote(num_cpus=1)(actor_class)
        self.ray = ray
        self.actors = [remote.remote(*own) for own in arguments]
        self.pending: dict[int, Any] = {}

    def submit(self, worker: int, *arguments: Any) -> None:
        self.pending[worker] = self.actors[worker].collect.remote(*arguments)

    def result(self, worker: int) -> Any:
        try:
            return self.ray.get(self.pending.pop(worker))
        except self.ray.exceptions.RayError as error:
            raise TrainingError(f"Ray actor {worker} failed: {error}") from None

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        if self.owns_ray:
            self.ray.shutdown()


def start_pool(backend: str, address: str | None, actors: Actors) -> ActorPool:
    """``actors`` on ``backend`` (``ray``, joining the cluster at ``address`` when given, or ``local``)."""
    return RayPool(actors, address) if backend == "ray" else LocalPool(actors)


__all__ = ["ActorPool", "Actors", "LocalPool", "RayPool", "TrainingError", "start_pool"]
