"""Distilling the search into a network (``paiju train distil``): read this file top to bottom.

Actors (``paiju.train.labels.LabelWorker``) play the prior against itself and label the prior's best ``top``
candidates of every position with the search's value of each — the rollout policy's result after it. The
learner fits the network's *gains*, the differences that decide the distilled agent's move
(``paiju.agents.distil``):

    loss = mean over positions and candidates i ≥ 1 of  huber((Q(s, a_i) − Q(s, a_0)) − (v_i − v_0))

where ``a_0`` is the prior's choice and ``v`` the labels. Differences cancel what every candidate of a deal
shares (how good the cards were), which is most of a return's variance. The networks are DMC networks,
initialised from a DMC model (``--init``, the shipped ``dmc`` by default) or from the run's own ``model.pt``
when the folder has one. Positions a folder holds that its networks have not been trained on (the positions of
an earlier run, copied in) are trained on first.

Labels do not depend on the network, so every labelled chunk is kept (``DIR/positions/chunk-K.npz``, written
atomically) and trained on again: after each chunk the learner takes ``replay`` × (new positions / batch)
steps on batches drawn from all training positions so far. Chunks ``K ≡ 0 (mod 10)`` are held out; the log
reports their loss and ``gain``: the mean label gain of the candidate the network picks (with ``margin``) over
the prior's choice, in the true deal — what the agent would add per decision, had the rollout policy
played on. A rerun on the same folder continues: it reloads the positions and the model and goes on with the
next chunk. Chunks, batches and initial weights come from the seed.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from rich.console import Console

from paiju.agents import make_agent
from paiju.agents.distil.agent import DISTIL_META
from paiju.agents.dmc import models_at
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.weights import MODEL_FILE, DMCModels, load_models, save_models
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors, start_pool
from paiju.train.labels import LabelChunk, LabelWorker, Positions
from paiju.train.logs import TrainingLog

POSITIONS = "positions"
HELD_OUT = 10
"""Every ``HELD_OUT``-th chunk is kept for validation."""


@dataclass(frozen=True)
class DistilConfig:
    """One distillation run; ``minutes`` and ``positions`` bound this invocation (whichever comes first; 0: no
    bound)."""

    game: str
    out: Path
    seed: int = 0
    minutes: float = 10.0
    positions: int = 0
    init: str = ""
    """The DMC model to start from (a file or training folder; empty: the shipped ``dmc``)."""
    prior: str = "rules"
    rollout: str = "rules"
    top: int = 5
    margin: float = 0.0
    actors: int = 1
    backend: str = "local"
    address: str | None = None
    chunk_positions: int = 400
    batch_size: int = 256
    learning_rate: float = 1e-4
    replay: float = 4.0
    log_seconds: float = 30.0

    def __post_init__(self) -> None:
        adapter_for(self.game)
        for name in ("actors", "chunk_positions", "batch_size"):
            if getattr(self, name) < 1:
                raise PaijuError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.top < 2:
            raise PaijuError(f"top must be at least 2 (a choice to learn), got {self.top}")
        if self.minutes <= 0 and self.positions <= 0:
            raise PaijuError("a run needs a bound: --minutes or --positions")
        if self.replay <= 0 or self.margin < 0:
            raise PaijuError(f"replay must be positive and margin at least 0, got {self.replay} and {self.margin}")
        for spec in (self.prior, self.rollout):
            make_agent(spec, self.game).close()


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


def starting_models(config: DistilConfig) -> DMCModels:
    """The run's own ``model.pt`` if it has one, else a copy of ``--init`` whose output layer is zeroed: its
    features are kept, and every gain starts at 0, so the untrained agent plays as the prior."""
    if (config.out / MODEL_FILE).is_file():
        return load_models(config.out)
    source = models_at(config.init, config.game)
    models = DMCModels.from_dict(source.to_dict(), config.init or "the shipped dmc model")
    models.meta = {"init": config.init or "dmc", "init_meta": source.meta}
    for network in models.networks.values():
        output = network.mlp[-1]
        torch.nn.init.zeros_(output.weight)
        torch.nn.init.zeros_(output.bias)
    return models


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


@dataclass(frozen=True)
class DistilResult:
    positions: int
    steps: int
    seconds: float
    held_out: dict[str, tuple[float, float]]
    """Per role: held-out loss and the pick's mean labelled gain."""


