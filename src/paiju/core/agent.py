"""The ``Agent`` interface: given what its seat sees and the legal actions, choose one.

An agent only ever receives its own seat's observation. ``explain`` is optional: agents that can score
candidates return them best first (the web table's AI panel and ``hint`` use it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.core.game import JSON, Action


@dataclass(frozen=True, slots=True)
class ScoredAction:
    """A candidate action with the agent's value for it (higher is better)."""

    action: Action
    score: float


class Agent(ABC):
    """A player. ``act`` must return an element of ``legal``."""

    name: str = "agent"

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:  # noqa: B027
        """A new game (or GuanDan round) starts, with this agent at ``seat``."""

    @abstractmethod
    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` given ``observation``."""

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """Scored candidates, best first; agents without values rank their choice first."""
        choice = self.act(observation, legal)
        return [ScoredAction(choice, 1.0)] + [ScoredAction(a, 0.0) for a in legal if a != choice]

    def finish(self, result: dict[str, JSON]) -> None:  # noqa: B027
        """The game is over; ``result`` holds the payoffs by seat."""

    def close(self) -> None:  # noqa: B027
        """Release resources (processes, files). Called once, when the agent is no longer needed."""
