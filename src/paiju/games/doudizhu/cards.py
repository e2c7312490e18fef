"""DouDizhu cards and notation.

Suits do not matter, so a set of cards is a vector of 15 counts, one per rank, low to high:
``3 4 5 6 7 8 9 T J Q K A 2 B R`` (``B`` the small/black joker, ``R`` the big/red joker, as DouZero and
PerfectDou write them). Index 0 is the 3, index 12 the 2, 13 and 14 the jokers.

For speed the engine also packs counts into one integer, one byte per rank ("packed" form: the counts
as a little-endian byte string, so packing and unpacking run in C). Sets add and subtract as integers,
containment is two integer operations (``contains``), and ``at_least`` marks every rank holding at
least n cards at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import mul

from paiju.core.errors import CardError

RANKS = "3456789TJQKA2BR"
NUM_RANKS = 15
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14
RANK_INDEX = {letter: index for index, letter in enumerate(RANKS)}
MAX_COPIES = (4,) * 13 + (1, 1)
FULL_DECK: tuple[int, ...] = MAX_COPIES

UNIT = [1 << (8 * r) for r in range(NUM_RANKS)]
"""Packed form of one card of each rank."""
GUARD = sum(0x80 * unit for unit in UNIT)
"""Bit 7 of every rank's byte: the bits ``contains`` and ``at_least`` work with."""
AT_LEAST = [0] + [sum((0x80 - n) * unit for unit in UNIT) for n in range(1, 5)]
"""``AT_LEAST[n]``: added to a packed set, sets a rank's ``GUARD`` bit exactly when it holds n or more."""


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
    return "".join(map(mul, RANKS, counts))


def pack(counts: Sequence[int]) -> int:
    """The packed form: the count of rank ``r`` in byte ``r``."""
    return int.from_bytes(bytes(counts), "little")


def unpack(packed: int) -> list[int]:
    """Counts from the packed form."""
    return list(packed.to_bytes(NUM_RANKS, "little"))


def contains(hand: int, cards: int) -> bool:
    """Whether packed ``hand`` holds every card of packed ``cards``.

    Each byte of ``hand | GUARD`` is 128 + count; subtracting ``cards`` clears bit 7 of a byte exactly
    when that rank is short, and never borrows across bytes (counts are at most 4).
    """
    return ((hand | GUARD) - cards) & GUARD == GUARD


def at_least(packed: int, copies: int) -> int:
    """``GUARD`` bits of the ranks holding at least ``copies`` (1-4) cards: byte + 128 − copies ≥ 128."""
    return (packed + AT_LEAST[copies]) & GUARD
