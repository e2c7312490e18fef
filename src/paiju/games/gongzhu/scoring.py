"""Gongzhu scoring (``shared/specs/gongzhu.md``; ScrofaZero paper §2, Table 1).

A player scores the scoring cards they collected: hearts H2-H4 0, H5-H10 -10 each, HJ -20, HQ -30, HK -40,
HA -50 (all 13 hearts: +200 instead of -200, "all hearts"); SQ (the pig) -100; DJ (the sheep) +100; C10 (the
transformer) doubles the total when any other scoring card was collected (zero-point H2-H4 included) and is
+50 alone. Partners sit opposite (seats 0+2 against 1+3); a team scores the sum of its two players, and its
result is its score minus the other team's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paiju.core.errors import CardError
from paiju.games.gongzhu.cards import CARD_INDEX, SUIT_BITS, SUIT_MASKS, cards_of, parse_card

PIG, SHEEP, TRANSFORMER = "SQ", "DJ", "C10"
HEART_POINTS = {"2": 0, "3": 0, "4": 0, "5": -10, "6": -10, "7": -10, "8": -10, "9": -10, "10": -10,
                "J": -20, "Q": -30, "K": -40, "A": -50}
"""Points of each heart by rank (all 13 sum to -200)."""
ALL_HEARTS_POINTS = 200

_PIG_BIT = 1 << CARD_INDEX[PIG]
_SHEEP_BIT = 1 << CARD_INDEX[SHEEP]
_TRANSFORMER_BIT = 1 << CARD_INDEX[TRANSFORMER]
_HEARTS = 1
SCORING_MASK = SUIT_MASKS[_HEARTS] | _PIG_BIT | _SHEEP_BIT | _TRANSFORMER_BIT
"""Mask of the 16 scoring cards: the hearts, SQ, DJ and C10."""
SCORING_CARDS: tuple[str, ...] = cards_of(SCORING_MASK)
_DOUBLED_BY_TRANSFORMER = SCORING_MASK & ~_TRANSFORMER_BIT


def _heart_totals() -> list[int]:
    """Points of every subset of the hearts (by its 13 rank bits), all 13 counting +200."""
    points = list(HEART_POINTS.values())
    totals = [0] * (SUIT_BITS + 1)
    for bits in range(1, SUIT_BITS + 1):
        low = (bits & -bits).bit_length() - 1
        totals[bits] = totals[bits & (bits - 1)] + points[low]
    totals[SUIT_BITS] = ALL_HEARTS_POINTS
    return totals


_HEART_TOTALS = _heart_totals()


def mask_score(taken: int) -> int:
    """A player's score from the mask of the cards they collected (non-scoring cards are ignored)."""
    total = _HEART_TOTALS[(taken >> 13) & SUIT_BITS]
    if taken & _PIG_BIT:
        total -= 100
    if taken & _SHEEP_BIT:
        total += 100
    if taken & _TRANSFORMER_BIT:
        return 2 * total if taken & _DOUBLED_BY_TRANSFORMER else 50
    return total


def player_score(cards_taken: Iterable[str]) -> int:
    """A player's score from the names of the cards they collected (non-scoring cards are ignored).

    >>> player_score(["SQ", "C10"]), player_score(["C10", "H2"]), player_score(["C10"])
    (-200, 0, 50)
    """
    mask = 0
    for card in cards_taken:
        bit = 1 << CARD_INDEX[parse_card(card)]
        if mask & bit:
            raise CardError(f"{card!r} is counted twice: a deck holds one of each card")
        mask |= bit
    return mask_score(mask)


def team_scores(scores: Sequence[int]) -> tuple[int, int]:
    """The scores of team 0 (seats 0 and 2) and team 1 (seats 1 and 3) from the four players' scores."""
    return scores[0] + scores[2], scores[1] + scores[3]


def seat_results(scores: Sequence[int]) -> list[int]:
    """Each seat's result: its team's score minus the other team's (the four results sum to zero)."""
    ours, theirs = team_scores(scores)
    return [ours - theirs, theirs - ours, ours - theirs, theirs - ours]
