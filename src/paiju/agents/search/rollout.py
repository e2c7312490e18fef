"""Simulations: a world played to the end of its deal by the rollout policy at every seat, scored for one seat."""

from __future__ import annotations

from collections.abc import Sequence

from paiju.agents.search.profiles import DealValue, ExactValue, StateSize
from paiju.core.agent import Agent
from paiju.core.game import State


class Rollout:
    """Plays states out with ``agents[seat]`` at each seat (made once per search and reused by every
    simulation) and scores them for ``observer``; with an ``exact`` solver, the first state of a simulation
    whose ``size`` is at most ``cards`` is scored by the solver instead, unless it gives up (the simulation is
    then played out, the solver not asked again)."""

    def __init__(self, agents: Sequence[Agent], observer: int, deal_value: DealValue | None,
                 exact: ExactValue | None = None, size: StateSize | None = None, cards: int = 0) -> None:
        self.agents = agents
        self.observer = observer
        self.deal_value = deal_value
        self.exact = exact if cards > 0 and size is not None else None
        self.size = size
        self.cards = cards

    def play_out(self, state: State, deal: int) -> float:
        """Play ``state`` (changed in place) until the game or deal ``deal`` ends; its value for the observer."""
        agents, exact = self.agents, self.exact
        while not ended(state, deal):
            if exact is not None and self.size(state) <= self.cards:  # type: ignore[misc]
                value = exact(state, self.observer)
                if value is not None:
                    return value
                exact = None
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            state.apply(legal[0] if len(legal) == 1 else agents[seat].act(state.observation(seat), legal))
        return self.value(state)

    def value(self, state: State) -> float:
        """The observer's value of a state whose deal is over: the game's payoff, or the profile's deal value."""
        if self.deal_value is not None:
            return self.deal_value(state, self.observer)
        return state.payoffs()[self.observer]


def ended(state: State, deal: int) -> bool:
    """Whether the game is over or has moved past deal ``deal``."""
    return state.is_terminal() or state.deal_number != deal
