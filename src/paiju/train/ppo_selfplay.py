"""PerfectDou's actors: play research-mode DouDizhu games with the current policies (or a teacher's, for a warm
start) and return each role's decisions with their advantages and returns.

Rewards (PerfectDou §4.4, our reading, spec "Oracle reward"): with ``N`` the minimum steps to play a hand out
(``min_steps``) and ``Adv = N_landlord − min(N_down, N_up)``, a decision's reward is the change of ``Adv`` until
the same seat's next decision (or the end), times ``−l`` for the landlord and ``+l/2`` for a peasant
(``l`` = ``oracle_scale``, 0 switches the oracle off), plus, on the seat's last decision, its final score
(ADP: landlord ±2, peasant ±1, doubled per bomb or rocket). Rewards are divided by ``value_scale`` so the
critic's targets stay near unit size (advantages are normalised per minibatch, so the policy does not see the
scale).

Advantages: GAE (γ = 1, λ = ``gae_lambda``) over each seat's own decisions, bootstrapped on the critic's values;
decisions with a single legal play are not samples (their reward folds into the previous decision's). Teacher
games (warm start) carry the teacher's abstract action and Monte-Carlo returns (λ = 1, no critic).

The deals of chunk ``k`` come from ``derive_seed(seed, "chunk", k)``; sampling uses a generator seeded from the
same, so a chunk is a function of the seed, the chunk index and the weights it was played with.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields

import numpy as np
import torch

from paiju.agents import make_agent
from paiju.agents.perfectdou.agent import softmax
from paiju.agents.perfectdou.features import decision, scores
from paiju.agents.perfectdou.model import ROLES, ModelConfig, PerfectDouModels
from paiju.core.agent import Agent
from paiju.core.registry import load_game
from paiju.eval.seeds import derive_seed
from paiju.games.doudizhu.abstract_actions import abstract_index
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.observation import position_of
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.state import DouDizhuState

Weights = dict[str, dict[str, np.ndarray]]
RESEARCH = DouDizhuRules(mode="research")


@dataclass
class Steps:
    """Decisions of one role: per decision ``state``, ``history``, ``perfect`` (int8), the number of candidates
    ``counts``, the ``chosen`` one, its log-probability ``logp`` when played, the critic's ``value``,
    ``advantage`` and ``ret``; per candidate (all decisions' rows in order) ``actions`` (int8) and ``abstract``."""

    state: np.ndarray
    history: np.ndarray
    perfect: np.ndarray
    counts: np.ndarray
    chosen: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    advantage: np.ndarray
    ret: np.ndarray
    actions: np.ndarray
    abstract: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Steps))

    @staticmethod
    def concat(parts: list[Steps]) -> Steps:
        return Steps(*(np.concatenate([getattr(p, name) for p in parts]) for name in Steps.names()))

    def take(self, rows: np.ndarray) -> Steps:
        """The decisions ``rows`` (and their candidates), in that order."""
        starts = np.cumsum(self.counts) - self.counts
        counts = self.counts[rows]
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        candidate_rows = np.repeat(starts[rows], counts) + offsets
        per_decision = {name: getattr(self, name)[rows] for name in Steps.names() if name not in _PER_CANDIDATE}
        return Steps(**per_decision, actions=self.actions[candidate_rows], abstract=self.abstract[candidate_rows])


_PER_CANDIDATE = ("actions", "abstract")


@dataclass
class PPOChunk:
    """What an actor sends back: steps by role, and how the games went."""

    index: int
    steps: dict[str, Steps]
    games: int
    landlord_score: float
    """Sum over the games of the landlord's final score (for the log)."""


def weights_of(models: PerfectDouModels) -> Weights:
    return {role: {name: value.detach().numpy().copy() for name, value in network.state_dict().items()}
            for role, network in models.networks.items()}


def advantage(landlord: int, hands: list[list[int]]) -> int:
    """``N_landlord − min(N_down, N_up)`` of the current hands (PerfectDou §4.4)."""
    steps = [min_steps(tuple(hand), RESEARCH) for hand in hands]
    return steps[landlord] - min(steps[(landlord + 1) % 3], steps[(landlord + 2) % 3])


def gae(rewards: np.ndarray, values: np.ndarray, lam: float) -> np.ndarray:
    """Generalised advantage estimates (γ = 1) of one trajectory ending in a terminal state."""
    advantages = np.zeros(len(rewards), dtype=np.float32)
    running = 0.0
    for k in range(len(rewards) - 1, -1, -1):
        following = values[k + 1] if k + 1 < len(values) else 0.0
        running = rewards[k] + following - values[k] + lam * running
        advantages[k] = running
    return advantages


