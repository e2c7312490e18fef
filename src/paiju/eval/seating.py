"""The agents at an evaluation's seats: built afresh for each game, except external programs, kept running.

An agent is built for every game with its seat's seed for that game (``make_agent(spec, game, seed)``) and
closed after it. An external agent (``ext:<command>``, ``paiju.agents.external``) is kept instead: one per
spec, game and seat in each process, whose program is started once and plays game after game — each
``start`` message carries the game's seed — so that a program slow to start costs its start once per seat
and worker, not once per game. It is restarted only after a game it played failed (its own fault, or any
error that stopped the game), since it may then be stuck in the middle of that game.

Kept agents are closed by ``close_kept_agents``: the evaluators call it when they end, and every process
(a worker too) at exit.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence
from typing import Any

from paiju.agents import make_agent
from paiju.agents.external import ExternalAgent
from paiju.core.agent import Agent
from paiju.core.game import Game, State
from paiju.core.match import DecisionHook, play_game

_kept: dict[tuple[str, str, int], ExternalAgent] = {}
"""This process's kept external agents, by (spec, game, seat)."""


def seat_agent(spec: str, game: str, seat: int, seed: int) -> Agent:
    """The agent ``spec`` for ``seat`` of a new ``game`` with ``seed``: a new one, or the kept external agent."""
    kept = _kept.get((spec, game, seat))
    if kept is not None:
        kept.seed = seed
        return kept
    agent = make_agent(spec, game, seed)
    if isinstance(agent, ExternalAgent):
        _kept[(spec, game, seat)] = agent
    return agent


def play_seated(game: Game, specs: Sequence[str], seeds: Sequence[int], deal_seed: int, rules: Any = None,
                state: State | None = None, on_decision: DecisionHook | None = None) -> State:
    """``play_game`` with ``seat_agent(specs[s], game, s, seeds[s])`` at each seat s; the new agents are closed
    after the game, the kept ones only when the game fails."""
    agents = [seat_agent(spec, game.name, seat, seed)
              for seat, (spec, seed) in enumerate(zip(specs, seeds, strict=True))]
    failed = True
    try:
        state = play_game(game, agents, deal_seed, rules, state=state, on_decision=on_decision)
        failed = False
    finally:
        for agent in agents:
            if failed or not isinstance(agent, ExternalAgent):
                agent.close()
    return state


def close_kept_agents() -> None:
    """Stop every kept external agent of this process."""
    while _kept:
        _kept.popitem()[1].close()


atexit.register(close_kept_agents)
