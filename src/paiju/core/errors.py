"""Errors raised by paiju. Each message names exactly what was wrong."""

from __future__ import annotations


class PaijuError(Exception):
    """Base class of every error paiju raises on purpose."""


class CardError(PaijuError, ValueError):
    """Malformed card text: an unknown card, too many copies of a card, a bad separator."""


class IllegalActionError(PaijuError, ValueError):
    """An action that is not legal in the current state (wrong phase, not held, does not beat, out of turn).

    Raising it never changes the state the action was applied to.
    """


class RecordError(PaijuError, ValueError):
    """A game record that cannot be read or does not replay legally."""


class AgentError(PaijuError):
    """An agent failed: it crashed, answered late, answered garbage, or chose an action not in ``legal``.

    It pickles with its agent, seat and problem, so it reaches the parent of a worker process whole.
    """

    def __init__(self, agent: str, seat: int, problem: str) -> None:
        super().__init__(f"agent {agent!r} at seat {seat}: {problem}")
        self.agent = agent
        self.seat = seat
        self.problem = problem

    def __reduce__(self) -> tuple[type[AgentError], tuple[str, int, str]]:
        return type(self), (self.agent, self.seat, self.problem)
