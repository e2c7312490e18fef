"""Play one game between agents: the loop every tool (evaluation, CLI, selfcheck) shares."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from paiju.core.agent import Agent, PerfectInformationAgent
from paiju.core.errors import AgentError, IllegalActionError
from paiju.core.game import Action, Game, State

ActionHook = Callable[[State, int, Action], None]
"""Called with the state, the seat and its chosen action just before the action is applied."""
DecisionHook = Callable[[int, int, float], None]
"""Called after each decision with the seat, the number of legal actions and the wall time in seconds of the
agent's ``act`` (or ``act_perfect``) call."""


def play_game(game: Game, agents: Sequence[Agent], seed: int, rules: Any = None,
              state: State | None = None, on_action: ActionHook | None = None,
              on_decision: DecisionHook | None = None) -> State:
    """Play a game dealt from ``seed`` (or continue ``state``) to the end and return the final state.

    Each agent sees only its own seat's observation, except a ``PerfectInformationAgent`` (an analysis player,
    asked for by name): it gets ``act_perfect`` with a copy of the full state, every hand included, so that an
    evaluation of it measures the double-dummy upper bound, not a fair player. An agent that returns an action
    not in ``legal`` raises ``AgentError``: nothing is ever substituted silently. Every agent's ``begin`` is
    called at the start of each deal (``State.deal_number``), its ``finish`` once at the end. ``on_action`` sees
    every action before it is applied, ``on_decision`` how long each agent took to choose it.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    state = game.new_state(seed, rules) if state is None else state
    rules_json = state.to_record()["rules"]
    started = -1
    while not state.is_terminal():
        if state.deal_number != started:
            started = state.deal_number
            for seat, agent in enumerate(agents):
                agent.begin(game.name, seat, rules_json)
        seat = state.current_player
        assert seat is not None
        agent = agents[seat]
        legal = state.legal_actions()
        if isinstance(agent, PerfectInformationAgent):
            view, choose = state.clone(), agent.act_perfect
        else:
            view, choose = state.observation(seat), agent.act
        started_at = time.perf_counter()
        action = choose(view, legal)
        if on_decision is not None:
            on_decision(seat, len(legal), time.perf_counter() - started_at)
        if on_action is not None:
            on_action(state, seat, action)
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise AgentError(agent.name, seat, f"chose an illegal action: {error}") from error
    result = state.result()
    for agent in agents:
        agent.finish(result)
    return state
