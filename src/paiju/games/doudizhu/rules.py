"""DouDizhu rulesets: the standard combinations and scoring, with each public engine's variant an option."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from paiju.core.errors import PaijuError

Mode = Literal["research", "full"]


@dataclass(frozen=True, slots=True)
class DouDizhuRules:
    """A DouDizhu ruleset.

    ``mode="research"`` (DouZero / PerfectDou evaluation): no bidding, seat 0 is the landlord; landlord
    +-2, each peasant +-1, doubled per bomb or rocket. ``mode="full"``: bidding 0-3 from a seeded first
    bidder, a new deal when all pass, base score = the winning bid, doubled per bomb, rocket, spring and
    anti-spring; the landlord wins or loses twice the score, each peasant once.
    """

    mode: Mode = "research"
    rocket_as_kickers: bool = False
    """DouZero's variant: both jokers may be the two kickers of a four or plane."""
    bomb_as_kickers: bool = False
    """DouZero's variant: four equal cards may be kickers of a plane (or two pairs of a four)."""
    no_four_with_two: bool = False
    """OpenSpiel's variant: four-with-two-solos and four-with-two-pairs do not exist."""

    def __post_init__(self) -> None:
        if self.mode not in ("research", "full"):
            raise PaijuError(f"unknown DouDizhu mode {self.mode!r}; use 'research' or 'full'")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> DouDizhuRules:
        """Parse a ruleset, naming any unknown or ill-typed option."""
        if not isinstance(value, dict):
            raise PaijuError(f"DouDizhu rules must be a JSON object, got {value!r}")
        known = {f.name: f for f in fields(cls)}
        for key, option in value.items():
            if key not in known:
                raise PaijuError(f"unknown DouDizhu rule option {key!r}; known: {', '.join(known)}")
            expected = str if key == "mode" else bool
            if not isinstance(option, expected):
                raise PaijuError(f"DouDizhu rule option {key!r} must be {expected.__name__}, got {option!r}")
        return cls(**value)
