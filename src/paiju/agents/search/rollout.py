"""Simulations: a world played to the end of its deal by the rollout policy at every seat, scored for one seat;
or, with a leaf evaluator, played for a few moves and scored by a value network where it stops."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.agents.search.profiles import DealValue, ExactValue, StateSize
from paiju.core.agent import Agent
from paiju.core.game import State


@dataclass(frozen=True, slots=True)
class Leaf:
    """Scores the states where simulations stop early: at the searching seat's first turn after at least ``depth``
    moves, its own agent (a value network begun at its seat) rates the legal actions, and the state's value is the
    best rating (the greedy policy's value, ``max_a Q(s, a)``, as in DMC). Only the searching seat's own turns are
    scored: a network's values are consistent from its own seat (its ranking of its own actions is what it was
    trained on), much less across the seats' different views. States outside ``phases`` are not scored."""

    agent: Agent
    depth: int
    """Moves a simulation plays after the candidate before its state may be scored."""
    phases: tuple[str, ...]

    def value(self, state: State, observer: int) -> float | None:
        """The observer's value of ``state`` when it is the observer's turn in a scored phase, else ``None`` (the
        simulation plays on)."""
        if state.current_player != observer or state.phase not in self.phases:
            return None
        return max(entry.score for entry in self.agent.explain(state.observation(observer), state.legal_actions()))


class Rollout:
    """Plays states out with ``agents[seat]`` at each seat (made once per search and reused by every
    simulation) and scores them for ``observer``; with an ``exact`` solver, the first state of a simulation
    whose ``size`` is at most ``cards`` is scored by the solver instead, unless it gives up (the simulation is
    then played out, the solver not asked again)."""

    def __init__(self, agents: Sequence[Agent], observer: int, deal_value: DealValue | None,
                 exact: ExactValue | None = None, size: StateSize | None = None, cards: int = 0,
                 leaf: Leaf | None = None) -> None:
        self.agents = agents
        self.leaf = leaf
        self.observer = observer
        self.deal_value = deal_value
        self.exact = exact if cards > 0 and size is not None else None
        self.size = size
        self.cards = cards

    def play_out(self, state: State, deal: int) -> float:
        """Play ``state`` (changed in place) until the game or deal ``deal`` ends, or until the leaf evaluator scores
        it; its value for the observer."""
        agents, exact, leaf = self.agents, self.exact, self.leaf
        moves = 0
        while not ended(state, deal):
            if exact is not None and self.size(state) <= self.cards:  # type: ignore[misc]
                value = exact(state, self.observer)
                if value is not None:
                    return value
                exact = None
            if leaf is not None and moves >= leaf.depth:
                value = leaf.value(state, self.observer)
                if value is not None:
                    return value
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) == 1 else agents[seat].act(state.observation(seat), legal))
            moves += 1
        return self.value(state)

    def value(self, state: State) -> float:
        """The observer's value of a state whose deal is over: the game's payoff, or the profile's deal value."""
        if self.deal_value is not None:
            return self.deal_value(state, self.observer)
        return state.payoffs()[self.observer]


def ended(state: State, deal: int) -> bool:
    """Whether the game is over or has moved past deal ``deal``."""
    return state.is_terminal() or state.deal_number != deal
