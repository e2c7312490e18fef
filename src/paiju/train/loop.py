"""What every trainer's main loop shares (``paiju train dmc``, ``ppo``, ``scrofazero``): the actor pool, the
stop signals, the progress log, periodic checkpoints and the background evaluation.

A trainer opens ``training_loop(config, actors, losses, ...)``, asks ``loop.running(done)`` before each unit
of work (a chunk, a batch), appends its losses to ``loop.losses`` and calls ``loop.after_step(...)`` after it,
which writes a log row, a checkpoint or starts an evaluation when each is due. Leaving the block closes the pool,
the evaluator and the log. The config is any trainer's settings with the operational fields named in
``OPERATIONAL`` (and ``out``); those, and the run's bound, are what may change when a run is resumed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console

from paiju.train.backends import Actors, start_pool
from paiju.train.evaluation import EVAL_MODEL_FILE, BackgroundEvaluator
from paiju.train.logs import TrainingLog
from paiju.train.stopping import stop_requested

OPERATIONAL = ("minutes", "actors", "backend", "address", "checkpoint_minutes", "eval_minutes", "eval_deals",
               "eval_opponents", "log_seconds")
"""Settings a resumed run takes from its new command line; the learning settings stay the checkpoint's."""

Config = TypeVar("Config")


State = TypeVar("State")


def settings_to_json(config: Any, **converted: Any) -> dict[str, Any]:
    """A trainer's settings as JSON data: every field, ``out`` and ``eval_opponents`` made plain, and
    ``converted`` (e.g. the model's sizes) in place of the fields it names."""
    data = {f.name: getattr(config, f.name) for f in fields(config)}
    data.update(out=str(config.out), eval_opponents=list(config.eval_opponents), **converted)
    return data


def settings_from_json(cls: type[Config], data: dict[str, Any], **parsed: Any) -> Config:
    """The settings ``settings_to_json`` wrote (unknown keys ignored), with ``parsed`` in place of the fields
    it names."""
    known = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    values = {key: value for key, value in data.items() if key in known}
    values.update(out=Path(data["out"]), eval_opponents=tuple(data.get("eval_opponents", ())), **parsed)
    return cls(**values)


def resumed(saved: Config, given: Config, bound: str) -> Config:
    """``saved`` with the operational settings and the bound (``frames`` or ``games``) of ``given``."""
    return replace(saved, **{name: getattr(given, name) for name in (*OPERATIONAL, bound)})  # type: ignore[type-var]


def open_run(config: Any, resume: bool, command: str, load: Callable[[Path], State], fresh: Callable[[Any], State],
             bound: str) -> State:
    """The learner state of a run: ``fresh(config)``, or (``resume``) ``load(config.out)`` with ``config``'s
    operational settings and ``bound``; ``command`` is appended to its commands, torch gets its threads."""
    import torch

    config.out.mkdir(parents=True, exist_ok=True)
    state = load(config.out) if resume else fresh(config)
    if resume:
        state.config = resumed(state.config, config, bound)  # type: ignore[attr-defined]
    if command:
        state.progress.commands.append(command)  # type: ignore[attr-defined]
    torch.set_num_threads(state.config.learner_threads)  # type: ignore[attr-defined]
    return state


def share(config: Any, batch: int) -> list[tuple[int, int, str]]:
    """Actor ``w``'s part of batch ``batch`` of a trainer playing ``config.batch_games`` games a batch: (chunk
    index ``batch · actors + w``, games, the teacher's name while the first ``warm_games`` are played, else "")."""
    teacher = config.teacher if batch * config.batch_games < config.warm_games else ""
    base, extra = divmod(config.batch_games, config.actors)
    return [(batch * config.actors + worker, base + (worker < extra), teacher) for worker in range(config.actors)]


