"""Worlds: full states consistent with the searching seat's observation, optionally weighted by belief.

A world is ``game.determinize(observation, rng)``: the observer's hand and the public history exactly as
observed, the cards it cannot see dealt at random under what the public record proves (DouDizhu: the shown
bottom cards; GuanDan: tribute and return cards, anti-tribute jokers; Gongzhu: voids). Each game checks
that the world's observation for the seat is the given one (``tests/agents/search/test_worlds.py``).

**Belief weighting** generalises ScrofaZero's importance of each sampled deal (its IEC, §5.4): a world is
weighted by the likelihood of what the other seats actually did in it, under the prior policy. The world
is replayed from the start of its deal (``game.opening_state(world.to_record())``), and for each of the
other seats' last ``decisions`` decisions of the deal the probability of the action taken is the softmax,
at ``temperature``, of the prior's ``explain`` scores for that seat's observation then. Worlds where the
opponents' plays look unlikely count for less.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.agents.search.prior import log_probability
from paiju.core.agent import Agent
from paiju.core.game import Game, State


@dataclass(frozen=True, slots=True)
class World:
    """A determinization and its weight."""

    state: State
    weight: float


@dataclass(frozen=True, slots=True)
class Belief:
    """The model of the other seats that weights worlds: ``agents[seat]`` scores that seat's decisions."""

    agents: Sequence[Agent]
    temperature: float
    decisions: int
    """How many of the other seats' most recent decisions of the deal are scored."""


class Worlds:
    """The ``count`` worlds of one decision, drawn from ``rng`` as they are first needed (all at once, to
    weight them, under a belief)."""

    def __init__(self, game: Game, observation: Any, count: int, rng: random.Random,
                 belief: Belief | None = None) -> None:
        self.game = game
        self.observation = observation
        self.count = count
        self.rng = rng
        self.belief = belief
        self.sampled: list[World] = []
        if belief is not None:
            states = [game.determinize(observation, rng) for _ in range(count)]
            logs = [log_likelihood(game, state, observation.seat, belief) for state in states]
            top = max(logs)
            self.sampled = [World(state, math.exp(log - top)) for state, log in zip(states, logs, strict=True)]

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> World:
        while len(self.sampled) <= index:
            self.sampled.append(World(self.game.determinize(self.observation, self.rng), 1.0))
        return self.sampled[index]

    def draw(self, iteration: int, rng: random.Random) -> World:
        """The world of one ISMCTS iteration: the next in turn, or under a belief one drawn by weight."""
        if self.belief is None:
            return self[iteration % self.count]
        return rng.choices(self.sampled, weights=[world.weight for world in self.sampled])[0]


def log_likelihood(game: Game, world: State, observer: int, belief: Belief) -> float:
    """Log-probability, under ``belief``, of the other seats' last ``belief.decisions`` decisions in ``world``."""
    record = world.to_record()
    replay = game.opening_state(record)
    actions = record["actions"]
    others = [index for index, (seat, _) in enumerate(actions) if seat != observer]
    scored = set(others[len(others) - belief.decisions:]) if belief.decisions < len(others) else set(others)
    total = 0.0
    for index, (seat, value) in enumerate(actions):
        action = replay.action_from_json(value)
        if index in scored:
            legal = replay.legal_actions()
            if len(legal) > 1:
                total += log_probability(belief.agents[seat].explain(replay.observation(seat), legal), action,
                                         belief.temperature)
        replay.apply(action, seat=seat)
    return total
