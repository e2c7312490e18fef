"""DMC actors: play ε-greedy self-play games (or a teacher's games) and return samples with Monte-Carlo returns.

One ``SelfPlayWorker`` per actor process (or Ray actor). ``collect`` plays whole games with the weights it
was last sent until it has at least ``frames`` samples: every decision a network makes is one frame, stored
as the chosen action's feature row (int8), the decision's context (DouDizhu's history), the actor's Q of the
chosen action (for DanZero's clipped target) and, once the game is over, the step's return
(``DMCAdapter.step_return``). With an ``opponent`` agent, each game is the network's side against it: the opponent
plays every seat of one side (``DMCAdapter.sides``, drawn from the game's seed) and only the network's seats make
frames — DMC against a fixed player, whose returns are what the network's moves earn against that player. With a
``teacher`` (the warm start), the teacher's agent plays every seat and a
frame is an ``Imitation`` row instead: the decision's state, every legal action, the teacher's choice and the
return (``paiju.train.dmc_corpus`` makes the same rows from recorded games). The deals of chunk ``k`` come from
``derive_seed(seed, "chunk", k)``, so a run is a function of its seed and the order the learner consumes chunks
in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import torch

from paiju.agents import make_agent
from paiju.agents.dmc.adapters import Decision, DMCAdapter, Objective, adapter_for
from paiju.agents.dmc.agent import q_values
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels
from paiju.core.agent import Agent
from paiju.core.game import State
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
class Imitation:
    """A teacher's decisions of one role: ``state`` [d, s] int8, every legal action's features ``actions``
    [r, a] int8 (decision by decision), ``counts`` [d] actions per decision, ``chosen`` [d] the teacher's (an
    index into the decision's actions), ``context`` {name: [d, ...] int8} and ``target`` [d] the return."""

    state: np.ndarray
    actions: np.ndarray
    counts: np.ndarray
    chosen: np.ndarray
    context: dict[str, np.ndarray]
    target: np.ndarray

    def __len__(self) -> int:
        return len(self.target)

    @staticmethod
    def concat(parts: list[Imitation]) -> Imitation:
        return Imitation(np.concatenate([p.state for p in parts]), np.concatenate([p.actions for p in parts]),
                         np.concatenate([p.counts for p in parts]), np.concatenate([p.chosen for p in parts]),
                         {name: np.concatenate([p.context[name] for p in parts]) for name in parts[0].context},
                         np.concatenate([p.target for p in parts]))

    def split(self, size: int) -> tuple[Imitation, Imitation]:
        """The first ``size`` decisions, and the rest."""
        rows = int(self.counts[:size].sum())
        head = Imitation(self.state[:size], self.actions[:rows], self.counts[:size], self.chosen[:size],
                         {k: v[:size] for k, v in self.context.items()}, self.target[:size])
        tail = Imitation(self.state[size:], self.actions[rows:], self.counts[size:], self.chosen[size:],
                         {k: v[size:] for k, v in self.context.items()}, self.target[size:])
        return head, tail


@dataclass
class Chunk:
    """What an actor sends back: samples (self-play) or imitation rows (a teacher's games) by role, and how the
    games went."""

    index: int
    samples: dict[str, Samples | Imitation]
    games: int
    returns: list[float] = field(default_factory=list)
    """The return of the first step of the network's first seat in each game (self-play: seat 0, DouDizhu's
    landlord), for the log."""

    @property
    def frames(self) -> int:
        return sum(len(s) for s in self.samples.values())


@dataclass(frozen=True, slots=True)
class Step:
    """A network decision of a game: who made it, in which deal (round), its inputs, the action taken, and the
    actor's Q of it (0 for a teacher's)."""

    seat: int
    deal: int
    role: str
    decision: Decision
    choice: int
    q: float


def weights_of(models: DMCModels) -> Weights:
    return {role: {name: value.detach().cpu().numpy().copy() for name, value in network.state_dict().items()}
            for role, network in models.networks.items()}


