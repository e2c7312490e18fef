"""Levels, promotion and winning at A: how one round's finishing order moves the game on (spec "A round").

Teams: team 0 is seats 0 and 2, team 1 is seats 1 and 3 (``team(seat) = seat % 2``).

- **Promotion**: the team of the 1st player goes up 3 levels if the partner finished 2nd, 2 if 3rd, 1 if
  4th; levels stop at A. That team's result for the round is +3 / +2 / +1 and the other team's the negative
  (DanZero's round reward).
- **The next round** is played at the (new) level of the team that won this round.
- **Winning at A**: a team at A wins the game by finishing 1st with the partner 2nd or 3rd (``strict_a``:
  2nd only) in a round played at A. A round played at A is one where the previous round's winners are at A
  (both teams may be); a team at A that wins a round played at the other team's level only stays at A, and
  the next round is played at A. (Paper §III: "At the round with level A, a camp can only win when the
  Banker's partner is the Follower or the Third".)
- **Attempts at A**: each round played at A that does not end the game counts as a failed attempt for every
  team at A (``Standing.a_failures``); with ``a_attempts`` set, a team drops to level 2 after that many
  failures and its count restarts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from paiju.core.errors import PaijuError
from paiju.games.guandan.cards import level_name, parse_level
from paiju.games.guandan.rules import GuanDanRules

ACE = 12
LOWEST = 0
"""Level 2, where a team that failed its attempts at A restarts."""
PROMOTION = (0, 3, 2, 1)
"""Levels gained by the 1st player's team, by the place (0-based) where the partner finished."""


def team(seat: int) -> int:
    """The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat & 1


@dataclass(frozen=True, slots=True)
class Standing:
    """The game between rounds: everything that carries over from one round to the next, all of it public.

    ``levels``, ``a_failures`` and ``team_scores`` are indexed by team (``team``); ``level`` is the level
    this round is played at; ``previous_order`` the previous round's finishing order (all four seats, ``()``
    before the first round); ``first_leader`` the seat that leads the first round (chosen by the seed; later
    rounds' leaders follow from the tribute).
    """

    round_number: int
    levels: tuple[int, int]
    level: int
    a_failures: tuple[int, int] = (0, 0)
    team_scores: tuple[int, int] = (0, 0)
    previous_order: tuple[int, ...] = ()
    first_leader: int = 0

    @classmethod
    def opening(cls, rules: GuanDanRules, first_leader: int) -> Standing:
        """The first round: both teams and the round at ``rules.start_level``."""
        start = rules.start_rank
        return cls(round_number=0, levels=(start, start), level=start, first_leader=first_leader)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round_number, "levels": [level_name(level) for level in self.levels],
                "level": level_name(self.level), "a_failures": list(self.a_failures),
                "team_scores": list(self.team_scores), "previous_order": list(self.previous_order),
                "first_leader": self.first_leader}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Standing:
        """Parse a standing, raising ``PaijuError`` for anything malformed."""
        try:
            standing = cls(
                round_number=_count(value["round"]), levels=_pair(value["levels"], parse_level),
                level=parse_level(value["level"]), a_failures=_pair(value["a_failures"], _count),
                team_scores=_pair(value["team_scores"], _integer),
                previous_order=tuple(_seat(seat) for seat in value["previous_order"]),
                first_leader=_seat(value["first_leader"]))
        except (KeyError, TypeError, ValueError, PaijuError) as error:
            raise PaijuError(f"bad GuanDan standing {value!r:.120}: {error}") from None
        if standing.previous_order and sorted(standing.previous_order) != [0, 1, 2, 3]:
            raise PaijuError(f"a previous finishing order lists the four seats once each, got {value!r:.120}")
        return standing


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PaijuError(f"expected an integer, got {value!r}")
    return value


def _count(value: Any) -> int:
    if _integer(value) < 0:
        raise PaijuError(f"expected a count >= 0, got {value!r}")
    return value


def _seat(value: Any) -> int:
    if _integer(value) not in (0, 1, 2, 3):
        raise PaijuError(f"expected a seat 0-3, got {value!r}")
    return value


def _pair(value: Any, parse: Any) -> tuple[Any, Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise PaijuError(f"expected one value per team, got {value!r}")
    return parse(value[0]), parse(value[1])


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """How a round ended: the finishing ``order`` (four seats), the winning team, the levels it gained, the
    round's result for each team, whether the game is over and who won it, and the standing that follows."""

    order: tuple[int, ...]
    winners: int
    promotion: int
    scores: tuple[int, int]
    game_winner: int | None
    game_over: bool
    after: Standing


def settle(standing: Standing, order: tuple[int, ...], rules: GuanDanRules) -> RoundOutcome:
    """The outcome of the round played at ``standing`` that finished in ``order`` (see the module)."""
    winners = team(order[0])
    place = order.index(order[0] ^ 2)
    promotion = PROMOTION[place]
    scores = (promotion, -promotion) if winners == 0 else (-promotion, promotion)
    team_scores = (standing.team_scores[0] + scores[0], standing.team_scores[1] + scores[1])
    at_a = standing.level == ACE
    won_at_a = at_a and standing.levels[winners] == ACE and place <= (1 if rules.strict_a else 2)
    levels = list(standing.levels)
    levels[winners] = min(ACE, levels[winners] + promotion)
    failures = list(standing.a_failures)
    if at_a and not won_at_a:
        for side in (0, 1):
            if standing.levels[side] == ACE:
                failures[side] += 1
                if rules.a_attempts is not None and failures[side] >= rules.a_attempts:
                    levels[side], failures[side] = LOWEST, 0
    next_round = standing.round_number + 1
    after = replace(standing, round_number=next_round, levels=(levels[0], levels[1]), level=levels[winners],
                    a_failures=(failures[0], failures[1]), team_scores=team_scores, previous_order=tuple(order))
    game_over = won_at_a or (rules.rounds is not None and next_round >= rules.rounds)
    return RoundOutcome(order=tuple(order), winners=winners, promotion=promotion, scores=scores,
                        game_winner=winners if won_at_a else None, game_over=game_over, after=after)
