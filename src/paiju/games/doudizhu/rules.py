"""DouDizhu rulesets: the standard combinations and scoring, with each public engine's variant an option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.core.errors import PaijuError
from paiju.core.ruleset import Ruleset

Mode = Literal["research", "full"]
_LAIZI_OPTIONS = ("laizi", "wild_ranks", "bomb_multipliers")
PRESETS: dict[str, dict[str, Any]] = {"classic": {}, "laizi": {"laizi": True},
                                      "tiandi": {"laizi": True, "wild_ranks": 2}}
"""Named rulesets: the classic game, 癞子 (one wild rank), 天地癞子 (two)."""


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

    laizi: bool = False
    """癞子 (wild-card) DouDizhu (``wild``): one rank drawn from the deal's seed is wild once the landlord is known."""
    wild_ranks: int = 1
    """癞子 only: how many distinct wild ranks are drawn (2: 天地癞子)."""
    bomb_multipliers: tuple[int, ...] = (2, 2, 2)
    """癞子 only: the factor a soft bomb, a hard bomb and a wild bomb multiply the score by (the rocket: 2)."""

    def __post_init__(self) -> None:
        if self.mode not in ("research", "full"):
            raise PaijuError(f"unknown DouDizhu mode {self.mode!r}; use 'research' or 'full'")
        if self.redeal_limit is not None and (isinstance(self.redeal_limit, bool) or self.redeal_limit < 0):
            raise PaijuError(f"DouDizhu redeal_limit must be a number of deals (0 or more) or null, "
                             f"got {self.redeal_limit!r}")
        if self.wild_ranks not in (1, 2):
            raise PaijuError(f"DouDizhu wild_ranks must be 1 or 2, got {self.wild_ranks!r}")
        if len(self.bomb_multipliers) != 3 or any(isinstance(f, bool) or f < 1 for f in self.bomb_multipliers):
            raise PaijuError(f"DouDizhu bomb_multipliers must be three factors of 1 or more (soft, hard, wild "
                             f"bomb), got {list(self.bomb_multipliers)!r}")

    def to_json(self) -> dict[str, Any]:
        """The options; the 癞子 ones only under 癞子 rules (so the classic game's JSON is as it always was)."""
        options = Ruleset.to_json(self)
        if not self.laizi:
            for key in _LAIZI_OPTIONS:
                del options[key]
        return options

    @classmethod
    def from_text(cls, text: str | None, mode: Mode | None = None) -> DouDizhuRules:
        """Rules from a named preset (``PRESETS``: ``laizi``, ``tiandi``) or options as JSON, in ``mode`` if given."""
        import json

        text = (text or "").strip()
        try:
            options = dict(PRESETS[text]) if text in PRESETS else json.loads(text) if text else {}
        except json.JSONDecodeError as error:
            raise PaijuError(f"DouDizhu rules are a preset ({', '.join(PRESETS)}) or options as JSON, got {text!r}: "
                             f"{error}") from None
        return cls.from_json(options | ({"mode": mode} if mode else {}))

    @property
    def wild_count(self) -> int:
        """How many wild ranks a deal draws: 0 in the classic game."""
        return self.wild_ranks if self.laizi else 0
