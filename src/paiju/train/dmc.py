"""Deep Monte-Carlo training (DouZero; DanZero §IV), ``paiju train dmc``: read this file top to bottom.

Actors (``paiju.train.dmc_selfplay``) play ε-greedy self-play and send chunks of samples — the chosen action's
features and the Monte-Carlo return of the step; the learner regresses Q(state, action) on the returns:

    loss = mean (Q(s, a) − G)²                                        (DouZero)
    loss = mean (clip(Q / Q_actor, 1 − λ, 1 + λ) · Q_actor − G)²      (DanZero Eq. 1–3, λ = 0.65)

where ``Q_actor`` is the actor's value of the action when it chose it (``DMCConfig.clip_lambda``). One network
per DouDizhu role, one for GuanDan; RMSProp; gradients clipped by norm.

Against a fixed player (optional, ``opponent``): instead of the network at every seat, each game puts the
``opponent`` agent at every seat of one side (DouDizhu: the landlord, or both peasants; GuanDan: one team), the side
drawn from the game's seed, and the network at the others; only the network's decisions are frames. Self-play's
returns are what a move earns against the network itself, a target that moves as it learns; against a fixed
player they are what it earns against that player, so the regression is a best response to it (the network learns
to beat ``rules``, not to beat itself).

Warm start (optional, ``warm_games``; PerfectDou's and DeepRocket's lesson that a network should start from a
strong player's moves): the first games are the ``teacher``'s at every seat, and on its decisions the network
learns both which action the teacher chose and what the chosen action returned:

    loss = − mean log softmax(Q(s, ·) / τ)[a_teacher] + mean (Q(s, a_teacher) − G)²      (τ = 0.1)

so that its greedy choice is the teacher's and its values are the teacher's returns, the start DMC's
regression then improves on. The log's ``teacher_top1`` is the share of the teacher's decisions whose highest Q
was the teacher's action, before the step on them (each batch is new to the network).

A warm start may instead read recorded games (``warm_records``, a corpus from ``paiju records generate``;
``paiju.train.dmc_corpus``): the learner replays them itself, one game a step in file order (``warm_passes`` times
over), and makes the same rows from every seat's play decisions, the recorded action as the teacher's and the
recorded game's returns; bad records are reported by file and line and skipped. The last ``warm_holdout`` of the
games are never trained on: after the others (or at the end of a run stopped before), the share of their decisions
whose highest Q is the recorded action, overall and by play type, goes to ``DIR/warm-accuracy.json`` and the
console. Then the actors start self-play. The actors play nothing during this warm start, so the run is a function
of the corpus and the seed.

Defaults follow DouZero (RMSProp, α 0.99, ε 1e-5, gradient norm clipped at 40, exploration ε 0.01,
32 × 100 frames per learner batch) with DanZero's learning rate for GuanDan (1e-3; DouZero's is 1e-4) and its
clipped target (λ = 0.65) on by default for GuanDan only. Network sizes default to ``ModelConfig()``, smaller than
the papers' (see ``paiju.agents.dmc.models``).

The learner consumes chunks in a fixed round-robin order (``paiju.train.loop.ChunkRun``): chunk ``k`` was played
with the weights of the moment chunk ``k − actors`` was consumed, so a run is reproducible from its seed whatever
the machine's timing (same actors count, same torch threads).
The checkpoint also keeps the samples not yet trained on. ``--init`` starts from a model file's networks (a
warm start, or an earlier run's; its sizes and features replace the settings'). ``device`` puts the learner on a
GPU (``cuda``); the actors play on CPUs, their weights copied from the learner's. The run's loop, logs,
checkpoints and evaluation are the shared runtime's (``paiju.train.loop``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch
from rich.markup import escape

from paiju.agents import make_agent
from paiju.agents.dmc import models_at
from paiju.agents.dmc.adapters import GAMES, Objective, adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, save_models
from paiju.core.errors import PaijuError
from paiju.records.corpus import CorpusGame
from paiju.train.backends import Actors
from paiju.train.dmc_corpus import WarmCorpus, game_rows, held_out_accuracy, write_report
from paiju.train.dmc_selfplay import Imitation, Samples, SelfPlayWorker, Weights, weights_of
from paiju.train.loop import (
    ChunkProgress,
    ChunkRun,
    RunSettings,
    TrainingLoop,
    TrainResult,
    WarmStart,
    actor_seeds,
    load_optimizer_states,
    optimizer_states,
    run_training,
    torch_device,
)
from paiju.train.segments import first_rows, log_softmax_by_decision, owners, top1_agreement

LEARNING_RATES = {"doudizhu": 1e-4, "guandan": 1e-3}
CLIP_LAMBDAS: dict[str, float | None] = {"doudizhu": None, "guandan": 0.65}


@dataclass(frozen=True, kw_only=True)
class DMCConfig(RunSettings, WarmStart, trainer="dmc", games=GAMES, bound="frames",
                at_least_one=("batch_size", "chunk_frames")):
    """One training run. ``minutes`` and ``frames`` bound the run (whichever comes first; 0 = no bound)."""

    frames: int = 0
    objective: Objective = "adp"
    model: ModelConfig = field(default_factory=ModelConfig)
    batch_size: int = 3200
    chunk_frames: int = 1600
    """Frames an actor plays (whole games) before sending its samples and receiving fresh weights."""
    learning_rate: float | None = None
    alpha: float = 0.99
    eps: float = 1e-5
    grad_clip: float = 40.0
    epsilon: float = 0.01
    clip_lambda: float | None = -1.0
    """DanZero's clipped target; ``None`` turns it off; the default (-1) picks the game's (``CLIP_LAMBDAS``)."""
    teacher: str = "rules"
    """The warm start's teacher (``warm_games``: the module docstring)."""
    opponent: str = ""
    """Empty: self-play. An agent name: every self-play game is the network's side against this agent's (the
    module docstring)."""
    imitation_temperature: float = 0.1
    """τ of the warm start's cross-entropy over softmax(Q / τ)."""
    device: str = "cpu"
    """Where the learner runs: ``cpu``, ``cuda`` or ``auto`` (actors always play on CPUs)."""
    eval_minutes: float = 5.0
    eval_opponents: tuple[str, ...] = ("random", "rules")

    def __post_init__(self) -> None:
        super().__post_init__()
        torch_device(self.device)
        features = adapter_for(self.game, self.model.features).features  # stored by name: resumes read the same
        object.__setattr__(self, "model", replace(self.model, features=features))
        self.check_warm_start(reads_records=True)
        for agent, plays in ((self.teacher, self.warm_games), (self.opponent, self.opponent)):
            if plays:  # made once here, so that an unknown name is refused before any game
                make_agent(agent, self.game).close()
        if self.imitation_temperature <= 0:
            raise PaijuError(f"imitation_temperature must be positive, got {self.imitation_temperature}")
        if self.objective not in ("wp", "adp"):
            raise PaijuError(f"objective must be 'wp' or 'adp', got {self.objective!r}")
        if not 0 <= self.epsilon <= 1:
            raise PaijuError(f"epsilon must be in [0, 1], got {self.epsilon}")

    @property
    def lr(self) -> float:
        return LEARNING_RATES[self.game] if self.learning_rate is None else self.learning_rate

    @property
    def clip(self) -> float | None:
        return CLIP_LAMBDAS[self.game] if self.clip_lambda == -1.0 else self.clip_lambda


