"""PerfectDou training (Yang et al. 2022, §4 and appendix D.1): PPO with a perfect-information critic. Read this
file top to bottom.

The actors (``paiju.train.ppo_selfplay``) play research-mode games with the three roles' current policies and
return every decision with its GAE advantage and return (rewards: the oracle's minimum-steps advantage plus the
final score). Each role's network learns from its own decisions only, against the latest opponents
(appendix D.1), by the clipped surrogate (Schulman et al. 2017):

    ratio  = π(a|s) / π_old(a|s)
    loss   = −mean min(ratio · Â, clip(ratio, 1 − ε, 1 + ε) · Â) − c_H · H(π) + c_V · mean (V(s, hidden) − R)²

with ``Â`` the advantages normalised per minibatch and ``V`` the critic, which also sees the other two hands
and their minimum steps (``ModelConfig.perfect``; off for the PTIE ablation). Adam, ``epochs`` passes over each
batch in shuffled minibatches, gradients clipped by norm.

Defaults follow Table 7 where they fit two CPU cores: Adam lr 3e-4, γ = 1, GAE λ = 0.95, oracle scale 50,
LSTM over 15 moves, policy MLP [256, 256, 256, 512], value MLP [256, 256, 256, 256], batches of about 1,000
decisions a role (64 games), model lag 1 (actors play batch k + 1 while the learner trains on batch k).
Deviations: the entropy weight is 0.01 (Table 7: 0.1, with a batch a hundred times larger per update than ours;
a warm-started policy should not be pulled back toward uniform); GAE runs over each seat's whole game (Table 7
truncates at 8 decisions a seat: our games average about 11, so nearly the same).

Warm start (optional, stated with the model): the first ``warm_games`` games are a teacher's (``rules`` by
default): the actor imitates its abstract actions (cross-entropy) and the critic learns the returns of its
games. From a warm start, Table 7's step size made the policy worse on 2 cores; the shipped networks were
trained on from one with lr 1e-4, 2 epochs and no entropy bonus (``agents/perfectdou/weights/README.md``). The
final stage of the paper (ADP alone) is a new run with ``--init RUN/model.pt --oracle-scale 0``.

Batch ``k`` is split over the actors in a fixed way, so a run is reproducible from its seed whatever the
machine's timing (same actors count, same torch threads). Ctrl-C or SIGTERM finishes the batch in hand,
checkpoints and stops. ``DIR/checkpoint.pt`` (atomic) holds everything to ``--resume``; ``DIR/model.pt`` the
networks alone (the agent ``perfectdou:DIR``); logs, TensorBoard and background evaluation against ``rules``
and ``dmc`` are the shared runtime's.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
from rich.console import Console

from paiju.agents.dmc.weights import atomic_torch_save, read_torch_file
from paiju.agents.perfectdou.model import ROLES, ModelConfig, PerfectDouModels, PerfectDouNet, load_models, save_models
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors
from paiju.train.checkpoint import require_format
from paiju.train.loop import open_run, settings_from_json, settings_to_json, share, training_loop
from paiju.train.ppo_selfplay import PPOChunk, PPOWorker, Steps, weights_of

FORMAT = "paiju-ppo-checkpoint-1"
CHECKPOINT_FILE = "checkpoint.pt"
MODEL_FILE = "model.pt"
LOSSES = ("policy", "value", "entropy")


@dataclass(frozen=True)
class PPOConfig:
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
    """A PerfectDou model file or folder to start from; empty: fresh weights from ``seed``."""
    batch_games: int = 64
    epochs: int = 4
    minibatch: int = 256
    learning_rate: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    gae_lambda: float = 0.95
    grad_clip: float = 1.0
    oracle_scale: float = 50.0
    """``l`` of the oracle reward; 0 switches it off (the final stage, or the ablation)."""
    warm_games: int = 0
    teacher: str = "rules"
    learner_threads: int = 1
    checkpoint_minutes: float = 5.0
    eval_minutes: float = 10.0
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ("rules", "dmc")
    log_seconds: float = 10.0

    def __post_init__(self) -> None:
        if self.backend not in ("local", "ray"):
            raise PaijuError(f"backend must be 'local' or 'ray', got {self.backend!r}")
        for name in ("actors", "batch_games", "epochs", "minibatch", "learner_threads"):
            if getattr(self, name) < 1:
                raise PaijuError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("warm_games", "games", "eval_deals", "oracle_scale", "entropy", "value_weight"):
            if getattr(self, name) < 0:
                raise PaijuError(f"{name} must be at least 0, got {getattr(self, name)}")
        if not 0 <= self.gae_lambda <= 1 or not 0 < self.clip < 1:
            raise PaijuError(f"need 0 ≤ gae_lambda ≤ 1 and 0 < clip < 1, got {self.gae_lambda}, {self.clip}")
        if self.minutes <= 0 and self.games <= 0:
            raise PaijuError("a run needs a bound: --minutes or --games")
        if self.batch_games < self.actors:
            raise PaijuError(f"a batch of {self.batch_games} games cannot be shared by {self.actors} actors")

    @property
    def value_scale(self) -> float:
        """Rewards are divided by this (the oracle scale, at least 1) so the critic's targets stay near unit size."""
        return max(1.0, self.oracle_scale)

    def to_json(self) -> dict[str, Any]:
        return settings_to_json(self, model=self.model.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PPOConfig:
        return settings_from_json(cls, data, model=ModelConfig.from_json(data["model"]))


@dataclass
class Progress:
    """Counters of a run, carried across resumes."""

    batches: int = 0
    games: int = 0
    decisions: int = 0
    """Decisions trained on (each counted once, however many epochs)."""
    steps: int = 0
    seconds: float = 0.0
    commands: list[str] = field(default_factory=list)


@dataclass
class LearnerState:
    config: PPOConfig
    models: PerfectDouModels
    optimizers: dict[str, torch.optim.Optimizer]
    progress: Progress


def make_optimizer(network: PerfectDouNet, config: PPOConfig) -> torch.optim.Optimizer:
    return torch.optim.Adam(network.parameters(), lr=config.learning_rate)


def fresh_state(config: PPOConfig) -> LearnerState:
    """A new run: fresh weights from the seed, or the ``init`` model's (whose sizes replace the config's; a critic
    that sees the hidden hands when the init's does not, or the other way round, starts fresh)."""
    if config.init:
        models = load_models(Path(config.init))
        if models.config.perfect != config.model.perfect:
            models = models.with_critic(config.model.perfect, config.seed)
    else:
        models = PerfectDouModels.fresh(config.model, config.seed)
    config = replace(config, model=models.config)
    optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
    return LearnerState(config, models, optimizers, Progress())


def log_softmax_by_decision(logits: torch.Tensor, owner: torch.Tensor, decisions: int) -> torch.Tensor:
    """Log-softmax of each decision's candidates (``owner[i]`` the decision of row ``i``)."""
    top = torch.full((decisions,), -torch.inf).scatter_reduce(0, owner, logits.detach(), "amax")
    shifted = logits - top[owner]
    total = torch.zeros(decisions).index_add(0, owner, shifted.exp())
    return shifted - total.log()[owner]


def losses(network: PerfectDouNet, batch: Steps, config: PPOConfig, imitate: bool) -> dict[str, torch.Tensor]:
    """The clipped surrogate (or, ``imitate``, the teacher's cross-entropy), the value loss and the entropy."""
    count = len(batch)
    counts = torch.from_numpy(batch.counts)
    owner = torch.repeat_interleave(torch.arange(count), counts)
    encoded = network.encode(torch.from_numpy(batch.state), torch.from_numpy(batch.history))
    logits = network.logits(encoded, torch.from_numpy(batch.actions), torch.from_numpy(batch.abstract), owner)
    log_policy = log_softmax_by_decision(logits, owner, count)
    chosen = torch.cumsum(counts, 0) - counts + torch.from_numpy(batch.chosen)
    log_chosen = log_policy[chosen]
    entropy = -torch.zeros(count).index_add(0, owner, log_policy.exp() * log_policy).mean()
    if imitate:
        policy = -log_chosen.mean()
    else:
        advantage = torch.from_numpy(batch.advantage)
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8) if count > 1 else advantage
        ratio = (log_chosen - torch.from_numpy(batch.logp)).exp()
        policy = -torch.min(ratio * advantage, ratio.clamp(1 - config.clip, 1 + config.clip) * advantage).mean()
    value = network.values(encoded, torch.from_numpy(batch.perfect))
    value_loss = ((value - torch.from_numpy(batch.ret)) ** 2).mean()
    return {"policy": policy, "value": value_loss, "entropy": entropy}


