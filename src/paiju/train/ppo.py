"""PPO with a perfect-information critic (PerfectDou, Yang et al. 2022, §4 and appendix D.1), ``paiju train ppo``,
for DouDizhu and GuanDan. Read this file top to bottom; what differs by game is ``paiju.train.ppo_games``.

The actors (``paiju.train.ppo_selfplay``) play self-play games with the roles' current policies and return every
decision with its GAE advantage and return. Each role's network learns from its own decisions only, against the
latest opponents (appendix D.1), by the clipped surrogate (Schulman et al. 2017):

    ratio  = π(a|s) / π_old(a|s)
    loss   = −mean min(ratio · Â, clip(ratio, 1 − ε, 1 + ε) · Â) − c_H · H(π) + c_V · mean (V(s, hidden) − R)²

with ``Â`` the advantages normalised per minibatch and ``V`` the critic, which also sees the hidden hands
(``ModelConfig.perfect``; off for the PTIE ablation). Adam, ``epochs`` passes over each batch in shuffled
minibatches, gradients clipped by norm (actor and critic together).

**DouDizhu** (PerfectDou): one actor-critic per role (landlord, down, up) over abstract actions; rewards: the
oracle's minimum-steps advantage (``oracle_scale``) plus the final score; the critic also sees the other two
hands and their minimum steps. ``features`` ``laizi`` trains on 癞子 instead (research mode, one wild rank, as
``paiju train dmc --features laizi``; ``paiju.agents.perfectdou.features``: the wild ranks, what each play stands
for and the wild cards it spends; minimum steps and the oracle count the wild cards), and the evaluations play
癞子 too. Defaults follow Table 7 where they fit two CPU cores: Adam lr 3e-4, γ = 1, GAE
λ = 0.95, oracle scale 50, LSTM over 15 moves, policy MLP [256, 256, 256, 512], value MLP [256, 256, 256, 256],
batches of about 1,000 decisions a role (64 games), model lag 1 (actors play batch k + 1 while the learner trains
on batch k). Deviations: the entropy weight is 0.01 (Table 7: 0.1, with a batch a hundred times larger per
update than ours; a warm-started policy should not be pulled back toward uniform); GAE runs over each seat's
whole game (Table 7 truncates at 8 decisions a seat: our games average about 11, so nearly the same).

**GuanDan** (after DanZero+, which follows DMC with PPO): one actor-critic every seat plays. The policy is a DMC
GuanDan network (``FeatureQNet`` on the ``plus`` or paper features, ``paiju.agents.dmc``), its logits the
network's scores / τ (``temperature``, 0.1: the DMC warm start's imitation temperature), over every legal play
(no abstraction); so ``--init`` takes any GuanDan DMC model file, and ``DIR/model.pt`` is one again (agent
``dmc:DIR/model.pt``; its metadata says it was trained by PPO and that its scores are logits × τ, not
Q-values). The critic (``paiju.agents.perfectdou.guandan``) is an MLP over the seat's state features and the
other three hands (54-card counts and cards left); it exists only in training (the checkpoint keeps it, the
model file does not; an ``--init`` run starts a fresh one). Games are whole games as DMC plays them; tribute
and return stay with the ``rules`` player, as in DMC. Rewards: the round's result for the seat's team at the
round's end (DMC's GuanDan return: ±1..±3, ±1 more on the round that ends the game) divided by 3, γ = 1, GAE
(λ = 0.95) over each seat's own decisions of the round. No oracle reward (``oracle_scale`` is DouDizhu's).
Batches of 4 games (about 2,000 decisions, near DMC's GuanDan batch of 3,200 frames); the other defaults are
DouDizhu's.

In both games decisions with a single legal play are not trained on.

Warm start (optional, stated with the model): the first ``warm_games`` games are a teacher's (``rules`` by
default): the actor imitates its actions (cross-entropy) and the critic learns the returns of its games. From a
warm start, Table 7's step size made the DouDizhu policy worse on 2 cores; the shipped networks were trained on
from one with lr 1e-4, 2 epochs and no entropy bonus (``agents/perfectdou/weights/README.md``). The final stage
of the paper (ADP alone) is a new run with ``--init RUN/model.pt --oracle-scale 0``.

Warm start from records (DouDizhu, ``warm_records``; expert iteration's imitation step when the corpus is the
search's): the learner replays the corpus's research-mode games itself (``DouDizhuPPO.recorded``), ``batch_games``
a step, ``warm_passes`` times over the games not held out, before any self-play; the recorded moves are the
choices (``warm_target`` ``hard``) or, for searched decisions, softmax(value / ``warm_temperature``) over the
abstract actions the search examined (``soft``), the critic learning the games' Monte-Carlo returns. Imitated
games count as games (so ``games`` can end a run with the imitation). Records the imitation cannot use are
reported by file and line and skipped (``paiju.train.dmc_corpus.WarmCorpus``); the held-out games' top-1
agreement with the recorded moves, by role, goes to ``DIR/warm-accuracy.json``.

Batch ``k`` is split over the actors in a fixed way, so a run is reproducible from its seed whatever the
machine's timing (same actors count, same torch threads). Ctrl-C or SIGTERM finishes the batch in hand,
checkpoints and stops. ``DIR/checkpoint.pt`` (atomic) holds everything to ``--resume``; ``DIR/model.pt`` the
networks that play (DouDizhu: the agent ``perfectdou:DIR``; GuanDan: ``dmc:DIR/model.pt``); the loop, logs,
TensorBoard and background evaluation against ``rules`` and ``dmc`` are the shared runtime's
(``paiju.train.loop``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import torch
from rich.markup import escape

from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.perfectdou.features import FEATURES
from paiju.agents.perfectdou.guandan import GuanDanNets
from paiju.agents.perfectdou.model import ModelConfig
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.records.corpus import CorpusGame
from paiju.train.backends import Actors
from paiju.train.dmc_corpus import HeldOutAccuracy, WarmCorpus, write_report
from paiju.train.loop import (
    BatchRun,
    BatchSettings,
    Progress,
    TrainingLoop,
    TrainResult,
    actor_seeds,
    load_optimizer_states,
    optimizer_states,
    run_training,
    share,
)
from paiju.train.ppo_games import DouDizhuPPO, PPOGame, guandan_nets, ppo_game
from paiju.train.ppo_selfplay import PPOChunk, PPOWorker, Steps, trajectory_steps, weights_of
from paiju.train.segments import first_rows, log_softmax_by_decision, owners, top1_agreement

LOSSES = ("policy", "value", "entropy")


WARM_TARGETS = ("hard", "soft")
GAME_ONLY = {"oracle_scale": "doudizhu", "lstm": "doudizhu", "warm_target": "doudizhu",
             "warm_temperature": "doudizhu", "temperature": "guandan"}
"""Settings one game's PPO reads and the other's would silently ignore; set away from its default on the other
game, each is refused."""
BATCH_GAMES = {"doudizhu": 64, "guandan": 4}
"""Games per batch by default: about 1,000 decisions a DouDizhu role (Table 7's batch, scaled to 2 cores); about
2,000 GuanDan decisions (four whole games; DMC's GuanDan batch is 3,200 frames)."""


@dataclass(frozen=True, kw_only=True)
class PPOConfig(BatchSettings, trainer="ppo", games=("doudizhu", "guandan"), bound="games",
                at_least_one=("epochs", "minibatch"), not_negative=("oracle_scale", "entropy", "value_weight")):
    """One training run. ``minutes`` and ``games`` bound it (whichever comes first; 0 = no bound)."""

    game: str = "doudizhu"
    games: int = 0
    batch_games: int = 0
    """Games per batch; 0: the game's (``BATCH_GAMES``)."""
    model: ModelConfig = field(default_factory=ModelConfig)
    """Network sizes. GuanDan: ``policy`` the actor's MLP widths (a DMC network's; an ``init`` file's replace
    them), ``value`` the critic's, ``perfect`` whether it sees the hidden hands; ``lstm`` and ``action`` unused."""
    epochs: int = 4
    minibatch: int = 256
    learning_rate: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    gae_lambda: float = 0.95
    grad_clip: float = 1.0
    oracle_scale: float = 50.0
    """``l`` of the oracle reward; 0 switches it off (the final stage, or the ablation). DouDizhu only."""
    temperature: float = 0.1
    """GuanDan: τ, the policy's logits are the DMC network's scores / τ (0.1: the DMC warm start's imitation
    temperature)."""
    features: str = ""
    """The features the networks read; an ``init`` file's replace them. DouDizhu: PerfectDou's, ``paper`` (empty:
    the classic game) or ``laizi`` (癞子 self-play; ``model.features`` follows). GuanDan: the DMC features the actor
    reads (``plus`` or ``paper``; empty: ``plus``)."""
    teacher: str = "rules"
    warm_target: str = "hard"
    """A warm start from records: ``hard`` imitates each recorded move, ``soft`` each searched decision's
    softmax(candidate value / ``warm_temperature``) over the candidates the search examined (DouDizhu)."""
    warm_temperature: float = 0.25
    """Points of a searched candidate's value per unit of logit in the soft target."""
    eval_opponents: tuple[str, ...] = ("rules", "dmc")
    READS_RECORDS: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if self.batch_games == 0:
            object.__setattr__(self, "batch_games", BATCH_GAMES.get(self.game, BATCH_GAMES["doudizhu"]))
        super().__post_init__()
        if not 0 <= self.gae_lambda <= 1 or not 0 < self.clip < 1:
            raise PaijuError(f"need 0 ≤ gae_lambda ≤ 1 and 0 < clip < 1, got {self.gae_lambda}, {self.clip}")
        if self.temperature <= 0:
            raise PaijuError(f"temperature must be positive, got {self.temperature}")
        if self.warm_target not in WARM_TARGETS or self.warm_temperature <= 0:
            raise PaijuError(f"warm_target must be one of {', '.join(WARM_TARGETS)} and warm_temperature positive, "
                             f"got {self.warm_target!r}, {self.warm_temperature}")
        if self.warm_records is not None and self.game != "doudizhu":
            raise PaijuError(f"PPO warm-starts from recorded DouDizhu games only, not {self.game} (GuanDan: paiju "
                             "train dmc --warm-records, then --init from it)")
        if ignored := self.other_games_settings():
            other = "GuanDan" if self.game == "doudizhu" else "DouDizhu"
            raise PaijuError(f"{', '.join(ignored)}: {other}'s PPO setting, which {self.game} PPO does not read")
        if self.game == "guandan":
            object.__setattr__(self, "features", adapter_for("guandan", self.features).features)
            return
        features = self.features or self.model.features
        if features not in FEATURES:
            raise PaijuError(f"DouDizhu PPO features must be one of {', '.join(FEATURES)}, got {features!r}")
        object.__setattr__(self, "features", features)
        object.__setattr__(self, "model", replace(self.model, features=features))

    def other_games_settings(self) -> list[str]:
        """The settings changed from their defaults that only the other game reads (``GAME_ONLY``)."""
        fields = PPOConfig.__dataclass_fields__

        def changed(name: str) -> bool:
            if name == "lstm":
                return self.model.lstm != ModelConfig().lstm
            return bool(getattr(self, name) != fields[name].default)

        return [name for name, game in GAME_ONLY.items() if game != self.game and changed(name)]

    @property
    def networks(self) -> ModelConfig | GuanDanNets:
        """The networks' description the actors build theirs from: PerfectDou's sizes, or a GuanDan
        actor-critic's."""
        return guandan_nets(self.model, self.features, self.temperature) if self.game == "guandan" else self.model

    @property
    def adapter(self) -> PPOGame:
        """The game as PPO sees it (``paiju.train.ppo_games``)."""
        return ppo_game(self.networks, self.oracle_scale)

    @property
    def value_scale(self) -> float:
        """Rewards are divided by this so the critic's targets stay near unit size (DouDizhu: the oracle scale, at
        least 1; GuanDan: 3, the largest round result)."""
        return self.adapter.value_scale


@dataclass
class PPOProgress(Progress):
    batches: int = 0
    decisions: int = 0
    """Decisions trained on (each counted once, however many epochs)."""
    corpus_games: int = 0
    """Games of the ``warm_records`` corpus imitated, over all passes (where a resumed warm start reads on)."""
    corpus_done: bool = False
    """Whether the warm start from ``warm_records`` is over (its held-out accuracy written) and self-play began."""


def losses(network: torch.nn.Module, batch: Steps, config: PPOConfig, imitate: bool) -> dict[str, torch.Tensor]:
    """The clipped surrogate (or, ``imitate``, the teacher's cross-entropy), the value loss and the entropy."""
    count = len(batch)
    counts = torch.from_numpy(batch.counts)
    owner = owners(counts)
    logits, value = config.adapter.evaluate(network, batch, owner)
    log_policy = log_softmax_by_decision(logits, owner, count)
    chosen = first_rows(counts) + torch.from_numpy(batch.chosen)
    log_chosen = log_policy[chosen]
    entropy = -torch.zeros(count).index_add(0, owner, log_policy.exp() * log_policy).mean()
    if imitate and "target" in batch.candidates:
        policy = -(torch.from_numpy(batch.target) * log_policy).sum() / count
    elif imitate:
        policy = -log_chosen.mean()
    else:
        advantage = torch.from_numpy(batch.advantage)
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8) if count > 1 else advantage
        ratio = (log_chosen - torch.from_numpy(batch.logp)).exp()
        policy = -torch.min(ratio * advantage, ratio.clamp(1 - config.clip, 1 + config.clip) * advantage).mean()
    value_loss = ((value - torch.from_numpy(batch.ret)) ** 2).mean()
    return {"policy": policy, "value": value_loss, "entropy": entropy}


def learn(run: PPORun, role: str, data: Steps, imitate: bool) -> dict[str, float]:
    """``epochs`` shuffled passes of minibatch steps over one role's batch; the mean of each loss."""
    config, network, optimizer = run.config, run.models.networks[role], run.optimizers[role]
    network.train()
    recorded: dict[str, list[float]] = {name: [] for name in LOSSES}
    for _ in range(config.epochs):
        order = run.generator.permutation(len(data))
        for start in range(0, len(order), config.minibatch):
            parts = losses(network, data.take(order[start:start + config.minibatch]), config, imitate)
            entropy_term = 0.0 if imitate else config.entropy * parts["entropy"]
            loss = parts["policy"] - entropy_term + config.value_weight * parts["value"]
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
            optimizer.step()
            run.progress.steps += 1
            for name, value in parts.items():
                recorded[name].append(value.item())
    network.eval()
    run.progress.decisions += len(data)
    return {name: float(np.mean(values)) for name, values in recorded.items()}


def make_optimizer(network: torch.nn.Module, config: PPOConfig) -> torch.optim.Optimizer:
    return torch.optim.Adam(network.parameters(), lr=config.learning_rate)


class PPORun(BatchRun[PPOConfig, PPOProgress], settings=PPOConfig, progress=PPOProgress, agent="perfectdou",
             unit="decisions"):
    """The learner: each role's network (actor and critic) and optimizer. ``models`` are the game's
    (``PPOGame``): PerfectDou's three for DouDizhu, one actor-critic for GuanDan."""

    def __init__(self, config: PPOConfig, progress: PPOProgress, models: Any) -> None:
        super().__init__(config, progress)
        self.game = game = config.adapter
        self.models = models
        self.optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
        soft = config.warm_target == "soft"
        self.corpus = (WarmCorpus(config.warm_records, config.game, config.warm_holdout,
                                  lambda entry: game.record_problem(entry.record, soft))
                       if isinstance(game, DouDizhuPPO) and config.warm_records is not None
                       and not progress.corpus_done else None)
        self.records: Iterator[CorpusGame] | None = None
        torch.manual_seed(derive_seed(config.seed, "learner", progress.batches))
        self.generator = np.random.default_rng(derive_seed(config.seed, "minibatches", progress.batches))

    @classmethod
    def create(cls, config: PPOConfig) -> PPORun:
        """Fresh weights from the seed, or the ``init`` model's (``PPOGame.create``)."""
        config, models = config.adapter.create(config)
        return cls(config, PPOProgress(), models)

    @classmethod
    def restore(cls, config: PPOConfig, progress: PPOProgress, data: dict[str, Any]) -> PPORun:
        run = cls(config, progress, config.adapter.restore(data["models"], str(config.out)))
        load_optimizer_states(run.optimizers, data["optimizers"])
        return run

    def learner_data(self) -> dict[str, Any]:
        return {"models": self.models.to_dict(), "optimizers": optimizer_states(self.optimizers)}

    def save_networks(self, path: Path) -> str:
        """The networks that play (DouDizhu: a PerfectDou file, agent ``perfectdou``; GuanDan: the actor as a DMC
        file, agent ``dmc``)."""
        return self.game.save(self.models, path, self.meta())

    def eval_rules(self) -> dict[str, Any]:
        return self.game.eval_rules()

    def losses(self) -> tuple[str, ...]:
        return LOSSES

    def actors(self) -> Actors:
        config = self.config
        return PPOWorker, [(config.networks, config.oracle_scale, config.value_scale, config.gae_lambda, seed)
                           for seed in actor_seeds(config)]

    def weights(self) -> Any:
        return weights_of(self.models)

    def start(self, loop: TrainingLoop) -> None:
        """Self-play's first batch handed out, or (a warm start from records under way) the corpus's bad records
        reported, one warning each."""
        if self.corpus is None:
            super().start(loop)
            return
        for problem in self.corpus.skipped:
            loop.say(escape(f"warning: skipped {problem}"))
        loop.say(escape(f"warm start from {self.corpus.summary()}, {self.config.warm_passes} pass(es), "
                        f"{self.config.warm_target} targets"))

    def step(self, loop: TrainingLoop) -> None:
        """A batch (the actors start the next): each role learns from its own decisions in it (during a warm start
        from records: the corpus's next ``batch_games`` games instead)."""
        if self.corpus is not None:
            self.imitate_records(loop)
            return
        progress = self.progress
        imitate = bool(share(self.config, progress.batches)[0][2])
        chunks: list[PPOChunk] = self.next_batch(loop)
        for role in self.game.roles:
            found = [chunk.steps[role] for chunk in chunks if role in chunk.steps]
            if found:
                for name, value in learn(self, role, Steps.concat(found), imitate).items():
                    loop.losses[name].append(value)
        progress.batches += 1
        progress.games += sum(chunk.games for chunk in chunks)

    def imitate_records(self, loop: TrainingLoop) -> None:
        """The corpus's next ``batch_games`` training games imitated (``DouDizhuPPO.recorded``, Monte-Carlo returns
        for the critic); after the last game of the last pass, the end of the warm start."""
        corpus, progress, config = self.corpus, self.progress, self.config
        assert corpus is not None and isinstance(self.game, DouDizhuPPO)
        total = corpus.training * config.warm_passes
        if self.records is None:
            self.records = corpus.training_passes(config.warm_passes, progress.corpus_games)
        entries = list(itertools.islice(self.records, config.batch_games))
        self.learn_games(loop, entries)
        progress.corpus_games += len(entries)
        progress.games += len(entries)
        if progress.corpus_games >= total:
            accuracy = self.held_out_accuracy()
            path = write_report(config.out, corpus, accuracy, progress.corpus_games, progress.decisions, True)
            loop.say(escape(f"held-out top-1 agreement with the recorded moves, by role ({path}):\n"
                            f"{accuracy.table()}"))
            loop.log.scalars({"warm/top1": accuracy.top1}, progress.corpus_games)
            progress.corpus_done = True
            self.corpus = self.records = None
            self.hand_out(loop, progress.batches)

    def recorded_steps(self, entries: list[CorpusGame], temperature: float | None) -> dict[str, Steps]:
        """The recorded games' decisions by role."""
        assert isinstance(self.game, DouDizhuPPO)
        found: dict[str, list[Steps]] = {}
        for entry in entries:
            for trajectory in self.game.recorded(entry.record, temperature):
                found.setdefault(trajectory.role, []).append(
                    trajectory_steps(trajectory, self.config.value_scale, 1.0))
        return {role: Steps.concat(parts) for role, parts in found.items()}

    def learn_games(self, loop: TrainingLoop, entries: list[CorpusGame]) -> None:
        """Each role imitates its decisions in ``entries`` (``warm_target``'s targets)."""
        soft = self.config.warm_target == "soft"
        for role, steps in self.recorded_steps(entries, self.config.warm_temperature if soft else None).items():
            for name, value in learn(self, role, steps, imitate=True).items():
                loop.losses[name].append(value)

    def held_out_accuracy(self) -> HeldOutAccuracy:
        """Top-1 agreement of each role's policy with the recorded moves of the held-out games (decisions with two
        candidates or more), by role."""
        assert self.corpus is not None
        accuracy = HeldOutAccuracy(label="role")
        for entry in self.corpus.held_out_games():
            for role, steps in self.recorded_steps([entry], None).items():
                counts = torch.from_numpy(steps.counts)
                owner = owners(counts)
                with torch.inference_mode():
                    logits, _ = self.game.evaluate(self.models.networks[role], steps, owner)
                chosen = first_rows(counts) + torch.from_numpy(steps.chosen)
                row = accuracy.types.setdefault(role, [0, 0])
                row[0] += len(steps)
                row[1] += round(top1_agreement(logits, owner, chosen) * len(steps))
        return accuracy


RUN = PPORun


def train(config: PPOConfig, **options: Any) -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.games`` in all (``paiju.train.loop``)."""
    return run_training(PPORun, config, **options)


__all__ = ["BATCH_GAMES", "LOSSES", "PPOConfig", "PPOProgress", "PPORun", "learn", "losses", "train"]