class TrainingLoop:
    """The periodic duties of one invocation of a trainer (module doc)."""

    def __init__(self, config: Any, actors: Actors, losses: tuple[str, ...], seconds_before: float,
                 frames_before: int, console: Console | None, tensorboard: bool, games_in_eval: bool = True) -> None:
        self.config = config
        self.games_in_eval = games_in_eval
        self.log = TrainingLog(config.out, losses, console, tensorboard)
        self.evaluator = BackgroundEvaluator() if config.eval_minutes > 0 and config.eval_opponents else None
        self.pool = start_pool(config.backend, config.address, actors)
        self.started = time.monotonic()
        self.last_log = self.last_checkpoint = self.last_eval = self.started
        self.seconds_before, self.log_frames = seconds_before, frames_before
        self.losses: dict[str, list[float]] = {name: [] for name in losses}
        self.stop_event: threading.Event | None = None
        self.evaluated = False

    @property
    def elapsed(self) -> float:
        """Seconds since this invocation started."""
        return time.monotonic() - self.started

    @property
    def seconds(self) -> float:
        """Seconds trained in all (across resumes)."""
        return self.seconds_before + self.elapsed

    def running(self, done: bool) -> bool:
        """Whether to go on: not ``done`` (the run's own bound), within ``minutes``, and no stop requested."""
        over_time = self.config.minutes > 0 and self.elapsed >= 60 * self.config.minutes
        stopped = self.stop_event is not None and self.stop_event.is_set()
        return not (done or over_time or stopped)

    def after_step(self, frames: int, games: int, checkpoint: Callable[[], None],
                   snapshot: Callable[[Path], str], game: str) -> None:
        """Log, checkpoint (``checkpoint()``) and evaluate when due; ``snapshot(path)`` saves the networks for the
        evaluation and returns their agent name. ``frames`` and ``games``: the run's counts so far."""
        now = time.monotonic()
        config = self.config
        if now - self.last_log >= config.log_seconds:
            means = {name: sum(values) / len(values) if values else None for name, values in self.losses.items()}
            self.log.learner(self.seconds, frames, (frames - self.log_frames) / max(now - self.last_log, 1e-9),
                             games, means)
            self.last_log, self.log_frames = now, frames
            self.losses = {name: [] for name in self.losses}
        if now - self.last_checkpoint >= 60 * config.checkpoint_minutes:
            checkpoint()
            self.last_checkpoint = now
        if self.evaluator is not None:
            self.log.evaluation(self.evaluator.finished())
            if now - self.last_eval >= 60 * config.eval_minutes and not self.evaluator.busy:
                self._evaluate(frames, games, snapshot, game)
                self.last_eval = now

    def _evaluate(self, frames: int, games: int, snapshot: Callable[[Path], str], game: str) -> None:
        config = self.config
        assert self.evaluator is not None
        agent = snapshot(config.out / EVAL_MODEL_FILE)
        self.evaluator.start(game, agent, config.eval_opponents, config.eval_deals, config.seed, self.seconds,
                             frames, games if self.games_in_eval else 0)
        self.evaluated = True

    def finish(self, frames: int, games: int, snapshot: Callable[[Path], str], game: str) -> None:
        """The end of an invocation that reached its bound: if it was shorter than the evaluation period (no
        evaluation started in it), evaluate the final networks now and wait for the result, so that every run
        has a point to plot. An invocation stopped by Ctrl-C or SIGTERM stops at once."""
        if self.evaluator is None or self.evaluated or (self.stop_event is not None and self.stop_event.is_set()):
            return
        self._evaluate(frames, games, snapshot, game)
        self.log.evaluation(self.evaluator.finished(wait=True))

    def close(self) -> None:
        self.pool.close()
        if self.evaluator is not None:
            self.evaluator.close()
        self.log.close()


@contextmanager
def training_loop(config: Any, actors: Actors, losses: tuple[str, ...], seconds_before: float, frames_before: int,
                  console: Console | None, tensorboard: bool, games_in_eval: bool = True) -> Iterator[TrainingLoop]:
    """A ``TrainingLoop`` for the block; Ctrl-C or SIGTERM inside it makes ``running`` false (the trainer then
    checkpoints and returns). ``games_in_eval=False``: evaluation rows count frames only (``paiju plot`` then
    draws them against frames)."""
    loop = TrainingLoop(config, actors, losses, seconds_before, frames_before, console, tensorboard, games_in_eval)
    try:
        with stop_requested() as stop:
            loop.stop_event = stop
            yield loop
    finally:
        loop.close()


__all__ = ["OPERATIONAL", "TrainingLoop", "open_run", "resumed", "settings_from_json", "settings_to_json",
           "share", "training_loop"]
