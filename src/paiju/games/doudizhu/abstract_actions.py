"""PerfectDou's abstract DouDizhu action space: 621 actions, kickers of planes and fours decoded afterwards.

Source: PerfectDou appendix E.2 ("Detailed Action Space", Algorithm 2 "Decode action"). Indices follow the
paper's listing order:

| indices   | category (count)                                                                         |
| --------- | ---------------------------------------------------------------------------------------- |
| 0-14      | solo (15), ranks 3..R                                                                    |
| 15-27     | pair (13)                                                                                |
| 28-40     | trio (13)                                                                                |
| 41-222    | trio+solo (182): trio rank major, then kicker rank ascending over the 14 other ranks    |
| 223-378   | trio+pair (156): trio rank major, then kicker pair rank over the 12 other ranks 3..2    |
| 379-414   | solo chain (36): by length 5..12, then lowest rank                                       |
| 415-466   | pair chain (52): length 3..10, then lowest rank                                          |
| 467-511   | plane (45): length 2..6, then lowest rank                                                |
| 512-549   | plane+solos (38): main part only, length 2..5                                            |
| 550-579   | plane+pairs (30): main part only, length 2..4                                            |
| 580-592   | four+two solos (13): main part only                                                      |
| 593-605   | four+two pairs (13): main part only                                                      |
| 606-618   | bomb (13)                                                                                |
| 619       | rocket                                                                                   |
| 620       | pass                                                                                     |

Every category except plane+solos, plane+pairs and the four+two categories is exact: the abstract action is
one play. A ``Move``'s interpretation (category, main rank, length, and the kicker rank of trio+solo /
trio+pair) fixes its index, so a multiset with two readings maps by the reading it is played as (with
``bomb_as_kickers``, ``33334444`` is ``4444****`` or ``3333****``).
Labels are the play's cards (jokers ``B``/``R``), with one ``*`` per kicker card for the abstracted
categories (``333444**``, ``2222****``), and ``pass``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from paiju.core.errors import IllegalActionError, PaijuError
from paiju.games.doudizhu.cards import NUM_RANKS, SMALL_JOKER, TWO, format_cards
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import CHAIN_SHAPES, HIGHEST_CHAIN_RANK, PLANE_KICKER_SHAPES, Category, Move
from paiju.games.doudizhu.rules import DouDizhuRules

ABSTRACT_COUNT = 621
PASS_ABSTRACT = 620
ROCKET_ABSTRACT = 619

_Key = tuple[Category, int, int, int]
"""(category, main rank, length, kicker rank or -1): what an abstract action fixes of a play."""

# Categories abstracted by their main part only: copies per rank of the main part, cards per kicker unit.
_MAIN_COPIES = {Category.PLANE_SOLOS: 3, Category.PLANE_PAIRS: 3, Category.FOUR_TWO_SOLOS: 4,
                Category.FOUR_TWO_PAIRS: 4}
_UNIT_SIZE = {Category.PLANE_SOLOS: 1, Category.PLANE_PAIRS: 2, Category.FOUR_TWO_SOLOS: 1,
              Category.FOUR_TWO_PAIRS: 2}
_TRIO_KICKER = {Category.TRIO_SOLO: 1, Category.TRIO_PAIR: 2}


@cache
def _table() -> tuple[tuple[_Key, ...], tuple[str, ...], dict[_Key, int]]:
    """The 621 keys in listing order, their labels, and the index of each key."""
    keys: list[_Key] = []
    labels: list[str] = []

    def add(category: Category, rank: int, length: int, kicker: int, counts: dict[int, int], stars: int) -> None:
        keys.append((category, rank, length, kicker))
        labels.append(format_cards([counts.get(r, 0) for r in range(NUM_RANKS)]) + "*" * stars)

    for r in range(NUM_RANKS):
        add(Category.SOLO, r, 1, -1, {r: 1}, 0)
    for category, copies in ((Category.PAIR, 2), (Category.TRIO, 3)):
        for r in range(SMALL_JOKER):
            add(category, r, 1, -1, {r: copies}, 0)
    for category, copies in _TRIO_KICKER.items():
        kicker_ranks = range(NUM_RANKS) if copies == 1 else range(SMALL_JOKER)
        for t in range(SMALL_JOKER):
            for k in kicker_ranks:
                if k != t:
                    add(category, t, 1, k, {t: 3, k: copies}, 0)
    for category, (copies, min_length, max_length) in CHAIN_SHAPES.items():
        for length in range(min_length, max_length + 1):
            for low in range(HIGHEST_CHAIN_RANK - length + 2):
                add(category, low, length, -1, dict.fromkeys(range(low, low + length), copies), 0)
    for category, (unit, max_length) in PLANE_KICKER_SHAPES.items():
        for length in range(2, max_length + 1):
            for low in range(HIGHEST_CHAIN_RANK - length + 2):
                add(category, low, length, -1, dict.fromkeys(range(low, low + length), 3), unit * length)
    for category, stars in ((Category.FOUR_TWO_SOLOS, 2), (Category.FOUR_TWO_PAIRS, 4)):
        for r in range(TWO + 1):
            add(category, r, 1, -1, {r: 4}, stars)
    for r in range(TWO + 1):
        add(Category.BOMB, r, 1, -1, {r: 4}, 0)
    keys.append((Category.ROCKET, SMALL_JOKER, 1, -1))
    labels.append("BR")
    keys.append((Category.PASS, -1, 0, -1))
    labels.append("pass")
    if len(keys) != ABSTRACT_COUNT:
        raise AssertionError(f"the abstract action table has {len(keys)} entries, expected {ABSTRACT_COUNT}")
    return tuple(keys), tuple(labels), {key: index for index, key in enumerate(keys)}


@cache
def _categories() -> tuple[Category, ...]:
    return tuple(key[0] for key in _table()[0])


_INDEX_OF_MOVE: dict[Move, int] = {}
"""Memo of ``abstract_index``: moves are interned, so each play's index is computed once per process."""
_KICKERS_OF_MOVE: dict[Move, tuple[tuple[int, int], ...]] = {}
"""Memo of ``_kicker_units``."""


