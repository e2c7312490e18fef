"""ScrofaZero training (ScrofaZero §4, §8.7): read this file top to bottom.

The actors (``paiju.train.scrofazero_selfplay``) play batches of games under perfect information, searching
every decision with MCTS; the learner fits ScrofaNet to the searches and the outcomes:

    loss = KL(p_MCTS ‖ p_net) + λ · sqrt(mean (v_net − z)²)          (the authors' code: λ = 0.03)

with ``p_MCTS`` = softmax(0.2·(Q − Q_max)) over the searched cards, ``p_net`` the masked softmax of the policy
logits (§8.8) and ``z`` the value target for the player to move, chosen by ``value_target``: the game's final
payoff (``outcome``, the paper's), the search's value of the position (``root``: the Q of the card played) or
their mean (``mix``), as ``scrofazero_selfplay`` defines them. The logged value RMSE is against the run's own
targets: it compares runs of one ``value_target`` only. Each batch of ``batch_games`` games (64) is trained on
together with the previous ``replay_batches`` (2) batches, ``passes`` (3) times over in shuffled minibatches,
with Adam (lr 1e-4, betas (0.3, 0.999), weight decay 1e-4: the authors' code). ``device`` puts the learner on a
GPU (``cuda``); the actors play on CPUs, their weights copied from the learner's.

Optionally the first ``warm_games`` games are a teacher's (``mr-greed`` by default) instead of self-play: the
network imitates its cards and learns the values of its games before searching for itself; with
``sibling_rollouts`` > 0 it also learns the values of the cards the teacher did not play, each from that many
of the teacher's games played out after it (``scrofazero_selfplay``). The teacher's games have no search, so a
warm start takes the ``outcome`` target (for ``root`` or ``mix`` after it: a second run, ``--init`` the first's
network).

Batch ``k`` is split over the actors in a fixed way (actor ``w`` plays chunk ``k · actors + w``) and is played
with the weights of the moment batch ``k − 1`` was handed out — the actors play the next batch while the learner
trains on this one — so a run is reproducible from its seed whatever the machine's timing (same actors count,
same torch threads, same device: CUDA's kernels may round differently from the CPU's). Ctrl-C or SIGTERM lets
the batch in hand finish, checkpoints and stops (``kill -9`` loses the work since the last checkpoint).
``DIR/checkpoint.pt`` (atomic) holds everything to ``--resume``, ``DIR/model.pt`` the network alone (the agent
``scrofazero:DIR/model.pt``); the loop, logs, TensorBoard and background evaluation against ``mr-greed`` are the
shared runtime's (``paiju.train.loop``). The background evaluation plays the network's own search
(``scrofazero:MODEL,mix=0``: leaves valued by the network alone), which follows the training; the default player
also mixes in rollouts and is 7 times slower.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet, load, log_policy, save
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors
from paiju.train.loop import (
    BatchRun,
    BatchSettings,
    Progress,
    TrainingLoop,
    TrainResult,
    actor_seeds,
    run_training,
    torch_device,
)
from paiju.train.scrofazero_selfplay import (
    GamesChunk,
    Positions,
    ScrofaZeroWorker,
    ValueTarget,
    check_value_target,
    weights_of,
)

LOSSES = ("policy", "value")


@dataclass(frozen=True, kw_only=True)
class ScrofaZeroConfig(BatchSettings, trainer="scrofazero", games=("gongzhu",), bound="games",
                       at_least_one=("passes", "minibatch"), not_negative=("replay_batches", "sibling_rollouts")):
    """One training run. ``minutes`` and ``games`` bound it (whichever comes first; 0 = no bound)."""

    game: str = "gongzhu"
    games: int = 0
    model: ModelConfig = field(default_factory=ModelConfig)
    replay_batches: int = 2
    passes: int = 3
    minibatch: int = 256
    learning_rate: float = 1e-4
    betas: tuple[float, float] = (0.3, 0.999)
    weight_decay: float = 1e-4
    value_weight: float = 0.03
    teacher: str = "mr-greed"
    sibling_rollouts: int = 0
    """Warm start: rollouts valuing each card the teacher did not play (0: those positions are not recorded)."""
    value_target: ValueTarget = "outcome"
    """Self-play's value target: ``outcome``, ``root`` or ``mix`` (``scrofazero_selfplay``)."""
    device: str = "cpu"
    """Where the learner runs: ``cpu``, ``cuda`` or ``auto`` (actors always play on CPUs)."""
    eval_deals: int = 64
    eval_opponents: tuple[str, ...] = ("mr-greed",)

    def __post_init__(self) -> None:
        super().__post_init__()
        torch_device(self.device)
        check_value_target(self.value_target)
        if self.value_target != "outcome" and self.warm_games:
            raise PaijuError(f"value_target {self.value_target!r} is the searches' value, and a warm start's teacher "
                             f"games have no search: warm-start with value_target 'outcome', then start a second "
                             f"run from its network (--init) with {self.value_target!r}")


@dataclass
class ScrofaZeroProgress(Progress):
    batches: int = 0
    positions: int = 0
    """Positions trained on, counted once per pass (the learner's work)."""


def make_optimizer(network: ScrofaNet, config: ScrofaZeroConfig) -> torch.optim.Optimizer:
    """Adam with the authors' settings (``ScrofaZeroConfig`` defaults)."""
    return torch.optim.Adam(network.parameters(), lr=config.learning_rate, betas=config.betas,
                            weight_decay=config.weight_decay)


