"""Reading a protocol ``obs`` object back (``Game.observation_from_json``): fields parsed one by one, each
error naming the game and the field (``doudizhu obs field 'history': entry 3: ...``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from paiju.core.errors import PaijuError

T = TypeVar("T")


class ObsReader:
    """The fields of one ``obs`` object of ``game``, read by parsers that raise ``PaijuError``, ``TypeError``
    or ``ValueError``; every failure becomes a ``PaijuError`` naming the field."""

    def __init__(self, game: str, obs: Any) -> None:
        if not isinstance(obs, dict):
            raise PaijuError(f"a {game} obs is a JSON object, got {obs!r:.80}")
        self.game = game
        self.obs = obs

    def field(self, name: str, parse: Callable[[Any], T]) -> T:
        """``parse(obs[name])``."""
        if name not in self.obs:
            raise PaijuError(f"{self.game} obs has no field {name!r}")
        try:
            return parse(self.obs[name])
        except (PaijuError, TypeError, ValueError) as error:
            raise self.error(name, str(error)) from None

    def error(self, name: str, problem: str) -> PaijuError:
        """The error for field ``name`` (also for problems found across fields)."""
        return PaijuError(f"{self.game} obs field {name!r}: {problem}")


def check_decision(game: str, seat: Any, phase: Any, players: int, phases: Sequence[str]) -> None:
    """Raise ``PaijuError`` unless ``seat`` is a seat of ``game`` and ``phase`` one of its ``phases``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise PaijuError(f"a {game} seat is 0-{players - 1}, got {seat!r}")
    if phase not in phases:
        raise PaijuError(f"unknown {game} phase {phase!r}; phases: {', '.join(phases)}")


def integer(value: Any, low: int = 0, high: int | None = None) -> int:
    """A JSON integer in ``low..high`` (``true`` is not ``1``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {value!r:.80}")
    if value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"in {low}..{high}"
        raise ValueError(f"expected an integer {bounds}, got {value}")
    return value


def seat_reader(players: int) -> Callable[[Any], int]:
    """A parser of seat numbers ``0..players-1``."""
    return lambda value: integer(value, 0, players - 1)


def entries(value: Any, parse: Callable[[Any], T], length: int | None = None) -> tuple[T, ...]:
    """A JSON list (of ``length`` items when given), each item parsed; errors name the entry."""
    if not isinstance(value, list):
        raise ValueError(f"expected a list, got {value!r:.80}")
    if length is not None and len(value) != length:
        raise ValueError(f"expected {length} entries, got {len(value)}")
    parsed = []
    for index, item in enumerate(value):
        try:
            parsed.append(parse(item))
        except (PaijuError, TypeError, ValueError) as error:
            raise ValueError(f"entry {index}: {error}") from None
    return tuple(parsed)


def pair(value: Any, first: Callable[[Any], Any], second: Callable[[Any], Any]) -> tuple[Any, Any]:
    """A two-item JSON list ``[a, b]``, each item parsed."""
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"expected a pair [a, b], got {value!r:.80}")
    return first(value[0]), second(value[1])


def optional(parse: Callable[[Any], T]) -> Callable[[Any], T | None]:
    """``parse``, with ``null`` read as ``None``."""
    return lambda value: None if value is None else parse(value)
