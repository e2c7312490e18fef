"""Distilling the search into a network (``paiju train distil``): read this file top to bottom.

Actors (``paiju.train.distil_actors.LabelWorker``) play the prior against itself and label the prior's best ``top``
candidates of every position with the search's value of each — the rollout policy's result after it. The
learner fits the network's *gains*, the differences that decide the distilled agent's move
(``paiju.agents.distil``):

    loss = mean over positions and candidates i ≥ 1 of  huber((Q(s, a_i) − Q(s, a_0)) − (v_i − v_0))

where ``a_0`` is the prior's choice and ``v`` the labels. Differences cancel what every candidate of a deal
shares (how good the cards were), which is most of a return's variance. The networks are DMC networks,
initialised from a DMC model (``--init``, the shipped ``dmc`` by default). Positions a new run's folder already
holds (an earlier run's ``positions/``, copied in) are trained on first.

Labels do not depend on the network, so every labelled chunk is kept (``DIR/positions/chunk-K.npz``, written
atomically) and trained on again: after each chunk the learner takes ``replay`` × (new positions / batch)
steps on batches drawn from all training positions so far. Chunks ``K ≡ 0 (mod 10)`` are held out; the log
reports their loss and ``gain``: the mean label gain of the candidate the network picks (with ``margin``) over
the prior's choice, in the true deal — what the agent would add per decision, had the rollout policy
played on. ``--resume DIR`` continues from the checkpoint (networks, optimizers, counters) and the positions of
the chunks it had consumed; the loop, logs, checkpoints and background evaluation (``distilled:MODEL`` against
``rules``) are the shared runtime's (``paiju.train.loop``). Chunks, batches and initial weights come from the seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from paiju.agents import make_agent
from paiju.agents.distil.agent import DISTIL_META
from paiju.agents.dmc import models_at
from paiju.agents.dmc.adapters import GAMES
from paiju.agents.dmc.weights import DMCModels, save_models
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors
from paiju.train.distil_actors import LabelChunk, LabelWorker, Positions
from paiju.train.loop import (
    ChunkProgress,
    ChunkRun,
    RunSettings,
    TrainingLoop,
    TrainResult,
    actor_seeds,
    load_optimizer_states,
    optimizer_states,
    run_training,
)

POSITIONS = "positions"
HELD_OUT = 10
"""Every ``HELD_OUT``-th chunk is kept for validation."""


@dataclass(frozen=True, kw_only=True)
class DistilConfig(RunSettings, trainer="distil", games=GAMES, bound="positions",
                   at_least_one=("chunk_positions", "batch_size"), not_negative=("margin",)):
    """One distillation run; ``minutes`` (of this invocation) and ``positions`` (in all) bound it, whichever comes
    first (0: no bound)."""

    positions: int = 0
    prior: str = "rules"
    rollout: str = "rules"
    top: int = 5
    margin: float = 0.0
    actors: int = 1
    chunk_positions: int = 400
    batch_size: int = 256
    learning_rate: float = 1e-4
    grad_clip: float = 40.0
    replay: float = 4.0
    log_seconds: float = 30.0
    eval_opponents: tuple[str, ...] = ("rules",)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.top < 2:
            raise PaijuError(f"top must be at least 2 (a choice to learn), got {self.top}")
        if self.replay <= 0:
            raise PaijuError(f"replay must be positive, got {self.replay}")
        for spec in (self.prior, self.rollout):
            make_agent(spec, self.game).close()


@dataclass
class DistilProgress(ChunkProgress):
    positions: int = 0
    """Training positions trained on (held-out chunks not counted)."""


def candidate_values(network: torch.nn.Module, positions: Positions) -> torch.Tensor:
    """Q of every candidate row, [n, top] (padding rows included; ``count`` says which are real)."""
    n, top, width = positions.x.shape
    context = {name: torch.from_numpy(value).float().repeat_interleave(top, dim=0)
               for name, value in positions.context.items()}
    return network(torch.from_numpy(positions.x).float().reshape(n * top, width), **context).reshape(n, top)


def gain_loss(network: torch.nn.Module, batch: Positions) -> torch.Tensor:
    """The Huber loss of the predicted gains over the prior's choice against the labelled ones."""
    return _gain_loss(candidate_values(network, batch), batch)


