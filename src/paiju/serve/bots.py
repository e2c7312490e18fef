"""The built-in agents the arena offers: as bots at a table, and as advisers answering explain requests.

Every agent ``paiju.agents.agent_names`` lists for a game whose bare name makes an agent: not ``ext`` (an
outside program: the server never starts programs named over the network), nor an agent whose networks must be
named by a path; never a perfect-information analysis player (``make_bot`` refuses one whatever its name).
These calls block, so the server runs them in worker threads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from paiju.agents import agent_names, make_agent
from paiju.core.agent import Agent, require_observing
from paiju.core.errors import PaijuError
from paiju.core.game import Action, Game, Observation
from paiju.serve.protocol import Message

EXPLAIN_TOP = 8
"""Candidates in an explain answer."""


def offered_agents(game: str) -> list[str]:
    """Names of the built-in agents usable for ``game`` over the network, sorted."""
    return agent_names(game, bare=True)


DESCRIPTIONS = {
    "random": "a random legal move (the weakest)",
    "rules": "hand-written heuristics",
    "mr-if": "hand-written heuristics (ScrofaZero's Mr. If)",
    "mr-greed": "hand-written heuristics, strong (ScrofaZero's Mr. Greed)",
    "dmc": "learned by self-play (Deep Monte-Carlo, as DouZero and DanZero)",
    "perfectdou": "learned by PPO with a critic that saw every hand (PerfectDou), then from the search's moves; "
                  "a little above rules",
    "deeprocket": "learned from perfectdou's games, then the search's (DeepRocket's supervised CNNs); the "
                  "strongest network, above rules",
    "scrofazero": "searches sampled deals, leaves valued by its network and rollouts (ScrofaZero): strong, slower",
    "search": "searches sampled deals with rule-bot rollouts: the strongest, and slower",
    "distilled": "the search distilled into a network",
    "learned-bid": "rules play, with bids from a learned bid model",
}
"""The one-line description the lobby shows beside each agent, with a hint of its strength (BENCHMARKS.md)."""

ADVISERS = {"doudizhu": ("search", "deeprocket", "perfectdou", "dmc", "rules"), "guandan": ("search", "dmc", "rules"),
            "gongzhu": ("search", "scrofazero", "mr-greed")}
"""The agents the table's Hint asks, strongest first: the search (stronger than the policies it simulates:
BENCHMARKS.md, "Search against the rule bots"), else the best shipped network, else the rule bot."""


def adviser(game: str, offered: Sequence[str] | None = None) -> str | None:
    """The strongest offered agent of ``ADVISERS[game]`` (the first offered agent for another game); ``offered``:
    the agents to choose among (default: every one offered for ``game``)."""
    offered = offered_agents(game) if offered is None else offered
    return next((name for name in ADVISERS.get(game, ()) if name in offered), offered[0] if offered else None)


TABLE_BOTS = {"doudizhu": ("search", "perfectdou", "rules")}
"""The bot a new table's seats start with, strongest first, among the agents measured to move within a person's
patience (a median well under a second on one core, BENCHMARKS.md): DouDizhu's ``search`` beats ``rules`` by
+1.38 points a deck at 29 ms a decision. A game not listed starts with its quick rule bot (the page's choice)."""


def table_bot(game: str) -> str | None:
    """The strongest offered agent of ``TABLE_BOTS[game]``; ``None`` for a game not listed."""
    offered = offered_agents(game)
    return next((name for name in TABLE_BOTS.get(game, ()) if name in offered), None)


def make_bot(name: str, game: str, seed: int) -> Agent:
    """The offered agent ``name`` for ``game``; ``PaijuError`` naming the offered ones otherwise, and for a
    ``PerfectInformationAgent`` (it would see the hidden hands)."""
    if name not in offered_agents(game):
        raise PaijuError(f"unknown agent {name!r} for {game}; known: {', '.join(offered_agents(game))}")
    return require_observing(make_agent(name, game, seed), "the arena")


def explain_candidates(game: Game, agent_name: str, observation: Observation, legal: Sequence[Action],
                       rules: Message, seed: int) -> tuple[list[Message], str]:
    """The top ``EXPLAIN_TOP`` of agent ``agent_name``'s scored candidates among ``legal`` for the seat whose
    ``observation`` it is, best first, as ``{"action": A (JSON), "score": x}``, with what the scores mean
    (``Agent.scale``); the agent sees nothing else."""
    agent = make_bot(agent_name, game.name, seed)
    try:
        agent.begin(game.name, observation.seat, rules)
        scored = agent.explain(observation, legal)
        scale = agent.scale(observation)
    finally:
        agent.close()
    return [{"action": game.action_to_json(candidate.action), "score": _finite(candidate.score)}
            for candidate in scored[:EXPLAIN_TOP]], scale


def _finite(score: float) -> float | None:
    """JSON has no infinities or NaN: those scores are sent as null."""
    score = float(score)
    return score if math.isfinite(score) else None
