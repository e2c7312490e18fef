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
_NEEDS_ARGUMENT: set[tuple[str, str]] = set()
"""The (game, name) pairs whose bare name makes no agent (``ext`` needs a command; ``distilled`` a path when
no networks ship for the game)."""


def register_agent(game: str, name: str, factory: AgentFactory, bare: bool = True) -> None:
    """Make ``name`` (``name:ARG`` too) usable wherever agents are named, for ``game`` ("*": every game);
    ``bare=False`` when the name needs its argument to make an agent."""
    _FACTORIES[(game, name)] = factory
    if not bare:
        _NEEDS_ARGUMENT.add((game, name))


def agent_names(game: str, bare: bool = False) -> list[str]:
    """The agent names usable for ``game``; ``bare``: only those whose name alone makes an agent."""
    _load_builtin_agents()
    return sorted({name for (g, name) in _FACTORIES
                   if g in (game, "*") and not (bare and (g, name) in _NEEDS_ARGUMENT)})


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
