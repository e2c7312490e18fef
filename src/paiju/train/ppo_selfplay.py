"""PPO's actors: play games with the current policies (or a teacher's, for a warm start) and return each role's
decisions with their advantages and returns. What a game is, who decides what and the rewards are the game's
(``paiju.train.ppo_games``: PerfectDou's oracle reward for DouDizhu, the round's result for GuanDan); the rest is
written once here.

Rewards are divided by the game's ``value_scale`` so the critic's targets stay near unit size (advantages are
normalised per minibatch, so the policy does not see the scale).

Advantages: GAE (γ = 1, λ = ``gae_lambda``) over each seat's own decisions of an episode (DouDizhu: the game;
GuanDan: the round), bootstrapped on the critic's values (Schulman et al. 2016, Eq. 16); decisions with a single
legal play are not samples. Teacher games (warm start) carry the teacher's choice and Monte-Carlo returns (λ = 1,
no critic).

The deals of chunk ``k`` come from ``derive_seed(seed, "chunk", k)``; sampling uses a generator seeded from the
same, so a chunk is a function of the seed, the chunk index and the weights it was played with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import torch

from paiju.agents.perfectdou.guandan import GuanDanNets
from paiju.agents.perfectdou.model import ModelConfig
from paiju.eval.seeds import derive_seed
from paiju.train.ppo_games import RESEARCH, Trajectory, advantage, ppo_game

Weights = dict[str, dict[str, np.ndarray]]


@dataclass
class Steps:
    """Decisions of one role: per decision the network ``inputs`` (by name, the game's: DouDizhu ``state``,
    ``history``, ``perfect``; GuanDan ``state``, ``perfect``), the number of candidates ``counts``, the ``chosen``
    one, its log-probability ``logp`` when played, the critic's ``value``, ``advantage`` and ``ret``; per
    candidate (all decisions' rows in order) the ``candidates`` arrays (DouDizhu ``actions``, ``abstract``;
    GuanDan ``actions``). ``steps.NAME`` reads an input or candidate array by name."""

    inputs: dict[str, np.ndarray]
    candidates: dict[str, np.ndarray]
    counts: np.ndarray
    chosen: np.ndarray
    logp: np.ndarray
    value: np.ndarray
    advantage: np.ndarray
    ret: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)

    def __getattr__(self, name: str) -> np.ndarray:
        arrays = {**self.__dict__.get("inputs", {}), **self.__dict__.get("candidates", {})}
        if name not in arrays:
            raise AttributeError(f"Steps has no array {name!r}")
        return arrays[name]

    @staticmethod
    def names() -> tuple[str, ...]:
        """The per-decision fields besides ``inputs``."""
        return tuple(f.name for f in fields(Steps) if f.name not in ("inputs", "candidates"))

    @staticmethod
    def concat(parts: list[Steps]) -> Steps:
        return Steps({name: np.concatenate([p.inputs[name] for p in parts]) for name in parts[0].inputs},
                     {name: np.concatenate([p.candidates[name] for p in parts]) for name in parts[0].candidates},
                     *(np.concatenate([getattr(p, name) for p in parts]) for name in Steps.names()))

    def take(self, rows: np.ndarray) -> Steps:
        """The decisions ``rows`` (and their candidates), in that order."""
        starts = np.cumsum(self.counts) - self.counts
        counts = self.counts[rows]
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        candidate_rows = np.repeat(starts[rows], counts) + offsets
        return Steps({name: value[rows] for name, value in self.inputs.items()},
                     {name: value[candidate_rows] for name, value in self.candidates.items()},
                     *(getattr(self, name)[rows] for name in Steps.names()))


@dataclass
class PPOChunk:
    """What an actor sends back: steps by role, and how many games it played."""

    index: int
    steps: dict[str, Steps]
    games: int


def weights_of(models: Any) -> Weights:
    """The networks' parameters (``models.networks`` by role) as numpy arrays, for the actors."""
    return {role: {name: value.detach().numpy().copy() for name, value in network.state_dict().items()}
            for role, network in models.networks.items()}


def gae(rewards: np.ndarray, values: np.ndarray, lam: float) -> np.ndarray:
    """Generalised advantage estimates (γ = 1) of one trajectory ending in a terminal state:
    ``Â_k = Σ_j λ^j δ_{k+j}``, ``δ_k = r_k + V_{k+1} − V_k`` with ``V`` past the end 0 (Schulman et al. 2016)."""
    advantages = np.zeros(len(rewards), dtype=np.float32)
    running = 0.0
    for k in range(len(rewards) - 1, -1, -1):
        following = values[k + 1] if k + 1 < len(values) else 0.0
        running = rewards[k] + following - values[k] + lam * running
        advantages[k] = running
    return advantages


def trajectory_steps(trajectory: Trajectory, value_scale: float, lam: float) -> Steps:
    """A trajectory's decisions with their advantages and returns (module doc), rewards divided by
    ``value_scale``."""
    turns = trajectory.turns
    rewards = trajectory.rewards / value_scale
    values = np.array([turn.value for turn in turns], dtype=np.float32)
    advantages = gae(rewards, values, lam)
    return Steps({name: np.stack([turn.inputs[name] for turn in turns]) for name in turns[0].inputs},
                 {name: np.concatenate([turn.candidates[name] for turn in turns]) for name in turns[0].candidates},
                 counts=np.array([len(next(iter(turn.candidates.values()))) for turn in turns], dtype=np.int64),
                 chosen=np.array([turn.choice for turn in turns], dtype=np.int64),
                 logp=np.array([turn.logp for turn in turns], dtype=np.float32), value=values,
                 advantage=advantages.astype(np.float32), ret=(advantages + values).astype(np.float32))


class PPOWorker:
    """One actor: its own copy of the game's networks (``model``: PerfectDou's sizes for DouDizhu, a
    ``GuanDanNets`` for GuanDan), refreshed from the learner's weights."""

    def __init__(self, model: ModelConfig | GuanDanNets, oracle_scale: float, value_scale: float,
                 gae_lambda: float, seed: int) -> None:
        torch.set_num_threads(1)
        self.game = ppo_game(model, oracle_scale)
        self.models = self.game.fresh(seed)
        for network in self.models.networks.values():
            network.eval()
        self.value_scale, self.gae_lambda, self.seed = value_scale, gae_lambda, seed

    def set_weights(self, weights: Weights) -> None:
        for role, state in weights.items():
            self.models.networks[role].load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})

    def collect(self, index: int, games: int, weights: Weights | None = None, teacher: str = "") -> PPOChunk:
        """Play ``games`` games from chunk ``index``'s seed (the ``teacher``'s, if named, else the policies')."""
        if weights is not None:
            self.set_weights(weights)
        chunk_seed = derive_seed(self.seed, "chunk", index)
        rng = random.Random(chunk_seed)
        players = self.game.players(teacher, chunk_seed)
        parts: dict[str, list[Steps]] = {role: [] for role in self.game.roles}
        for game in range(games):
            for trajectory in self.game.play(self.models, derive_seed(chunk_seed, "game", game), rng, players):
                lam = 1.0 if teacher else self.gae_lambda
                parts[trajectory.role].append(trajectory_steps(trajectory, self.value_scale, lam))
        return PPOChunk(index, {role: Steps.concat(found) for role, found in parts.items() if found}, games)


__all__ = ["RESEARCH", "PPOChunk", "PPOWorker", "Steps", "Weights", "advantage", "gae", "trajectory_steps",
           "weights_of"]