@dataclass
class DMCProgress(ChunkProgress):
    frames: int = 0
    """Frames (samples) trained on, as DouZero counts them."""
    corpus_games: int = 0
    """Games of the ``warm_records`` corpus imitated, in file order (where a resumed warm start reads on)."""
    corpus_decisions: int = 0
    """Their decisions (imitation rows)."""
    corpus_done: bool = False
    """Whether the warm start from ``warm_records`` is over (its held-out accuracy written) and self-play began."""


def learn(network: torch.nn.Module, optimizer: torch.optim.Optimizer, batch: Samples, config: DMCConfig) -> float:
    """One gradient step on ``batch``; returns the loss."""
    device = _device(network)
    context = {name: _tensor(value, device) for name, value in batch.context.items()}
    q = network(_tensor(batch.x, device), **context)
    target = _tensor(batch.target, device)
    if config.clip is not None:  # DanZero Eq. 1: keep the learner's Q within a factor of the actor's
        q_actor = _tensor(batch.q_actor, device)
        usable = q_actor.abs() > 1e-6
        ratio = (q / torch.where(usable, q_actor, torch.ones_like(q_actor))).clamp(1 - config.clip, 1 + config.clip)
        q = torch.where(usable, ratio * q_actor, q)
    return _step(network, optimizer, ((q - target) ** 2).mean(), config)