def _gain_loss(q: torch.Tensor, batch: Positions) -> torch.Tensor:
    values = torch.from_numpy(batch.values)
    top = values.shape[1]
    mask = torch.arange(1, top)[None] < torch.from_numpy(batch.count).long()[:, None]
    return F.smooth_l1_loss((q[:, 1:] - q[:, :1])[mask], (values[:, 1:] - values[:, :1])[mask])


def validate(network: torch.nn.Module, held_out: Positions, margin: float) -> tuple[float, float]:
    """Held-out loss, and the mean labelled gain of the network's pick (with ``margin``) over the prior's."""
    with torch.inference_mode():
        predicted = candidate_values(network, held_out)
        loss = _gain_loss(predicted, held_out).item()
    q = predicted.numpy()
    n, top = q.shape
    gains = np.where(np.arange(top)[None] < held_out.count[:, None], q - q[:, :1], -np.inf)
    pick = np.where(gains.max(axis=1) > margin, gains.argmax(axis=1), 0)
    chosen = held_out.values[np.arange(n), pick]
    return loss, float((chosen - held_out.values[:, 0]).mean())


def save_chunk(folder: Path, chunk: LabelChunk) -> None:
    """``chunk-K.npz`` holding each role's arrays as ``ROLE/NAME``, written then renamed."""
    folder.mkdir(parents=True, exist_ok=True)
    arrays = {f"{role}/{name}": value for role, positions in chunk.positions.items()
              for name, value in positions.to_arrays().items()}
    temporary = folder / f".chunk-{chunk.index:06d}.npz.tmp"
    with temporary.open("wb") as file:
        np.savez_compressed(file, **arrays)
    temporary.replace(folder / f"chunk-{chunk.index:06d}.npz")


def load_chunk(path: Path) -> dict[str, Positions]:
    try:
        with np.load(path) as data:
            by_role: dict[str, dict[str, np.ndarray]] = {}
            for key in data.files:
                role, _, name = key.partition("/")
                by_role.setdefault(role, {})[name] = data[key]
        return {role: Positions.from_arrays(arrays) for role, arrays in by_role.items()}
    except (OSError, ValueError, KeyError) as error:
        raise PaijuError(f"{path}: damaged positions file: {error}") from None


class Buffer:
    """A role's training or held-out positions, grown chunk by chunk."""

    def __init__(self) -> None:
        self.parts: list[Positions] = []
        self.joined: Positions | None = None

    def add(self, positions: Positions) -> None:
        self.parts.append(positions)
        self.joined = None

    def all(self) -> Positions | None:
        if self.joined is None and self.parts:
            self.joined = Positions.concat(self.parts)
            self.parts = [self.joined]
        return self.joined

    def __len__(self) -> int:
        return len(self.all() or ())


def starting_models(config: DistilConfig) -> DMCModels:
    """A copy of ``--init``: a distilled network as it is (an earlier run goes on), a DMC network with its output
    layer zeroed (its features are kept, and every gain starts at 0, so the untrained agent plays as the prior)."""
    source = models_at(config.init, config.game)
    models = DMCModels.from_dict(source.to_dict(), config.init or "the shipped dmc model")
    if DISTIL_META in source.meta:
        return models
    models.meta = {"init": config.init or "dmc", "init_meta": source.meta}
    for network in models.networks.values():
        output = network.mlp[-1]
        torch.nn.init.zeros_(output.weight)
        torch.nn.init.zeros_(output.bias)
    return models