def abstract_index(move: Move) -> int:
    """The abstract action (0..620) of a play, from its interpretation: category, main rank, length, and the
    kicker rank of trio+solo / trio+pair (PerfectDou appendix E.2)."""
    if not isinstance(move, Move):
        raise IllegalActionError(f"an abstract DouDizhu action is computed from a Move, got {move!r}")
    index = _INDEX_OF_MOVE.get(move)
    if index is not None:
        return index
    kicker = -1
    if move.category in _TRIO_KICKER:
        kicker = next(r for r, n in enumerate(move.counts) if n and r != move.rank)
    index = _table()[2].get((move.category, move.rank, move.length, kicker))
    if index is None:
        raise IllegalActionError(f"play {move!r} has no abstract action")
    _INDEX_OF_MOVE[move] = index
    return index


def _check_index(index: int) -> int:
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < ABSTRACT_COUNT:
        raise IllegalActionError(f"an abstract DouDizhu action is an integer 0..{ABSTRACT_COUNT - 1}, got {index!r}")
    return int(index)


def abstract_label(index: int) -> str:
    """The action as the paper lists it: the cards (``3334``, ``BR``), ``*`` per kicker card, or ``pass``."""
    return _table()[1][_check_index(index)]


def abstract_category(index: int) -> Category:
    """The category of abstract action ``index``."""
    return _categories()[_check_index(index)]