class PPOWorker:
    """One actor: its own copy of the three networks, refreshed from the learner's weights."""

    def __init__(self, model: ModelConfig, oracle_scale: float, value_scale: float, gae_lambda: float,
                 seed: int) -> None:
        torch.set_num_threads(1)
        self.game = load_game("doudizhu")
        self.models = PerfectDouModels.fresh(model, seed)
        for network in self.models.networks.values():
            network.eval()
        self.oracle_scale, self.value_scale, self.gae_lambda, self.seed = oracle_scale, value_scale, gae_lambda, seed

    def set_weights(self, weights: Weights) -> None:
        for role, state in weights.items():
            self.models.networks[role].load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})

    def collect(self, index: int, games: int, weights: Weights | None = None, teacher: str = "") -> PPOChunk:
        """Play ``games`` games from chunk ``index``'s seed (the ``teacher``'s, if named, else the policies')."""
        if weights is not None:
            self.set_weights(weights)
        chunk_seed = derive_seed(self.seed, "chunk", index)
        rng = random.Random(chunk_seed)
        player = make_agent(teacher, "doudizhu", chunk_seed) if teacher else None
        parts: dict[str, list[Steps]] = {role: [] for role in ROLES}
        landlord_score = 0.0
        for game in range(games):
            state = self.game.new_state(derive_seed(chunk_seed, "game", game), RESEARCH)
            for role, steps in self._play(state, rng, player).items():
                parts[role].append(steps)
            landlord_score += state.payoffs()[state.landlord]
        return PPOChunk(index, {role: Steps.concat(found) for role, found in parts.items() if found}, games,
                        landlord_score)

    def _play(self, state: DouDizhuState, rng: random.Random, teacher: Agent | None) -> dict[str, Steps]:
        records: dict[int, list[tuple]] = {0: [], 1: [], 2: []}
        landlord = state.landlord
        assert landlord is not None
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            observation = state.observation(seat)
            role = observation.position
            chosen = decision(observation, legal, state.hands)
            if teacher is not None:
                move = teacher.act(observation, legal)
                choice = int(np.flatnonzero(chosen.abstract == abstract_index(move))[0])
                logp, value = 0.0, 0.0
            else:
                logits, value = scores(self.models.networks[role], chosen, with_value=True)
                probabilities = softmax(logits)
                choice = rng.choices(range(len(probabilities)), weights=probabilities.tolist())[0]
                logp, move = math.log(max(probabilities[choice], 1e-12)), chosen.candidates[choice]
            records[seat].append((chosen, choice, logp, value, advantage(landlord, state.hands)))
            state.apply(move)
        final_adv = advantage(landlord, state.hands)
        payoffs = state.payoffs()
        out: dict[str, list[Steps]] = {}
        for seat, rows in records.items():
            if not rows:
                continue
            sign = -1.0 if seat == landlord else 0.5
            potentials = [row[4] for row in rows] + [final_adv]
            rewards = np.array([sign * self.oracle_scale * (potentials[k + 1] - potentials[k])
                                for k in range(len(rows))], dtype=np.float32)
            rewards[-1] += payoffs[seat]
            rewards /= self.value_scale
            values = np.array([row[3] for row in rows], dtype=np.float32)
            advantages = gae(rewards, values, 1.0 if teacher is not None else self.gae_lambda)
            out.setdefault(position_of(seat, landlord), []).append(_steps(rows, advantages, advantages + values))
        return {role: Steps.concat(found) for role, found in out.items()}


def _steps(rows: list[tuple], advantages: np.ndarray, returns: np.ndarray) -> Steps:
    decisions = [row[0] for row in rows]
    return Steps(
        state=np.stack([d.features.state for d in decisions]),
        history=np.stack([d.features.history for d in decisions]),
        perfect=np.stack([d.features.perfect for d in decisions]),
        counts=np.array([len(d.candidates) for d in decisions], dtype=np.int64),
        chosen=np.array([row[1] for row in rows], dtype=np.int64),
        logp=np.array([row[2] for row in rows], dtype=np.float32),
        value=np.array([row[3] for row in rows], dtype=np.float32),
        advantage=advantages.astype(np.float32), ret=returns.astype(np.float32),
        actions=np.concatenate([d.features.actions for d in decisions]),
        abstract=np.concatenate([d.abstract for d in decisions]).astype(np.int64))


__all__ = ["PPOChunk", "PPOWorker", "Steps", "Weights", "advantage", "gae", "weights_of"]