class DistilRun(ChunkRun[DistilConfig, DistilProgress], settings=DistilConfig, progress=DistilProgress,
                agent="distilled", unit="positions"):
    """The learner: every role's network and optimizer, and the positions of the chunks consumed."""

    def __init__(self, config: DistilConfig, progress: DistilProgress, models: DMCModels, up_to: int | None) -> None:
        """``up_to``: load the stored chunks before this index (``None``: all, and go on after the last)."""
        super().__init__(config, progress)
        self.models = models
        self.init_meta = {key: value for key, value in models.meta.items() if key != DISTIL_META}
        self.optimizers = {role: torch.optim.Adam(network.parameters(), lr=config.learning_rate)
                           for role, network in models.networks.items()}
        self.training = {role: Buffer() for role in models.networks}
        self.held = {role: Buffer() for role in models.networks}
        self.held_out: dict[str, tuple[float, float]] = {}
        folder = config.out / POSITIONS
        stored = {int(path.stem.split("-")[1]): path for path in folder.glob("chunk-*.npz")} if folder.is_dir() else {}
        for index in sorted(stored):
            if up_to is None or index < up_to:
                self._store(index, load_chunk(stored[index]))
        if up_to is None:
            progress.chunks = 1 + max(stored, default=-1)
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(derive_seed(config.seed, "batches", progress.chunks))

    @classmethod
    def create(cls, config: DistilConfig) -> DistilRun:
        return cls(config, DistilProgress(), starting_models(config), None)

    @classmethod
    def restore(cls, config: DistilConfig, progress: DistilProgress, data: dict[str, Any]) -> DistilRun:
        run = cls(config, progress, DMCModels.from_dict(data["models"], str(config.out)), progress.chunks)
        load_optimizer_states(run.optimizers, data["optimizers"])
        return run

    def learner_data(self) -> dict[str, Any]:
        return {"models": self.models.to_dict(), "optimizers": optimizer_states(self.optimizers)}

    def save_networks(self, path: Path) -> str:
        """The networks, with how the agent plays them and their held-out figures (``DISTIL_META``)."""
        config = self.config
        self.held_out = {role: validate(self.models.networks[role], positions, config.margin)
                         for role, buffer in self.held.items() if (positions := buffer.all()) is not None}
        held = {role: {"loss": round(loss, 5), "gain": round(gain, 5)} for role, (loss, gain) in self.held_out.items()}
        self.models.meta = {**self.init_meta, DISTIL_META: {
            "prior": config.prior, "top": config.top, "margin": config.margin, "rollout": config.rollout,
            **self.meta(), "held_out": held}}
        save_models(self.models, path)
        return f"distilled:{path}"

    def actors(self) -> Actors:
        config = self.config
        return LabelWorker, [(config.game, config.prior, config.rollout, config.top, seed,
                              self.models.config.features) for seed in actor_seeds(config)]

    def start(self, loop: TrainingLoop) -> None:
        """Ask the actors for the next chunks; train first on stored positions these networks never saw."""
        self.ask_first(loop, self.config.chunk_positions)
        stored = sum(len(buffer) for buffer in self.training.values())
        if stored > self.progress.positions:
            self.learn_steps(loop, stored - self.progress.positions)
            self.progress.positions = stored

    def step(self, loop: TrainingLoop) -> None:
        """The next chunk in order (its actor asked at once for another): kept on disk, learned from or held out."""
        config, progress = self.config, self.progress
        chunk: LabelChunk = self.next_chunk(loop, config.chunk_positions)
        progress.games += chunk.games
        save_chunk(config.out / POSITIONS, chunk)
        if self._store(chunk.index, chunk.positions):
            new = sum(len(positions) for positions in chunk.positions.values())
            self.learn_steps(loop, new)
            progress.positions += new

    def losses(self) -> tuple[str, ...]:
        return tuple(self.models.networks)

    def _store(self, index: int, positions: dict[str, Positions]) -> bool:
        """Add a chunk's positions to the held-out or the training buffers; whether they are for training."""
        training = index % HELD_OUT != 0
        for role, found in positions.items():
            (self.training if training else self.held)[role].add(found)
        return training

    def learn_steps(self, loop: TrainingLoop, positions: int) -> None:
        """``replay`` × ``positions`` / batch steps, each on a batch of one role drawn from all its positions
        (roles in proportion to their positions)."""
        config, roles = self.config, tuple(self.training)
        sizes = np.array([len(self.training[role]) for role in roles], dtype=np.float64)
        for _ in range(math.ceil(config.replay * positions / config.batch_size)):
            role = roles[self.rng.choice(len(roles), p=sizes / sizes.sum())]
            everything = self.training[role].all()
            assert everything is not None
            network = self.models.networks[role]
            loss = gain_loss(network, everything.take(self.rng.integers(0, len(everything), config.batch_size)))
            self.optimizers[role].zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
            self.optimizers[role].step()
            loop.losses[role].append(loss.item())
            self.progress.steps += 1

    def conclude(self, loop: TrainingLoop) -> None:
        held = "; ".join(f"{role}: loss {loss:.3f}, gain {gain:+.4f} a decision"
                         for role, (loss, gain) in self.held_out.items())
        loop.say(f"held out: {held or 'none yet'}")


RUN = DistilRun


def train(config: DistilConfig, **options: Any) -> TrainResult:
    """Label and learn until ``config``'s bound (``paiju.train.loop``)."""
    return run_training(DistilRun, config, **options)


__all__ = ["POSITIONS", "DistilConfig", "DistilProgress", "DistilRun", "gain_loss", "load_chunk", "train",
           "validate"]