def learn(state: LearnerState, role: str, data: Steps, imitate: bool,
          generator: np.random.Generator) -> dict[str, float]:
    """``epochs`` shuffled passes of minibatch steps over one role's batch; the mean of each loss."""
    config, network, optimizer = state.config, state.models.networks[role], state.optimizers[role]
    network.train()
    recorded: dict[str, list[float]] = {name: [] for name in LOSSES}
    for _ in range(config.epochs):
        order = generator.permutation(len(data))
        for start in range(0, len(order), config.minibatch):
            parts = losses(network, data.take(order[start:start + config.minibatch]), config, imitate)
            entropy_term = 0.0 if imitate else config.entropy * parts["entropy"]
            loss = parts["policy"] - entropy_term + config.value_weight * parts["value"]
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
            optimizer.step()
            state.progress.steps += 1
            for name, value in parts.items():
                recorded[name].append(value.item())
    network.eval()
    state.progress.decisions += len(data)
    return {name: float(np.mean(values)) for name, values in recorded.items()}


def actors(config: PPOConfig) -> Actors:
    """The actors of a run: actor ``w`` seeded with ``derive_seed(seed, "actor", w)``."""
    return PPOWorker, [(config.model, config.oracle_scale, config.value_scale, config.gae_lambda,
                        derive_seed(config.seed, "actor", worker)) for worker in range(config.actors)]


