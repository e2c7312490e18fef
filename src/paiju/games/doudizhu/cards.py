"""DouDizhu cards and notation.

Suits do not matter, so a set of cards is a vector of 15 counts, one per rank, low to high:
``3 4 5 6 7 8 9 T J Q K A 2 B R`` (``B`` the small/black joker, ``R`` the big/red joker, as DouZero and
PerfectDou write them). Index 0 is the 3, index 12 the 2, 13 and 14 the jokers.

For speed the engine also packs counts into one integer, 4 bits per rank ("packed" form): containment
of one set in another is then two integer operations (see ``contains``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from paiju.core.errors import CardError

RANKS = "3456789TJQKA2BR"
NUM_RANKS = 15
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14
RANK_INDEX = {letter: index for index, letter in enumerate(RANKS)}
MAX_COPIES = (4,) * 13 + (1, 1)
FULL_DECK: tuple[int, ...] = MAX_COPIES

_GUARD = sum(8 << (4 * r) for r in range(NUM_RANKS))  # bit 3 of every 4-bit field


def parse_cards(text: str) -> list[int]:
    """Counts from rank letters in any order (``"33B5"``); ``""`` is no cards.

    >>> parse_cards("3R3")[:2], parse_cards("3R3")[14]
    ([2, 0], 1)
    """
    if not isinstance(text, str):
        raise CardError(f"cards must be a string of rank letters, got {type(text).__name__}")
    counts = [0] * NUM_RANKS
    for letter in text:
        index = RANK_INDEX.get(letter.upper())
        if index is None:
            raise CardError(f"unknown card {letter!r} in {text!r}; cards are {RANKS} (B/R = small/big joker)")
        counts[index] += 1
        if counts[index] > MAX_COPIES[index]:
            raise CardError(f"too many {RANKS[index]} in {text!r}: a deck has {MAX_COPIES[index]}")
    return counts


def format_cards(counts: Sequence[int]) -> str:
    """Rank letters sorted low to high (``"3345B"``)."""
    return "".join(RANKS[r] * n for r, n in enumerate(counts) if n)


def pack(counts: Sequence[int]) -> int:
    """The packed form: count of rank ``r`` in bits ``4r .. 4r+3``."""
    packed = 0
    for rank, count in enumerate(counts):
        packed |= count << (4 * rank)
    return packed


def unpack(packed: int) -> list[int]:
    """Counts from the packed form."""
    return [(packed >> (4 * r)) & 15 for r in range(NUM_RANKS)]


def contains(hand: int, cards: int) -> bool:
    """Whether packed ``hand`` holds every card of packed ``cards``.

    Each field of ``hand + guard`` is 8 + count; subtracting ``cards`` clears bit 3 of a field exactly
    when that rank is missing, and never borrows across fields (counts are at most 4).
    """
    return ((hand | _GUARD) - cards) & _GUARD == _GUARD


def add(counts: Sequence[int], other: Sequence[int]) -> list[int]:
    """Union of two multisets of cards."""
    return [a + b for a, b in zip(counts, other, strict=True)]


def subtract(counts: Sequence[int], other: Sequence[int]) -> list[int]:
    """``counts`` minus ``other``; raises ``CardError`` if ``other`` is not contained in ``counts``."""
    result = [a - b for a, b in zip(counts, other, strict=True)]
    if min(result) < 0:
        missing = format_cards([max(0, -n) for n in result])
        raise CardError(f"cards {missing} are not in {format_cards(counts)!r}")
    return result


def total(counts: Iterable[int]) -> int:
    """Number of cards."""
    return sum(counts)
