"""Agents by name: ``make_agent("random", "doudizhu", seed=1)``.

Names: ``random`` (any game); ``rules`` (DouDizhu's and GuanDan's heuristic players); ``mr-if`` and
``mr-greed`` (Gongzhu, the ScrofaZero paper's baselines; ``mr-if:partner`` adds partner awareness,
``mr-greed:N`` samples N deals); ``ext:<command>`` (an outside program speaking the external agent protocol,
see ``paiju.agents.external``).
"""

from __future__ import annotations

from collections.abc import Callable

from paiju.core.agent import Agent
from paiju.core.errors import PaijuError

AgentFactory = Callable[[str, int], Agent]
"""Builds an agent from (the part of the name after ``:``, or "", seed)."""

_FACTORIES: dict[tuple[str, str], AgentFactory] = {}
"""(game or "*" for any game, agent name) -> factory."""


def register_agent(game: str, name: str, factory: AgentFactory) -> None:
    """Make ``name`` (``name:ARG`` too) usable wherever agents are named, for ``game`` ("*": every game)."""
    _FACTORIES[(game, name)] = factory


def agent_names(game: str) -> list[str]:
    """The agent names usable for ``game``."""
    _load_builtin_agents()
    return sorted({name for (g, name) in _FACTORIES if g in (game, "*")})


def make_agent(spec: str, game: str, seed: int = 0) -> Agent:
    """The agent named ``spec`` for ``game``; ``NAME:ARG`` passes ARG (a command, a path) to its factory."""
    _load_builtin_agents()
    name, _, argument = spec.partition(":")
    factory = _FACTORIES.get((game, name)) or _FACTORIES.get(("*", name))
    if factory is None:
        raise PaijuError(f"unknown agent {spec!r} for {game}; known: {', '.join(agent_names(game))}")
    return factory(argument, seed)


def _load_builtin_agents() -> None:
    import paiju.agents.builtin  # noqa: F401  (registers the built-in agents)


__all__ = ["Agent", "agent_names", "make_agent", "register_agent"]
