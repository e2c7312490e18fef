"""The Gongzhu ruleset: the ScrofaZero paper's rules (no passing, no hearts-broken rule, no exposing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.core.errors import PaijuError
from paiju.core.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class GongzhuRules(Ruleset):
    """A Gongzhu ruleset (``shared/specs/gongzhu.md``)."""

    game_label: ClassVar[str] = "Gongzhu"

    first_leader: int = 0
    """Seat that leads the first trick (game 0 of a series: seat 0; the caller moves it one seat per game)."""

    def __post_init__(self) -> None:
        if isinstance(self.first_leader, bool) or self.first_leader not in (0, 1, 2, 3):
            raise PaijuError(f"Gongzhu first_leader must be a seat 0-3, got {self.first_leader!r}")
