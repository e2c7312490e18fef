"""The Gongzhu ruleset: the ScrofaZero paper's rules (no passing, no hearts-broken rule, no exposing)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from paiju.core.errors import PaijuError


@dataclass(frozen=True, slots=True)
class GongzhuRules:
    """A Gongzhu ruleset (``shared/specs/gongzhu.md``)."""

    first_leader: int = 0
    """Seat that leads the first trick (game 0 of a series: seat 0; the caller moves it one seat per game)."""

    def __post_init__(self) -> None:
        if isinstance(self.first_leader, bool) or self.first_leader not in (0, 1, 2, 3):
            raise PaijuError(f"Gongzhu first_leader must be a seat 0-3, got {self.first_leader!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> GongzhuRules:
        """Parse a ruleset, naming any unknown or ill-typed option."""
        if not isinstance(value, dict):
            raise PaijuError(f"Gongzhu rules must be a JSON object, got {value!r}")
        known = [f.name for f in fields(cls)]
        for key, option in value.items():
            if key not in known:
                raise PaijuError(f"unknown Gongzhu rule option {key!r}; known: {', '.join(known)}")
            if not isinstance(option, int) or isinstance(option, bool):
                raise PaijuError(f"Gongzhu rule option {key!r} must be an integer, got {option!r}")
        return cls(**value)
