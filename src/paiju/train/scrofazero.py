"""ScrofaZero training (ScrofaZero §4, §8.7): read this file top to bottom.

The actors (``paiju.train.scrofazero_selfplay``) play batches of games under perfect information, searching
every decision with MCTS; the learner fits ScrofaNet to the searches and the outcomes:

    loss = KL(p_MCTS ‖ p_net) + λ · sqrt(mean (v_net − z)²)          (the authors' code: λ = 0.03)

with ``p_MCTS`` = softmax(0.2·(Q − Q_max)) over the searched cards, ``p_net`` the masked softmax of the policy
logits (§8.8) and ``z`` the game's final payoff for the player to move. Each batch of ``batch_games`` games
(64) is trained on together with the previous ``replay_batches`` (2) batches, ``passes`` (3) times over in
shuffled minibatches, with Adam (lr 1e-4, betas (0.3, 0.999), weight decay 1e-4: the authors' code).

Optionally the first ``warm_games`` games are a teacher's (``mr-greed`` by default) instead of self-play: the
network imitates its cards and learns the values of its games before searching for itself; with
``sibling_rollouts`` > 0 it also learns the values of the cards the teacher did not play, each from that many
of the teacher's games played out after it (``scrofazero_selfplay``).

Batch ``k`` is split over the actors in a fixed way (actor ``w`` plays chunk ``k · actors + w``) and is played
with the weights of the moment batch ``k − 1`` was handed out — the actors play the next batch while the learner
trains on this one — so a run is reproducible from its seed whatever the machine's timing (same actors count,
same torch threads). Ctrl-C or SIGTERM lets the batch in hand finish, checkpoints and stops (``kill -9`` loses
the work since the last checkpoint). ``DIR/checkpoint.pt`` (atomic) holds everything to ``--resume``,
``DIR/model.pt`` the network alone (the agent ``scrofazero:DIR/model.pt``); logs, TensorBoard and background
evaluation against ``mr-greed`` are the shared runtime's (``paiju.train.logs``, ``paiju.train.evaluation``).
The background evaluation plays the network's own search (``scrofazero:MODEL,mix=0``: leaves valued by the
network alone), which follows the training; the default player also mixes in rollouts and is 7 times slower.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
from rich.console import Console

from paiju.agents.dmc.weights import atomic_torch_save, read_torch_file
from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet, load, log_policy, save
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors
from paiju.train.checkpoint import require_format
from paiju.train.loop import open_run, settings_from_json, settings_to_json, share, training_loop
from paiju.train.scrofazero_selfplay import GamesChunk, Positions, ScrofaZeroWorker, weights_of

FORMAT = "paiju-scrofazero-checkpoint-1"
CHECKPOINT_FILE = "checkpoint.pt"
MODEL_FILE = "model.pt"
LOSSES = ("policy", "value")


@dataclass(frozen=True)
class ScrofaZeroConfig:
    """One training run. ``minutes`` and ``games`` bound it (whichever comes first; 0 = no bound)."""

    out: Path
    seed: int = 0
    minutes: float = 10.0
    games: int = 0
    actors: int = 2
    backend: Literal["local", "ray"] = "local"
    address: str | None = None
    model: ModelConfig = field(default_factory=ModelConfig)
    init: str = ""
    """A ScrofaNet model file to start from (e.g. the shipped network); empty: fresh weights from ``seed``."""
    batch_games: int = 64
    replay_batches: int = 2
    passes: int = 3
    minibatch: int = 256
    learning_rate: float = 1e-4
    betas: tuple[float, float] = (0.3, 0.999)
    weight_decay: float = 1e-4
    value_weight: float = 0.03
    warm_games: int = 0
    teacher: str = "mr-greed"
    sibling_rollouts: int = 0
    """Warm start: rollouts valuing each card the teacher did not play (0: those positions are not recorded)."""
    learner_threads: int = 1
    checkpoint_minutes: float = 5.0
    eval_minutes: float = 10.0
    eval_deals: int = 64
    eval_opponents: tuple[str, ...] = ("mr-greed",)
    log_seconds: float = 10.0

    def __post_init__(self) -> None:
        if self.backend not in ("local", "ray"):
            raise PaijuError(f"backend must be 'local' or 'ray', got {self.backend!r}")
        for name in ("actors", "batch_games", "passes", "minibatch", "learner_threads"):
            if getattr(self, name) < 1:
                raise PaijuError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("replay_batches", "warm_games", "games", "eval_deals", "sibling_rollouts"):
            if getattr(self, name) < 0:
                raise PaijuError(f"{name} must be at least 0, got {getattr(self, name)}")
        if self.minutes <= 0 and self.games <= 0:
            raise PaijuError("a run needs a bound: --minutes or --games")
        if self.batch_games < self.actors:
            raise PaijuError(f"a batch of {self.batch_games} games cannot be shared by {self.actors} actors")

    def to_json(self) -> dict[str, Any]:
        return settings_to_json(self, model=self.model.to_json(), betas=list(self.betas))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScrofaZeroConfig:
        return settings_from_json(cls, data, model=ModelConfig.from_json(data["model"]),
                                  betas=tuple(data["betas"]))


@dataclass
class Progress:
    """Counters of a run, carried across resumes."""

    batches: int = 0
    games: int = 0
    positions: int = 0
    """Positions trained on, counted once per pass (the learner's work)."""
    steps: int = 0
    seconds: float = 0.0
    commands: list[str] = field(default_factory=list)


@dataclass
class LearnerState:
    """What a checkpoint restores: the settings, network, optimizer, counters and the replayed batches."""

    config: ScrofaZeroConfig
    network: ScrofaNet
    optimizer: torch.optim.Optimizer
    progress: Progress
    replay: list[Positions]


def make_optimizer(network: ScrofaNet, config: ScrofaZeroConfig) -> torch.optim.Optimizer:
    """Adam with the authors' settings (``ScrofaZeroConfig`` defaults)."""
    return torch.optim.Adam(network.parameters(), lr=config.learning_rate, betas=config.betas,
                            weight_decay=config.weight_decay)


def fresh_state(config: ScrofaZeroConfig) -> LearnerState:
    """A new run: fresh weights from the seed, or the ``init`` model's (whose size then replaces the config's)."""
    network = load(config.init) if config.init else ScrofaNet(config.model, config.seed)
    config = replace(config, model=network.config)
    return LearnerState(config, network, make_optimizer(network, config), Progress(), [])


def losses(network: ScrofaNet, batch: Positions) -> tuple[torch.Tensor, torch.Tensor]:
    """KL(p_MCTS ‖ p_net) and the RMSE of the value (points), averaged over ``batch``."""
    logits, value = network(torch.from_numpy(batch.x).float())
    target = torch.from_numpy(batch.policy)
    log_net = log_policy(logits, torch.from_numpy(batch.legal))
    entropy_part = torch.where(target > 0, target * torch.log(target.clamp_min(1e-12)), torch.zeros_like(target))
    kl = (entropy_part - target * log_net).sum(dim=-1).mean()
    rmse = torch.sqrt(((value - torch.from_numpy(batch.value)) ** 2).mean())
    return kl, rmse


def learn(state: LearnerState, data: Positions, generator: np.random.Generator) -> tuple[float, float]:
    """``passes`` shuffled passes of minibatch Adam steps over ``data``; the mean KL and RMSE."""
    config, network = state.config, state.network
    network.train()
    kls, rmses = [], []
    for _ in range(config.passes):
        order = generator.permutation(len(data))
        for start in range(0, len(order), config.minibatch):
            kl, rmse = losses(network, data.take(order[start:start + config.minibatch]))
            loss = kl + config.value_weight * rmse
            state.optimizer.zero_grad()
            loss.backward()
            state.optimizer.step()
            state.progress.steps += 1
            kls.append(kl.item())
            rmses.append(rmse.item())
        state.progress.positions += len(data)
    network.eval()
    return float(np.mean(kls)), float(np.mean(rmses))


def actors(config: ScrofaZeroConfig) -> Actors:
    """The actors of a run: actor ``w`` seeded with ``derive_seed(seed, "actor", w)``."""
    return ScrofaZeroWorker, [(config.model, derive_seed(config.seed, "actor", worker), config.sibling_rollouts)
                              for worker in range(config.actors)]


def save_checkpoint(state: LearnerState) -> None:
    """Write ``checkpoint.pt`` and ``model.pt`` into the run's folder, each atomically."""
    out = state.config.out
    atomic_torch_save({
        "format": FORMAT, "config": state.config.to_json(), "model": state.network.config.to_json(),
        "weights": state.network.state_dict(), "optimizer": state.optimizer.state_dict(),
        "progress": asdict(state.progress),
        "replay": [{name: torch.from_numpy(getattr(part, name)) for name in Positions.fields()}
                   for part in state.replay],
    }, out / CHECKPOINT_FILE)
    save(state.network, out / MODEL_FILE)


def load_checkpoint(folder: Path) -> LearnerState:
    """The state saved in ``folder/checkpoint.pt``."""
    path = Path(folder) / CHECKPOINT_FILE
    data = read_torch_file(path, "checkpoint to resume from")
    require_format(data, FORMAT, path)
    config = replace(ScrofaZeroConfig.from_json(data["config"]), out=Path(folder))
    network = ScrofaNet(ModelConfig.from_json(data["model"]))
    network.load_state_dict(data["weights"])
    optimizer = make_optimizer(network, config)
    optimizer.load_state_dict(data["optimizer"])
    replay = [Positions(*(part[name].numpy() for name in Positions.fields())) for part in data["replay"]]
    return LearnerState(config, network, optimizer, Progress(**data["progress"]), replay)


@dataclass(frozen=True)
class TrainResult:
    games: int
    seconds: float
    games_per_hour: float
    """Self-play games per hour of this invocation (resumed runs: since the resume)."""


def evaluation_snapshot(network: ScrofaNet, path: Path) -> str:
    """Save ``network`` at ``path``; the agent the background evaluation plays: its own search, network-only
    leaves (``mix=0``; the module docstring)."""
    save(network, path)
    return f"scrofazero:{path},mix=0"


def train(config: ScrofaZeroConfig, resume: bool = False, console: Console | None = None, tensorboard: bool = True,
          command: str = "") -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.games`` in all; checkpoint on the way."""
    state = open_run(config, resume, command, load_checkpoint, fresh_state, "games")
    config, progress = state.config, state.progress
    torch.manual_seed(derive_seed(config.seed, "learner", progress.batches))
    generator = np.random.default_rng(derive_seed(config.seed, "minibatches", progress.batches))
    games_before = progress.games
    snapshot = partial(evaluation_snapshot, state.network)

    with training_loop(config, actors(config), LOSSES, progress.seconds, progress.positions, console,
                       tensorboard) as loop:
        def hand_out(batch: int, weights: dict[str, np.ndarray]) -> None:
            for worker, (chunk, games, teacher) in enumerate(share(config, batch)):
                loop.pool.submit(worker, chunk, games, weights, teacher)

        hand_out(progress.batches, weights_of(state.network))
        while loop.running(config.games > 0 and progress.games >= config.games):
            chunks: list[GamesChunk] = [loop.pool.result(worker) for worker in range(config.actors)]
            hand_out(progress.batches + 1, weights_of(state.network))
            batch = Positions.concat([chunk.positions for chunk in chunks])
            kl, rmse = learn(state, Positions.concat([*state.replay, batch]), generator)
            state.replay = [*state.replay, batch][len(state.replay) + 1 - config.replay_batches:] \
                if config.replay_batches else []
            progress.batches += 1
            progress.games += sum(chunk.games for chunk in chunks)
            loop.losses["policy"].append(kl)
            loop.losses["value"].append(rmse)
            progress.seconds = loop.seconds
            loop.after_step(progress.positions, progress.games, lambda: save_checkpoint(state), snapshot, "gongzhu")
        loop.finish(progress.positions, progress.games, snapshot, "gongzhu")
        progress.seconds = loop.seconds
        save_checkpoint(state)
    hours = max(loop.elapsed, 1e-9) / 3600
    return TrainResult(progress.games, progress.seconds, (progress.games - games_before) / hours)


__all__ = ["CHECKPOINT_FILE", "LOSSES", "MODEL_FILE", "LearnerState", "Progress", "ScrofaZeroConfig", "TrainResult",
           "actors", "fresh_state", "learn", "load_checkpoint", "losses", "save_checkpoint", "share", "train"]
