"""DMC actors: play ε-greedy self-play games and return (features, Monte-Carlo return) samples.

One ``SelfPlayWorker`` per actor process (or Ray actor). ``collect`` plays whole games with the weights it
was last sent until it has at least ``frames`` samples: every decision a network makes is one frame, stored
as the chosen action's feature row (int8), the decision's context (DouDizhu's history), the actor's Q of the
chosen action (for DanZero's clipped target) and, once the game is over, the step's return
(``DMCAdapter.step_return``). The deals of chunk ``k`` come from ``derive_seed(seed, "chunk", k)``, so a run
is a function of its seed and the order the learner consumes chunks in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import torch

from paiju.agents.dmc.adapters import Objective, adapter_for
from paiju.agents.dmc.agent import q_values
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels
from paiju.core.agent import Agent
from paiju.core.registry import load_game
from paiju.eval.seeds import derive_seed

Weights = dict[str, dict[str, np.ndarray]]
"""Every role's network parameters as numpy arrays (what travels from the learner to the actors)."""


@dataclass
class Samples:
    """Frames of one role: ``x`` [n, d] int8, ``context`` {name: [n, ...] int8}, ``target`` and ``q_actor`` [n]."""

    x: np.ndarray
    context: dict[str, np.ndarray]
    target: np.ndarray
    q_actor: np.ndarray

    def __len__(self) -> int:
        return len(self.target)

    @staticmethod
    def concat(parts: list[Samples]) -> Samples:
        return Samples(np.concatenate([p.x for p in parts]),
                       {name: np.concatenate([p.context[name] for p in parts]) for name in parts[0].context},
                       np.concatenate([p.target for p in parts]), np.concatenate([p.q_actor for p in parts]))

    def split(self, size: int) -> tuple[Samples, Samples]:
        """The first ``size`` frames, and the rest."""
        head = Samples(self.x[:size], {k: v[:size] for k, v in self.context.items()}, self.target[:size],
                       self.q_actor[:size])
        tail = Samples(self.x[size:], {k: v[size:] for k, v in self.context.items()}, self.target[size:],
                       self.q_actor[size:])
        return head, tail


@dataclass
class Chunk:
    """What an actor sends back: samples by role, and how the games went."""

    index: int
    samples: dict[str, Samples]
    games: int
    returns: list[float] = field(default_factory=list)
    """The return of seat 0's first step in each game (DouDizhu: the landlord's), for the log."""

    @property
    def frames(self) -> int:
        return sum(len(s) for s in self.samples.values())


def weights_of(models: DMCModels) -> Weights:
    return {role: {name: value.detach().numpy().copy() for name, value in network.state_dict().items()}
            for role, network in models.networks.items()}


class SelfPlayWorker:
    """One actor: its own copy of the networks, refreshed from the learner's weights."""

    def __init__(self, game: str, objective: Objective, model: ModelConfig, epsilon: float, seed: int) -> None:
        torch.set_num_threads(1)
        self.adapter = adapter_for(game)
        self.game = load_game(game)
        self.rules = self.adapter.selfplay_rules()
        self.objective = objective
        self.epsilon = epsilon
        self.seed = seed
        self.models = DMCModels.fresh(game, objective, model, seed)
        for network in self.models.networks.values():
            network.eval()

    def set_weights(self, weights: Weights) -> None:
        for role, state in weights.items():
            self.models.networks[role].load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})

    def collect(self, index: int, frames: int, weights: Weights | None = None) -> Chunk:
        """Play games from chunk ``index``'s seed until at least ``frames`` samples are gathered."""
        if weights is not None:
            self.set_weights(weights)
        chunk_seed = derive_seed(self.seed, "chunk", index)
        rng = random.Random(chunk_seed)
        fallback = self.adapter.fallback(chunk_seed)
        parts: dict[str, list[Samples]] = {role: [] for role in self.adapter.roles}
        returns: list[float] = []
        games = gathered = 0
        while gathered < frames:
            game_samples, first_return = self._play(derive_seed(chunk_seed, "game", games), rng, fallback)
            for role, samples in game_samples.items():
                parts[role].append(samples)
                gathered += len(samples)
            returns.append(first_return)
            games += 1
        samples = {role: Samples.concat(found) for role, found in parts.items() if found}
        return Chunk(index, samples, games, returns)

    def _play(self, seed: int, rng: random.Random, fallback: Agent) -> tuple[dict[str, Samples], float]:
        adapter = self.adapter
        state = self.game.new_state(seed, self.rules)
        steps: list[tuple[int, int, str, np.ndarray, dict[str, np.ndarray], float]] = []
        while not state.is_terminal():
            seat = state.current_player
            observation = state.observation(seat)
            legal = state.legal_actions()
            role = adapter.role(observation)
            if role is None:
                state.apply(fallback.act(observation, legal))
                continue
            decision = adapter.encode(observation, legal)
            values = q_values(self.models.networks[role], decision)
            choice = rng.randrange(len(legal)) if rng.random() < self.epsilon else int(np.argmax(values))
            steps.append((seat, state.deal_number, role, decision.x[choice], decision.context, float(values[choice])))
            state.apply(legal[choice])
        returns: dict[tuple[int, int], float] = {}
        by_role: dict[str, list[tuple[np.ndarray, dict[str, np.ndarray], float, float]]] = {}
        for seat, deal, role, row, context, q in steps:
            if (seat, deal) not in returns:
                returns[seat, deal] = adapter.step_return(state, seat, deal, self.objective)
            by_role.setdefault(role, []).append((row, context, returns[seat, deal], q))
        samples = {
            role: Samples(np.stack([r[0] for r in rows]).astype(np.int8),
                          {name: np.stack([r[1][name] for r in rows]).astype(np.int8) for name in rows[0][1]},
                          np.array([r[2] for r in rows], dtype=np.float32),
                          np.array([r[3] for r in rows], dtype=np.float32))
            for role, rows in by_role.items()}
        first = next(((s, d) for s, d, *_ in steps if s == 0), None)
        return samples, (returns[first] if first is not None else 0.0)


__all__ = ["Chunk", "Samples", "SelfPlayWorker", "Weights", "weights_of"]
