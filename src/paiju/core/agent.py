"""The ``Agent`` interface: given what its seat sees and the legal actions, choose one.

An agent only ever receives its own seat's observation. ``explain`` is optional: agents that can score
candidates return them best first (the web table's AI panel and ``hint`` use it).

The one exception is asked for by name: a ``PerfectInformationAgent`` is an analysis player that sees every
hand. ``paiju.core.match.play_game`` hands it a copy of the full state (``act_perfect``) so that evaluations can
measure it as an upper bound; it cannot play from an observation, and whatever seats agents for people or other
programs (the arena, the agent bridge) refuses it with ``require_observing``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import PaijuError
from paiju.core.game import JSON, Action, State


@dataclass(frozen=True, slots=True)
class ScoredAction:
    """A candidate action with the agent's value for it (higher is better)."""

    action: Action
    score: float


class Agent(ABC):
    """A player. ``act`` must return an element of ``legal``."""

    name: str = "agent"
    score_scale: str = "1 for the move the agent chooses, 0 for the others"
    """What ``explain``'s scores mean, in one line (the arena's AI panel shows it beside them)."""

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:  # noqa: B027
        """A new game (or GuanDan round) starts, with this agent at ``seat``."""

    @abstractmethod
    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` given ``observation``."""

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """Scored candidates, best first; agents without values rank their choice first."""
        choice = self.act(observation, legal)
        return [ScoredAction(choice, 1.0)] + [ScoredAction(a, 0.0) for a in legal if a != choice]

    def searched(self) -> list[ScoredAction] | None:
        """The candidates the last ``act`` weighed by search, each with its value (on ``scale``), the chosen one
        first; ``None`` when that move did not come from a search. Corpora keep them as soft targets for learners
        (``paiju.records.annotations``)."""
        return None

    def scale(self, observation: Any) -> str:
        """``score_scale`` for the decision at ``observation`` (agents that hand some phases to another agent
        say that agent's scale there)."""
        return self.score_scale

    def finish(self, result: dict[str, JSON]) -> None:  # noqa: B027
        """The game is over; ``result`` holds the payoffs by seat."""

    def close(self) -> None:  # noqa: B027
        """Release resources (processes, files). Called once, when the agent is no longer needed."""


class PerfectInformationAgent(Agent):
    """An analysis player that chooses from the full game state, every hand included (the module docstring).

    ``play_game`` calls ``act_perfect`` with a copy of the state; ``act`` (one seat's observation) refuses.
    """

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        raise PaijuError(f"{self.name} needs the full game state (every hand) and is for analysis only: it cannot "
                         f"play from one seat's observation; play it through paiju.core.match.play_game")

    @abstractmethod
    def act_perfect(self, state: State, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` for the seat to move in ``state`` (a copy the agent may keep or change)."""


def require_observing(agent: Agent, where: str) -> Agent:
    """``agent``, unless it is a ``PerfectInformationAgent``: that one is closed and ``PaijuError`` raised, since
    ``where`` (e.g. "the arena") must never seat a player that sees the hidden hands."""
    if isinstance(agent, PerfectInformationAgent):
        agent.close()
        raise PaijuError(f"{agent.name} sees every hand (a perfect-information analysis player) and cannot play "
                         f"in {where}")
    return agent
