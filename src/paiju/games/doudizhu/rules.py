"""DouDizhu rulesets: the standard combinations and scoring, with each public engine's variant an option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from paiju.core.errors import PaijuError
from paiju.core.ruleset import Ruleset

Mode = Literal["research", "full"]


@dataclass(frozen=True, slots=True)
class DouDizhuRules(Ruleset):
    """A DouDizhu ruleset.

    ``mode="research"`` (DouZero / PerfectDou evaluation): no bidding, seat 0 is the landlord; landlord
    +-2, each peasant +-1, doubled per bomb or rocket. ``mode="full"``: bidding 0-3 from a seeded first
    bidder, a new deal when all pass, base score = the winning bid, doubled per bomb, rocket, spring and
    anti-spring; the landlord wins or loses twice the score, each peasant once.
    """

    game_label: ClassVar[str] = "DouDizhu"

    mode: Mode = "research"
    rocket_as_kickers: bool = False
    """DouZero's variant: both jokers may be the two kickers of a four or plane."""
    bomb_as_kickers: bool = False
    """DouZero's variant: four equal cards may be kickers of a plane (or two pairs of a four)."""
    no_four_with_two: bool = False
    """OpenSpiel's variant: four-with-two-solos and four-with-two-pairs do not exist."""
    redeal_limit: int | None = None
    """Full mode: ``None`` deals again each time every seat passes, without end (the classic rule); ``N``: once
    ``N`` deals in a row were passed by all, the first bidder of the next deal everybody passes takes the
    landlord's seat at a bid of 1 (so a table cannot be kept from playing by passing)."""

    def __post_init__(self) -> None:
        if self.mode not in ("research", "full"):
            raise PaijuError(f"unknown DouDizhu mode {self.mode!r}; use 'research' or 'full'")
        if self.redeal_limit is not None and (isinstance(self.redeal_limit, bool) or self.redeal_limit < 0):
            raise PaijuError(f"DouDizhu redeal_limit must be a number of deals (0 or more) or null, "
                             f"got {self.redeal_limit!r}")