def losses(network: ScrofaNet, batch: Positions) -> tuple[torch.Tensor, torch.Tensor]:
    """KL(p_MCTS ‖ p_net) and the RMSE of the value (points), averaged over ``batch`` (on the network's device)."""
    device = next(network.parameters()).device
    logits, value = network(torch.from_numpy(batch.x).to(device).float())
    target = torch.from_numpy(batch.policy).to(device)
    log_net = log_policy(logits, torch.from_numpy(batch.legal).to(device))
    entropy_part = torch.where(target > 0, target * torch.log(target.clamp_min(1e-12)), torch.zeros_like(target))
    kl = (entropy_part - target * log_net).sum(dim=-1).mean()
    rmse = torch.sqrt(((value - torch.from_numpy(batch.value).to(device)) ** 2).mean())
    return kl, rmse


def learn(run: ScrofaZeroRun, data: Positions) -> tuple[float, float]:
    """``passes`` shuffled passes of minibatch Adam steps over ``data``; the mean KL and RMSE."""
    config, network = run.config, run.network
    network.train()
    kls, rmses = [], []
    for _ in range(config.passes):
        order = run.generator.permutation(len(data))
        for start in range(0, len(order), config.minibatch):
            kl, rmse = losses(network, data.take(order[start:start + config.minibatch]))
            loss = kl + config.value_weight * rmse
            run.optimizer.zero_grad()
            loss.backward()
            run.optimizer.step()
            run.progress.steps += 1
            kls.append(kl.item())
            rmses.append(rmse.item())
        run.progress.positions += len(data)
    network.eval()
    return float(np.mean(kls)), float(np.mean(rmses))


def evaluation_snapshot(network: ScrofaNet, path: Path) -> str:
    """Save ``network`` at ``path``; the agent the background evaluation plays: its own search, network-only
    leaves (``mix=0``; the module docstring)."""
    save(network, path)
    return f"scrofazero:{path},mix=0"


class ScrofaZeroRun(BatchRun[ScrofaZeroConfig, ScrofaZeroProgress], settings=ScrofaZeroConfig,
                    progress=ScrofaZeroProgress, agent="scrofazero", unit="positions"):
    """The learner: the network, its optimizer and the batches replayed with the next ones."""

    def __init__(self, config: ScrofaZeroConfig, progress: ScrofaZeroProgress, network: ScrofaNet,
                 replay: list[Positions]) -> None:
        super().__init__(config, progress)
        self.network, self.replay = network.to(torch_device(config.device)), replay
        self.optimizer = make_optimizer(network, config)
        torch.manual_seed(derive_seed(config.seed, "learner", progress.batches))
        self.generator = np.random.default_rng(derive_seed(config.seed, "minibatches", progress.batches))

    @classmethod
    def create(cls, config: ScrofaZeroConfig) -> ScrofaZeroRun:
        """Fresh weights from the seed, or the ``init`` model's (whose size then replaces the config's)."""
        network = load(config.init) if config.init else ScrofaNet(config.model, config.seed)
        return cls(replace(config, model=network.config), ScrofaZeroProgress(), network, [])

    @classmethod
    def restore(cls, config: ScrofaZeroConfig, progress: ScrofaZeroProgress, data: dict[str, Any]) -> ScrofaZeroRun:
        network = ScrofaNet(ModelConfig.from_json(data["model"]))
        network.load_state_dict(data["weights"])
        replay = [Positions(*(part[name].numpy() for name in Positions.fields())) for part in data["replay"]]
        run = cls(config, progress, network, replay)
        run.optimizer.load_state_dict(data["optimizer"])
        return run

    def learner_data(self) -> dict[str, Any]:
        return {"model": self.network.config.to_json(), "weights": self.network.state_dict(),
                "optimizer": self.optimizer.state_dict(),
                "replay": [{name: torch.from_numpy(getattr(part, name)) for name in Positions.fields()}
                           for part in self.replay]}

    def save_networks(self, path: Path) -> str:
        return evaluation_snapshot(self.network, path)

    def losses(self) -> tuple[str, ...]:
        return LOSSES

    def actors(self) -> Actors:
        config = self.config
        return ScrofaZeroWorker, [(config.model, seed, config.sibling_rollouts, config.value_target)
                                  for seed in actor_seeds(config)]

    def weights(self) -> Any:
        return weights_of(self.network)

    def step(self, loop: TrainingLoop) -> None:
        """A batch (the actors start the next): the network learns from it and the replayed ones."""
        config, progress = self.config, self.progress
        chunks: list[GamesChunk] = self.next_batch(loop)
        batch = Positions.concat([chunk.positions for chunk in chunks])
        kl, rmse = learn(self, Positions.concat([*self.replay, batch]))
        self.replay = [*self.replay, batch][len(self.replay) + 1 - config.replay_batches:] \
            if config.replay_batches else []
        progress.batches += 1
        progress.games += sum(chunk.games for chunk in chunks)
        loop.losses["policy"].append(kl)
        loop.losses["value"].append(rmse)


RUN = ScrofaZeroRun


def train(config: ScrofaZeroConfig, **options: Any) -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.games`` in all (``paiju.train.loop``)."""
    return run_training(ScrofaZeroRun, config, **options)


__all__ = ["LOSSES", "ScrofaZeroConfig", "ScrofaZeroProgress", "ScrofaZeroRun", "evaluation_snapshot", "learn",
           "losses", "train"]