def train_distil(config: DistilConfig, console: Console | None = None, command: str = "") -> DistilResult:
    """Label and learn until ``config``'s bound; write ``DIR/model.pt`` every log line and at the end."""
    torch.set_num_threads(1)
    torch.manual_seed(config.seed)
    models = starting_models(config)
    roles = tuple(models.networks)
    optimizers = {role: torch.optim.Adam(net.parameters(), lr=config.learning_rate)
                  for role, net in models.networks.items()}
    train_buffers = {role: Buffer() for role in roles}
    held_buffers = {role: Buffer() for role in roles}
    folder = config.out / POSITIONS
    chunks = sorted(folder.glob("chunk-*.npz")) if folder.is_dir() else []
    for path in chunks:
        target = held_buffers if int(path.stem.split("-")[1]) % HELD_OUT == 0 else train_buffers
        for role, positions in load_chunk(path).items():
            target[role].add(positions)
    next_chunk = 1 + max((int(path.stem.split("-")[1]) for path in chunks), default=-1)
    meta = dict(models.meta)
    previous = meta.get("distil", {}) if isinstance(meta.get("distil"), dict) else {}
    totals = {"positions": int(previous.get("positions", 0)), "steps": int(previous.get("steps", 0)),
              "seconds": float(previous.get("seconds", 0.0)), "games": int(previous.get("games", 0))}
    commands = [*previous.get("commands", []), *([command] if command else [])]
    rng = np.random.default_rng(derive_seed(config.seed, "batches", next_chunk))
    log = TrainingLog(config.out, roles, console, tensorboard=False)
    actors: Actors = (LabelWorker, [(config.game, config.prior, config.rollout, config.top,
                                     derive_seed(config.seed, "actor", worker)) for worker in range(config.actors)])
    pool = start_pool(config.backend, config.address, actors)
    started = last_log = time.monotonic()
    losses: dict[str, list[float]] = {role: [] for role in roles}
    logged = totals["positions"]
    held_out: dict[str, tuple[float, float]] = {}

    def save() -> None:
        nonlocal held_out
        held_out = {role: validate(models.networks[role], positions, config.margin)
                    for role in roles if (positions := held_buffers[role].all()) is not None}
        models.meta = {**meta, DISTIL_META: {
            "prior": config.prior, "top": config.top, "margin": config.margin, "rollout": config.rollout,
            "seed": config.seed, **totals, "commands": commands, "config": {**asdict(config), "out": str(config.out)},
            "held_out": {role: {"loss": round(loss, 5), "gain": round(gain, 5)} for role, (loss, gain) in
                         held_out.items()}}}
        save_models(models, config.out / MODEL_FILE)

    def learn_steps(positions: int) -> None:
        """``replay`` × ``positions`` / batch steps, each on a batch of one role drawn from all its positions
        (roles in proportion to their positions)."""
        sizes = np.array([len(train_buffers[role].all() or ()) for role in roles], dtype=np.float64)
        for _ in range(math.ceil(config.replay * positions / config.batch_size)):
            role = roles[rng.choice(len(roles), p=sizes / sizes.sum())]
            everything = train_buffers[role].all()
            assert everything is not None
            loss = gain_loss(models.networks[role], everything.take(rng.integers(0, len(everything),
                                                                                  config.batch_size)))
            optimizers[role].zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(models.networks[role].parameters(), 40.0)
            optimizers[role].step()
            losses[role].append(loss.item())
            totals["steps"] += 1

    try:
        config.out.mkdir(parents=True, exist_ok=True)
        for worker in range(config.actors):
            pool.submit(worker, next_chunk + worker, config.chunk_positions)
        stored = sum(len(buffer.all() or ()) for buffer in train_buffers.values())
        if stored > totals["positions"]:  # positions kept from an earlier run that these networks never saw
            learn_steps(stored - totals["positions"])
            totals["positions"] = stored
        first = logged = totals["positions"]

        def out_of_budget() -> bool:
            over_time = config.minutes > 0 and time.monotonic() - started >= 60 * config.minutes
            return over_time or 0 < config.positions <= totals["positions"] - first

        while not out_of_budget():
            worker = next_chunk % config.actors
            chunk: LabelChunk = pool.result(worker)
            pool.submit(worker, next_chunk + config.actors, config.chunk_positions)
            next_chunk += 1
            save_chunk(folder, chunk)
            totals["games"] += chunk.games
            held = chunk.index % HELD_OUT == 0
            for role, positions in chunk.positions.items():
                (held_buffers if held else train_buffers)[role].add(positions)
            if held:
                continue
            new = sum(len(positions) for positions in chunk.positions.values())
            learn_steps(new)
            totals["positions"] += new
            now = time.monotonic()
            if now - last_log >= config.log_seconds:
                totals["seconds"] += now - last_log
                save()
                rate = (totals["positions"] - logged) / max(now - last_log, 1e-9)
                log.learner(totals["seconds"], totals["positions"], rate, totals["games"],
                            {role: sum(v) / len(v) if v else None for role, v in losses.items()})
                if console is not None:
                    console.print("held out (loss, gain a decision): " + "; ".join(
                        f"{role} {loss:.3f} {gain:+.4f}" for role, (loss, gain) in held_out.items()))
                last_log, logged, losses = now, totals["positions"], {role: [] for role in roles}
        totals["seconds"] += time.monotonic() - last_log
        save()
    finally:
        pool.close()
        log.close()
    return DistilResult(totals["positions"], totals["steps"], totals["seconds"], held_out)


__all__ = ["DistilConfig", "DistilResult", "gain_loss", "train_distil", "validate"]
