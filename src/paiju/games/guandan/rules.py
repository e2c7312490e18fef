"""The GuanDan ruleset: the DanZero paper's rules by default, the competition platform's variants as options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from paiju.core.errors import CardError, PaijuError
from paiju.core.ruleset import Ruleset
from paiju.games.guandan.cards import level_name, parse_level


@dataclass(frozen=True, slots=True)
class GuanDanRules(Ruleset):
    """A GuanDan ruleset (``shared/specs/guandan.md``, "A round").

    The default is the DanZero paper's game: rounds until a team wins at A, a team at A winning with its
    partner 2nd or 3rd, no limit on attempts at A.
    """

    game_label: ClassVar[str] = "GuanDan"

    rounds: int | None = None
    """``None``: play rounds until a team wins the game at A (a DanZero "episode"); ``N``: stop after N rounds
    (or earlier, when a team wins at A), scoring the sum of the round results (quick comparisons)."""
    start_level: str = "2"
    """Both teams' level, and the level of the first round, at the start (``"2"`` .. ``"A"``)."""
    a_attempts: int | None = None
    """Platform variant: a team at A that fails this many rounds played at A drops to level 2 (the platform
    uses 2, the Jiangsu rules 3); ``None``: no limit (paper)."""
    strict_a: bool = False
    """Platform variant: winning at A needs 1st and 2nd; the paper also accepts 1st and 3rd."""

    def __post_init__(self) -> None:
        if self.rounds is not None and (isinstance(self.rounds, bool) or not isinstance(self.rounds, int)
                                        or self.rounds < 1):
            raise PaijuError(f"GuanDan rounds must be a positive number of rounds or null, got {self.rounds!r}")
        if self.a_attempts is not None and (isinstance(self.a_attempts, bool) or not isinstance(self.a_attempts, int)
                                            or self.a_attempts < 1):
            raise PaijuError(f"GuanDan a_attempts must be a positive number of rounds or null, got {self.a_attempts!r}")
        if not isinstance(self.strict_a, bool):
            raise PaijuError(f"GuanDan strict_a must be true or false, got {self.strict_a!r}")
        try:
            canonical = level_name(parse_level(self.start_level))
        except CardError as error:
            raise PaijuError(f"GuanDan start_level: {error}") from None
        object.__setattr__(self, "start_level", canonical)

    @property
    def start_rank(self) -> int:
        """``start_level`` as a rank index (0 for ``"2"`` .. 12 for ``"A"``)."""
        return parse_level(self.start_level)