def imitate(network: torch.nn.Module, optimizer: torch.optim.Optimizer, batch: Imitation,
            config: DMCConfig) -> tuple[float, float]:
    """One gradient step of the warm start on a teacher's decisions; the loss and the share of them whose
    highest Q was the teacher's action (before the step: each batch is new to the network)."""
    q, owner, chosen = decision_scores(network, batch)
    log_policy = log_softmax_by_decision(q / config.imitation_temperature, owner, len(batch))
    agree = top1_agreement(q, owner, chosen)
    value = ((q[chosen] - _tensor(batch.target, _device(network))) ** 2).mean()
    return _step(network, optimizer, value - log_policy[chosen].mean(), config), agree


def decision_scores(network: torch.nn.Module, batch: Imitation) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Q of every legal action of the batch's decisions, the decision of each row (``owner``) and the row of
    each decision's chosen action."""
    device = _device(network)
    counts = torch.from_numpy(batch.counts).long().to(device)
    owner = owners(counts)
    context = {name: _tensor(value, device) for name, value in batch.context.items()}
    q = network.score(_tensor(batch.state, device), _tensor(batch.actions, device), owner=owner, **context)
    return q, owner, first_rows(counts) + torch.from_numpy(batch.chosen).long().to(device)


def _device(network: torch.nn.Module) -> torch.device:
    return next(network.parameters()).device


def _tensor(array: Any, device: torch.device) -> torch.Tensor:
    """A batch's int8 or float array as float32 on the learner's device."""
    return torch.from_numpy(array).to(device).float()


def _step(network: torch.nn.Module, optimizer: torch.optim.Optimizer, loss: torch.Tensor, config: DMCConfig) -> float:
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
    optimizer.step()
    return loss.item()


def make_optimizer(network: torch.nn.Module, config: DMCConfig) -> torch.optim.Optimizer:
    """RMSProp as in DouZero and DanZero."""
    return torch.optim.RMSprop(network.parameters(), lr=config.lr, alpha=config.alpha, eps=config.eps)