def _kicker_units(move: Move) -> tuple[tuple[int, int], ...]:
    """The kickers of a plane / four play as ``(rank, units)`` with units of ``_UNIT_SIZE`` cards: the play's
    counts minus its main part (trios of the plane, or the four); empty for other categories."""
    units = _KICKERS_OF_MOVE.get(move)
    if units is None:
        category = move.category
        if category in _MAIN_COPIES:
            main = range(move.rank, move.rank + move.length)
            size = _UNIT_SIZE[category]
            kickers = [n - (_MAIN_COPIES[category] if r in main else 0) for r, n in enumerate(move.counts)]
            units = tuple((r, n // size) for r, n in enumerate(kickers) if n)
        else:
            units = ()
        _KICKERS_OF_MOVE[move] = units
    return units


def _usage(hand: Sequence[int], rules: DouDizhuRules) -> tuple[np.ndarray, np.ndarray]:
    """For each rank, how many of the hand's leading plays use it at least once / at least twice."""
    if len(hand) != NUM_RANKS:
        raise PaijuError(f"a DouDizhu hand is {NUM_RANKS} counts, one per rank, got {len(hand)}")
    leads = legal_moves(hand, None, rules)
    counts = np.frombuffer(b"".join(m.packed.to_bytes(NUM_RANKS, "little") for m in leads), dtype=np.uint8)
    counts = counts.reshape(-1, NUM_RANKS)
    return (counts >= 1).sum(axis=0), (counts >= 2).sum(axis=0)


def _best(candidates: list[Move], usage: tuple[np.ndarray, np.ndarray]) -> Move:
    """The candidate whose kickers score lowest, ties to the smaller ``packed`` (scores scaled by 10 so they
    compare exactly: 10 N + rank per unit)."""
    by_size = {1: usage[0].tolist(), 2: usage[1].tolist()}

    def score(move: Move) -> tuple[int, int]:
        used = by_size[_UNIT_SIZE.get(move.category, 1)]
        return sum(units * (10 * used[r] + r) for r, units in _kicker_units(move)), move.packed

    return min(candidates, key=score)


def decode(index: int, legal: Sequence[Move], hand: Sequence[int], rules: DouDizhuRules) -> Move:
    """The play of abstract action ``index`` among ``legal`` (PerfectDou appendix E.2, Algorithm 2).

    Among the legal plays with that index, the one whose kickers score lowest; a kicker unit (one solo card, or
    one pair) of rank r scores N + 0.1 r, N the number of the hand's leading plays using rank r at least as many
    times as the unit has cards; a play scores the sum over its units. Ties go to the smaller ``packed``. A
    single candidate is returned without generating the hand's plays. ``hand`` is the 15 counts per rank.
    """
    index = _check_index(index)
    candidates = [move for move in legal if abstract_index(move) == index]
    if not candidates:
        raise IllegalActionError(f"abstract action {abstract_label(index)!r} has no legal play")
    if len(candidates) == 1:
        return candidates[0]
    return _best(candidates, _usage(hand, rules))


def group_legal(legal: Sequence[Move], hand: Sequence[int], rules: DouDizhuRules) -> tuple[np.ndarray, list[Move]]:
    """The distinct abstract actions among ``legal`` (int64, in order of first appearance) and the play each
    decodes to (as ``decode``); the hand's leading plays are generated at most once, and only if some
    abstract action has several legal plays."""
    groups: dict[int, list[Move]] = {}
    for move in legal:
        index = abstract_index(move)
        group = groups.get(index)
        if group is None:
            groups[index] = [move]
        else:
            group.append(move)
    usage = None
    chosen: list[Move] = []
    for group in groups.values():
        if len(group) == 1:
            chosen.append(group[0])
        else:
            if usage is None:
                usage = _usage(hand, rules)
            chosen.append(_best(group, usage))
    return np.fromiter(groups, dtype=np.int64, count=len(groups)), chosen


__all__ = [
    "ABSTRACT_COUNT",
    "PASS_ABSTRACT",
    "ROCKET_ABSTRACT",
    "abstract_category",
    "abstract_index",
    "abstract_label",
    "decode",
    "group_legal",
]