def stamp(state: LearnerState) -> None:
    """Record in the networks' metadata how they were made so far (seed, games, decisions, time, commands)."""
    progress = state.progress
    state.models.meta = {"seed": state.config.seed, "games": progress.games, "decisions": progress.decisions,
                         "seconds": round(progress.seconds, 1), "warm_games": state.config.warm_games,
                         "teacher": state.config.teacher if state.config.warm_games else "",
                         "command": " && ".join(progress.commands), "config": state.config.to_json()}


def save_checkpoint(state: LearnerState) -> None:
    """Write ``checkpoint.pt`` and ``model.pt`` into the run's folder, each atomically."""
    out, progress = state.config.out, state.progress
    stamp(state)
    atomic_torch_save({
        "format": FORMAT, "config": state.config.to_json(), "models": state.models.to_dict(),
        "optimizers": {role: optimizer.state_dict() for role, optimizer in state.optimizers.items()},
        "progress": asdict(progress),
    }, out / CHECKPOINT_FILE)
    save_models(state.models, out / MODEL_FILE)


def load_checkpoint(folder: Path) -> LearnerState:
    """The state saved in ``folder/checkpoint.pt``."""
    path = Path(folder) / CHECKPOINT_FILE
    data = read_torch_file(path, "checkpoint to resume from")
    require_format(data, FORMAT, path)
    config = replace(PPOConfig.from_json(data["config"]), out=Path(folder))
    models = PerfectDouModels.from_dict(data["models"], str(path))
    optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
    for role, optimizer in optimizers.items():
        optimizer.load_state_dict(data["optimizers"][role])
    return LearnerState(config, models, optimizers, Progress(**data["progress"]))


@dataclass(frozen=True)
class TrainResult:
    games: int
    decisions: int
    seconds: float
    decisions_per_second: float
    """Decisions (frames) trained on per second of this invocation (resumed runs: since the resume)."""


def train(config: PPOConfig, resume: bool = False, console: Console | None = None, tensorboard: bool = True,
          command: str = "") -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.games`` in all; checkpoint on the way."""
    state = open_run(config, resume, command, load_checkpoint, fresh_state, "games")
    config, progress = state.config, state.progress
    torch.manual_seed(derive_seed(config.seed, "learner", progress.batches))
    generator = np.random.default_rng(derive_seed(config.seed, "minibatches", progress.batches))
    decisions_before = progress.decisions

    def snapshot(path: Path) -> str:
        stamp(state)
        save_models(state.models, path)
        return f"perfectdou:{path}"

    with training_loop(config, actors(config), LOSSES, progress.seconds, progress.decisions, console,
                       tensorboard) as loop:
        def hand_out(batch: int) -> None:
            weights = weights_of(state.models)
            for worker, (chunk, games, teacher) in enumerate(share(config, batch)):
                loop.pool.submit(worker, chunk, games, weights, teacher)

        hand_out(progress.batches)
        while loop.running(config.games > 0 and progress.games >= config.games):
            imitate = bool(share(config, progress.batches)[0][2])
            chunks: list[PPOChunk] = [loop.pool.result(worker) for worker in range(config.actors)]
            hand_out(progress.batches + 1)
            for role in ROLES:
                found = [chunk.steps[role] for chunk in chunks if role in chunk.steps]
                if found:
                    for name, value in learn(state, role, Steps.concat(found), imitate, generator).items():
                        loop.losses[name].append(value)
            progress.batches += 1
            progress.games += sum(chunk.games for chunk in chunks)
            progress.seconds = loop.seconds
            loop.after_step(progress.decisions, progress.games, lambda: save_checkpoint(state), snapshot, "doudizhu")
        loop.finish(progress.decisions, progress.games, snapshot, "doudizhu")
        progress.seconds = loop.seconds
        save_checkpoint(state)
    return TrainResult(progress.games, progress.decisions, progress.seconds,
                       (progress.decisions - decisions_before) / max(loop.elapsed, 1e-9))


__all__ = ["CHECKPOINT_FILE", "LOSSES", "MODEL_FILE", "LearnerState", "PPOConfig", "Progress", "TrainResult",
           "actors", "fresh_state", "learn", "load_checkpoint", "log_softmax_by_decision", "losses",
           "save_checkpoint", "share", "train"]