class DMCRun(ChunkRun[DMCConfig, DMCProgress], settings=DMCConfig, progress=DMCProgress, agent="dmc",
             games_in_eval=False):
    """The learner: every role's network and optimizer, each role's frames not yet trained on (self-play
    samples, and the teacher's decisions during a warm start), and the corpus of a warm start from records while
    it lasts (read through once on creation: a bad corpus is refused before training starts)."""

    def __init__(self, config: DMCConfig, progress: DMCProgress, models: DMCModels,
                 buffers: dict[str, Samples | None], imitating: dict[str, Imitation | None]) -> None:
        super().__init__(config, progress)
        self.models = models
        for network in models.networks.values():
            network.to(torch_device(config.device))
        self.optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
        self.buffers, self.imitating = buffers, imitating
        self.corpus = (WarmCorpus(config.warm_records, config.game, config.warm_holdout)
                       if config.warm_records is not None and not progress.corpus_done else None)
        self.records: Iterator[CorpusGame] | None = None
        self.weights: Weights | None = None
        self.weights_step = -1
        torch.manual_seed(config.seed + progress.steps)

    @classmethod
    def create(cls, config: DMCConfig) -> DMCRun:
        """Fresh networks from the seed, or the ``init`` file's (of the run's game; its sizes and objective
        replace the settings')."""
        if config.init:
            models = models_at(config.init, config.game)
            models = DMCModels.from_dict(models.to_dict(), config.init)
            config = replace(config, model=models.config, objective=models.objective)
        else:
            models = DMCModels.fresh(config.game, config.objective, config.model, config.seed)
        empty = {role: None for role in models.networks}
        return cls(config, DMCProgress(), models, dict(empty), dict(empty))

    @classmethod
    def restore(cls, config: DMCConfig, progress: DMCProgress, data: dict[str, Any]) -> DMCRun:
        models = DMCModels.from_dict(data["models"], str(config.out))
        run = cls(config, progress, models,
                  {role: _from_torch(Samples, data["buffers"].get(role)) for role in models.networks},
                  {role: _from_torch(Imitation, data.get("imitating", {}).get(role)) for role in models.networks})
        load_optimizer_states(run.optimizers, data["optimizers"])
        return run

    def learner_data(self) -> dict[str, Any]:
        return {"models": self.models.to_dict(), "optimizers": optimizer_states(self.optimizers),
                "buffers": {role: _to_torch(samples) for role, samples in self.buffers.items()},
                "imitating": {role: _to_torch(rows) for role, rows in self.imitating.items()}}

    def save_networks(self, path: Path) -> str:
        self.models.meta = self.meta()
        save_models(self.models, path)
        return f"dmc:{path}"

    def eval_rules(self) -> dict[str, Any]:
        """The self-play ruleset's options but the mode (癞子 networks are evaluated at 癞子)."""
        options = self.models.adapter.selfplay_rules().to_json()
        return {key: value for key, value in options.items() if key != "mode"} if self.config.game == "doudizhu" \
            else {}

    def losses(self) -> tuple[str, ...]:
        warm = self.config.warm_games or self.config.warm_records is not None
        return (*self.models.networks, *(("teacher_top1",) if warm else ()))

    def actors(self) -> Actors:
        config = self.config
        return SelfPlayWorker, [(config.game, config.objective, config.model, config.epsilon, seed, config.opponent)
                                for seed in actor_seeds(config)]

    def teacher(self) -> str:
        """The teacher of the chunk asked for now: the warm start's while its games are not all played."""
        return self.config.teacher if self.progress.games < self.config.warm_games else ""

    def current_weights(self) -> Weights:
        """The networks' parameters for the actors, copied once per learner step, not once per actor request."""
        if self.weights is None or self.weights_step != self.progress.steps:
            self.weights, self.weights_step = weights_of(self.models), self.progress.steps
        return self.weights

    def start(self, loop: TrainingLoop) -> None:
        """Self-play's first chunks asked for, or (a warm start from records under way) the corpus's bad records
        reported, one warning each, and counted."""
        for network in self.models.networks.values():
            network.train()
        if self.corpus is None:
            self.ask_first(loop, self.config.chunk_frames, self.current_weights(), self.teacher())
            return
        for problem in self.corpus.skipped:
            loop.say(escape(f"warning: skipped {problem}"))
        loop.say(escape(f"warm start from {self.corpus.summary()}"))

    def step(self, loop: TrainingLoop) -> None:
        """The next chunk in order (its actor asked at once for another), then every full batch of each role
        (during a warm start from records: the corpus's next game instead)."""
        if self.corpus is not None:
            self.imitate_records(loop)
            return
        chunk = self.next_chunk(loop, self.config.chunk_frames, self.current_weights(), self.teacher())
        self.progress.games += chunk.games
        self.take(loop, chunk.samples)

    def take(self, loop: TrainingLoop, found: Mapping[str, Samples | Imitation]) -> None:
        """Add each role's new frames to those in hand and learn every full batch."""
        for role, rows in found.items():
            buffers: dict[str, Any] = self.imitating if isinstance(rows, Imitation) else self.buffers
            buffered = rows if buffers[role] is None else type(rows).concat([buffers[role], rows])
            while len(buffered) >= self.config.batch_size:
                batch, buffered = buffered.split(self.config.batch_size)
                self.learn(loop, role, batch)
            buffers[role] = buffered

    def imitate_records(self, loop: TrainingLoop) -> None:
        """The corpus's next training game imitated; after the last one of the last pass, the end of the warm
        start."""
        corpus, progress = self.corpus, self.progress
        assert corpus is not None
        if self.records is None:
            self.records = corpus.training_passes(self.config.warm_passes, progress.corpus_games)
        entry = next(self.records, None)
        if entry is not None:
            rows = game_rows(self.models.adapter, entry, self.config.objective)
            progress.corpus_games += 1
            progress.corpus_decisions += sum(len(found) for found in rows.values())
            self.take(loop, rows)
        if entry is None or progress.corpus_games >= corpus.training * self.config.warm_passes:
            self.end_warm_start(loop)

    def end_warm_start(self, loop: TrainingLoop) -> None:
        """The decisions left in hand learned (a last, smaller batch), the held-out accuracy reported, and
        self-play's first chunks asked for."""
        for role, rows in self.imitating.items():
            if rows is not None and len(rows):
                self.learn(loop, role, rows)
            self.imitating[role] = None
        self.report_held_out(loop, complete=True)
        self.progress.corpus_done = True
        self.corpus = self.records = None
        self.ask_first(loop, self.config.chunk_frames, self.current_weights(), self.teacher())

    def report_held_out(self, loop: TrainingLoop, complete: bool) -> None:
        """The networks' top-1 agreement with the corpus's held-out decisions, by play type: written to
        ``DIR/warm-accuracy.json``, printed as a table and added to TensorBoard."""
        corpus = self.corpus
        assert corpus is not None
        if not corpus.held_out:
            loop.say("warm start: no games held out (warm_holdout 0), no accuracy to report")
            return
        loop.say(f"measuring the warm start on the {corpus.held_out:,} held-out games")
        networks = self.models.networks

        def agreement(role: str, rows: Imitation) -> float:
            with torch.no_grad():
                return top1_agreement(*decision_scores(networks[role], rows))

        accuracy = held_out_accuracy(corpus, self.models.adapter, self.config.objective, agreement)
        path = write_report(self.config.out, corpus, accuracy, self.progress.corpus_games,
                            self.progress.corpus_decisions, complete)
        imitated = f"{self.progress.corpus_games:,} of {corpus.training:,} games imitated"
        loop.say(escape(f"held-out top-1 accuracy ({imitated}; {path}):\n{accuracy.table()}"))
        loop.log.scalars({"warm/top1": accuracy.top1, **{f"warm/top1/{label.replace(' ', '_')}": hits / decisions
                                                          for label, (decisions, hits) in accuracy.types.items()}},
                         self.samples)

    def conclude(self, loop: TrainingLoop) -> None:
        """A run that stops during its warm start from records reports the held-out accuracy reached (unless
        stopped by Ctrl-C or SIGTERM)."""
        if self.corpus is not None and not loop.stop.is_set():
            self.report_held_out(loop, complete=False)

    def learn(self, loop: TrainingLoop, role: str, batch: Samples | Imitation) -> None:
        """A step on one batch: DMC's regression on self-play frames, the warm start's imitation on a teacher's."""
        network, optimizer = self.models.networks[role], self.optimizers[role]
        if isinstance(batch, Imitation):
            loss, agree = imitate(network, optimizer, batch, self.config)
            loop.losses["teacher_top1"].append(agree)
        else:
            loss = learn(network, optimizer, batch, self.config)
        loop.losses[role].append(loss)
        self.progress.frames += len(batch)
        self.progress.steps += 1


def _to_torch(rows: Samples | Imitation | None) -> dict[str, Any] | None:
    """Frames in hand as tensors, for the checkpoint."""
    if rows is None:
        return None
    return {name: ({key: torch.from_numpy(value) for key, value in array.items()} if isinstance(array, dict)
                   else torch.from_numpy(array)) for name, array in vars(rows).items()}


def _from_torch(kind: type[Samples] | type[Imitation], data: dict[str, Any] | None) -> Samples | Imitation | None:
    if data is None:
        return None
    return kind(**{name: ({key: value.numpy() for key, value in array.items()} if isinstance(array, dict)
                          else array.numpy()) for name, array in data.items()})


RUN = DMCRun


def train(config: DMCConfig, **options: Any) -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.frames`` in all (``paiju.train.loop``)."""
    return run_training(DMCRun, config, **options)


__all__ = ["DMCConfig", "DMCProgress", "DMCRun", "decision_scores", "imitate", "learn", "make_optimizer", "train"]
