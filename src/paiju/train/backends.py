"""Where the actors run: ``local`` (one process each on this machine) or ``ray`` (Ray actors, on this machine
or across a cluster started with ``ray start``). The learner sees one interface, ``ActorPool``:

- ``submit(worker, index, frames, weights)`` asks ``worker`` for chunk ``index`` (``SelfPlayWorker.collect``),
  with fresh weights or ``None`` to keep its current ones;
- ``result(worker)`` waits for that worker's chunk.

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
from paiju.train.config import DMCConfig
from paiju.train.selfplay import Chunk, SelfPlayWorker, Weights


class TrainingError(PaijuError):
    """An actor failed, or the backend could not start."""


def worker_arguments(config: DMCConfig, worker: int) -> tuple[Any, ...]:
    from paiju.eval.seeds import derive_seed

    return config.game, config.objective, config.model, config.epsilon, derive_seed(config.seed, "actor", worker)


class ActorPool(ABC):
    @abstractmethod
    def submit(self, worker: int, index: int, frames: int, weights: Weights | None) -> None: ...

    @abstractmethod
    def result(self, worker: int) -> Chunk: ...

    @abstractmethod
    def close(self) -> None: ...


def _serve(connection: Connection, arguments: tuple[Any, ...]) -> None:
    """A local actor process: build the worker, then answer ``collect`` requests until told to stop."""
    worker = SelfPlayWorker(*arguments)
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

    def __init__(self, config: DMCConfig) -> None:
        context = multiprocessing.get_context("spawn")
        self.connections: list[Connection] = []
        self.processes = []
        for worker in range(config.actors):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there, worker_arguments(config, worker)), daemon=True,
                                      name=f"paiju-dmc-actor-{worker}")
            process.start()
            there.close()
            self.connections.append(here)
            self.processes.append(process)

    def submit(self, worker: int, index: int, frames: int, weights: Weights | None) -> None:
        self.connections[worker].send((index, frames, weights))

    def result(self, worker: int) -> Chunk:
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
    """Ray actors (one CPU each); the learner stays in the driver. ``address``: join an existing cluster."""

    def __init__(self, config: DMCConfig) -> None:
        import ray

        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            if config.address:
                ray.init(address=config.address, log_to_driver=False)
            else:
                ray.init(num_cpus=config.actors, include_dashboard=False, log_to_driver=False)
        remote = ray.remote(num_cpus=1)(SelfPlayWorker)
        self.ray = ray
        self.actors = [remote.remote(*worker_arguments(config, worker)) for worker in range(config.actors)]
        self.pending: dict[int, Any] = {}

    def submit(self, worker: int, index: int, frames: int, weights: Weights | None) -> None:
        self.pending[worker] = self.actors[worker].collect.remote(index, frames, weights)

    def result(self, worker: int) -> Chunk:
        try:
            return self.ray.get(self.pending.pop(worker))
        except self.ray.exceptions.RayError as error:
            raise TrainingError(f"Ray actor {worker} failed: {error}") from None

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        if self.owns_ray:
            self.ray.shutdown()


def start_pool(config: DMCConfig) -> ActorPool:
    """The actors of ``config.backend``."""
    return RayPool(config) if config.backend == "ray" else LocalPool(config)


__all__ = ["ActorPool", "LocalPool", "RayPool", "TrainingError", "start_pool"]