class SelfPlayWorker:
    """One actor: its own copy of the networks, refreshed from the learner's weights."""

    def __init__(self, game: str, objective: Objective, model: ModelConfig, epsilon: float, seed: int,
                 opponent: str = "") -> None:
        torch.set_num_threads(1)
        self.adapter = adapter_for(game, model.features)
        self.game = load_game(game)
        self.rules = self.adapter.selfplay_rules()
        self.objective = objective
        self.epsilon = epsilon
        self.seed = seed
        self.opponent = opponent
        self.models = DMCModels.fresh(game, objective, model, seed)
        for network in self.models.networks.values():
            network.eval()

    def set_weights(self, weights: Weights) -> None:
        for role, state in weights.items():
            self.models.networks[role].load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})

    def collect(self, index: int, frames: int, weights: Weights | None = None, teacher: str = "") -> Chunk:
        """Play games from chunk ``index``'s seed until at least ``frames`` samples are gathered (``teacher``: that
        agent's games, as imitation rows)."""
        if weights is not None:
            self.set_weights(weights)
        chunk_seed = derive_seed(self.seed, "chunk", index)
        rng = random.Random(chunk_seed)
        fallback = self.adapter.fallback(chunk_seed)
        parts: dict[str, list[Samples | Imitation]] = {role: [] for role in self.adapter.roles}
        returns: list[float] = []
        games = gathered = 0
        while gathered < frames:
            game_seed = derive_seed(chunk_seed, "game", games)
            others = self._others(teacher, game_seed)
            steps, final = self._play(game_seed, rng, fallback, others, bool(teacher))
            game_returns = step_returns(self.adapter, final, steps, self.objective)
            for role, mine in by_role(steps).items():
                parts[role].append(imitation(mine, game_returns) if teacher else samples(mine, game_returns))
                gathered += len(mine)
            lead = min(set(range(self.game.num_players)) - set(others), default=0)  # the network's first seat, or 0
            first = next(((step.seat, step.deal) for step in steps if step.seat == lead), None)
            returns.append(game_returns[first] if first is not None else 0.0)
            games += 1
        joined = {role: type(found[0]).concat(found) for role, found in parts.items() if found}  # type: ignore[attr-defined]
        return Chunk(index, joined, games, returns)

    def _others(self, teacher: str, seed: int) -> dict[int, Agent]:
        """The agents besides the network in the game dealt from ``seed``, by seat: the teacher at every seat, or
        the opponent at one side's seats (drawn from ``seed``), or none (self-play)."""
        if teacher:
            seats: tuple[int, ...] = tuple(range(self.game.num_players))
        elif self.opponent:
            seats = self.adapter.sides[seed % len(self.adapter.sides)]
        else:
            return {}
        agents = {seat: make_agent(teacher or self.opponent, self.game.name, derive_seed(seed, "teacher", seat))
                  for seat in seats}
        for seat, agent in agents.items():
            agent.begin(self.game.name, seat, {})
        return agents

    def _play(self, seed: int, rng: random.Random, fallback: Agent,
              others: dict[int, Agent], teaching: bool) -> tuple[list[Step], State]:
        """One game: the network's ε-greedy choices at its seats, the ``others``' at theirs; the decisions to learn
        from (every network decision, or with ``teaching`` the teacher's at every seat) and the final state."""
        adapter = self.adapter
        state = self.game.new_state(seed, self.rules)
        steps: list[Step] = []
        while not state.is_terminal():
            seat = state.current_player
            observation = state.observation(seat)
            legal = state.legal_actions()
            role = adapter.role(observation)
            if role is None or (seat in others and not teaching):
                state.apply(others.get(seat, fallback).act(observation, legal))
                continue
            decision = adapter.encode(observation, legal)
            if teaching:
                choice, q = legal.index(others[seat].act(observation, legal)), 0.0
            else:
                values = q_values(self.models.networks[role], decision)
                choice = rng.randrange(len(legal)) if rng.random() < self.epsilon else int(np.argmax(values))
                q = float(values[choice])
            steps.append(Step(seat, state.deal_number, role, decision, choice, q))
            state.apply(legal[choice])
        for agent in others.values():
            agent.close()
        return steps, state


def step_returns(adapter: DMCAdapter, final: State, steps: list[Step],
                 objective: Objective) -> dict[tuple[int, int], float]:
    """The Monte-Carlo return of each (seat, deal) the steps were taken in, in the finished game ``final``
    (``DMCAdapter.step_return``)."""
    return {(step.seat, step.deal): adapter.step_return(final, step.seat, step.deal, objective) for step in steps}


def by_role(steps: list[Step]) -> dict[str, list[Step]]:
    """The steps of each role (network), in order."""
    found: dict[str, list[Step]] = {}
    for step in steps:
        found.setdefault(step.role, []).append(step)
    return found


def samples(steps: list[Step], returns: dict[tuple[int, int], float]) -> Samples:
    """One role's self-play steps of a game as frames: the chosen rows, contexts, returns and actor Qs."""
    return Samples(np.stack([step.decision.row(step.choice) for step in steps]).astype(np.int8),
                   _contexts(steps), np.array([returns[step.seat, step.deal] for step in steps], dtype=np.float32),
                   np.array([step.q for step in steps], dtype=np.float32))


def imitation(steps: list[Step], returns: dict[tuple[int, int], float]) -> Imitation:
    """One role's teacher steps of a game as imitation rows."""
    return Imitation(np.stack([step.decision.state for step in steps]).astype(np.int8),
                     np.concatenate([step.decision.actions for step in steps]).astype(np.int8),
                     np.array([len(step.decision.actions) for step in steps], dtype=np.int32),
                     np.array([step.choice for step in steps], dtype=np.int32), _contexts(steps),
                     np.array([returns[step.seat, step.deal] for step in steps], dtype=np.float32))


def _contexts(steps: list[Step]) -> dict[str, np.ndarray]:
    context = steps[0].decision.context
    return {name: np.stack([step.decision.context[name] for step in steps]).astype(np.int8) for name in context}


__all__ = ["Chunk", "Imitation", "Samples", "SelfPlayWorker", "Step", "Weights", "by_role", "imitation", "samples",
           "step_returns", "weights_of"]
