"""Errors raised by paiju. Each message names exactly what was wrong."""


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
    """An agent failed: it crashed, answered late, answered garbage, or chose an action not in ``legal``."""

    def __init__(self, agent: str, seat: int, message: str) -> None:
        super().__init__(f"agent {agent!r} at seat {seat}: {message}")
        self.agent = agent
        self.seat = seat
