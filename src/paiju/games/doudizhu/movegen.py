"""Legal DouDizhu plays for a hand: every distinct play exactly once, in a fixed order.

Leading, a hand may play any combination it holds (each multiset once, in its canonical
interpretation, see ``moves``); following, it may pass, play a higher combination of the same category
and length, a bomb, or the rocket.

The generator builds plays from the hand's counts category by category rather than filtering a list of
all 27,472 plays, so a call costs time in proportion to the answer. Plays are interned ``Move`` objects,
identified by packed counts (``cards.pack``), so no play is built twice in a process.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paiju.games.doudizhu.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, unpack
from paiju.games.doudizhu.moves import (
    CHAIN_SHAPES,
    HIGHEST_CHAIN_RANK,
    PASS,
    PLANE_KICKER_SHAPES,
    Category,
    Move,
    make_move,
)
from paiju.games.doudizhu.rules import DouDizhuRules

_UNIT = [1 << (4 * r) for r in range(NUM_RANKS)]
_SIMPLE = {Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3, Category.BOMB: 4}
_BY_KEY: dict[tuple[int, int, int, int], Move] = {}


def _move(packed: int, category: Category, rank: int, length: int = 1) -> Move:
    """The interned move with these packed counts and interpretation."""
    key = (packed, category, rank, length)
    move = _BY_KEY.get(key)
    if move is None:
        move = _BY_KEY[key] = make_move(tuple(unpack(packed)), category, rank, length)
    return move


def _simple(rank: int, copies: int) -> int:
    return copies * _UNIT[rank]


ROCKET = _move(_UNIT[SMALL_JOKER] + _UNIT[BIG_JOKER], Category.ROCKET, SMALL_JOKER)
_SIMPLE_MOVES = {cat: [_move(_simple(r, n), cat, r) for r in range(NUM_RANKS)] for cat, n in _SIMPLE.items()}


def legal_moves(hand: Sequence[int], follow: Move | None, rules: DouDizhuRules) -> list[Move]:
    """Every distinct legal play of ``hand``: leading when ``follow`` is ``None`` or a pass, else
    following ``follow`` (pass first, then same-category plays by rank, then bombs, then the rocket)."""
    if follow is None or follow.is_pass:
        return _leads(hand, rules)
    moves = [PASS]
    category = follow.category
    if category is Category.ROCKET:
        return moves
    if category is not Category.BOMB:
        moves.extend(_plays(category, follow.length, follow.rank, hand, rules, set()))
        bomb_floor = -1
    else:
        bomb_floor = follow.rank
    bombs = _SIMPLE_MOVES[Category.BOMB]
    moves.extend(bombs[r] for r in range(bomb_floor + 1, SMALL_JOKER) if hand[r] == 4)
    if hand[SMALL_JOKER] and hand[BIG_JOKER]:
        moves.append(ROCKET)
    return moves


def _leads(hand: Sequence[int], rules: DouDizhuRules) -> list[Move]:
    """All plays of ``hand``, categories in the lead-preference order (see ``moves.LEAD_PREFERENCE``)."""
    moves: list[Move] = []
    if hand[SMALL_JOKER] and hand[BIG_JOKER]:
        moves.append(ROCKET)
    seen: set[int] = set()
    for category in (Category.BOMB, Category.SOLO, Category.PAIR, Category.TRIO):
        moves.extend(_plays(category, 1, -1, hand, rules, seen))
    for category, (_, min_length, max_length) in CHAIN_SHAPES.items():
        for length in range(min_length, max_length + 1):
            moves.extend(_plays(category, length, -1, hand, rules, seen))
    for category in (Category.TRIO_SOLO, Category.TRIO_PAIR, Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS):
        moves.extend(_plays(category, 1, -1, hand, rules, seen))
    for category, (_, max_length) in PLANE_KICKER_SHAPES.items():
        for length in range(2, max_length + 1):
            moves.extend(_plays(category, length, -1, hand, rules, seen))
    return moves


def _plays(category: Category, length: int, above: int, hand: Sequence[int], rules: DouDizhuRules,
           seen: set[int]) -> Iterator[Move]:
    """Plays of one category and length with main rank above ``above``, highest rank first.

    ``seen`` holds packed multisets already produced; a multiset with two interpretations is produced
    once, in the first (preferred, then highest-ranked) one.
    """
    if category in _SIMPLE:
        copies = _SIMPLE[category]
        table = _SIMPLE_MOVES[category]
        top = NUM_RANKS if copies == 1 else SMALL_JOKER
        for rank in range(top - 1, above, -1):
            if hand[rank] >= copies:
                yield table[rank]
        return
    if category in CHAIN_SHAPES:
        copies = CHAIN_SHAPES[category][0]
        for low in _windows(hand, copies, length, above):
            packed = sum(_simple(r, copies) for r in range(low, low + length))
            if category is Category.PLANE:
                seen.add(packed)
            yield _move(packed, category, low, length)
        return
    if category in (Category.TRIO_SOLO, Category.TRIO_PAIR):
        kicker_copies = 1 if category is Category.TRIO_SOLO else 2
        for trio in range(TWO, above, -1):
            if hand[trio] >= 3:
                for kicker in range(NUM_RANKS if kicker_copies == 1 else SMALL_JOKER):
                    if kicker != trio and hand[kicker] >= kicker_copies:
                        yield _move(_simple(trio, 3) + _simple(kicker, kicker_copies), category, trio)
        return
    if category in (Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS):
        if rules.no_four_with_two:
            return
        pairs = category is Category.FOUR_TWO_PAIRS
        for four in range(TWO, above, -1):
            if hand[four] == 4:
                pool = [0 if r == four else n for r, n in enumerate(hand)]
                for kickers in (_pair_kickers(pool, 2, rules) if pairs else _solo_kickers(pool, 2, rules)):
                    packed = _simple(four, 4) + kickers
                    if packed not in seen:
                        seen.add(packed)
                        yield _move(packed, category, four)
        return
    copies = PLANE_KICKER_SHAPES[category][0]
    for low in _windows(hand, 3, length, above):
        pool = [0 if low <= r < low + length else n for r, n in enumerate(hand)]
        main = sum(_simple(r, 3) for r in range(low, low + length))
        if copies == 1:
            for r in (low - 1, low + length):  # a kicker trio here would lengthen the plane
                if 0 <= r <= HIGHEST_CHAIN_RANK:
                    pool[r] = min(pool[r], 2)
            kicker_sets = _solo_kickers(pool, length, rules)
        else:
            kicker_sets = _pair_kickers(pool, length, rules)
        for kickers in kicker_sets:
            packed = main + kickers
            if packed not in seen:
                seen.add(packed)
                yield _move(packed, category, low, length)


def _windows(hand: Sequence[int], copies: int, length: int, above: int) -> list[int]:
    """Lowest ranks of the chains of ``length`` ranks, each held ``copies`` times, from high to low."""
    lows = []
    run = 0
    for rank in range(HIGHEST_CHAIN_RANK + 1):
        run = run + 1 if hand[rank] >= copies else 0
        low = rank - length + 1
        if run >= length and low > above:
            lows.append(low)
    lows.reverse()
    return lows


def _solo_kickers(pool: list[int], count: int, rules: DouDizhuRules) -> list[int]:
    """Packed multisets of ``count`` solo kickers from ``pool``: ranks may repeat; never four equal cards
    or both jokers unless the ruleset allows it."""
    limit = 4 if rules.bomb_as_kickers else 3
    ranks = [r for r in range(NUM_RANKS) if pool[r]]
    results: list[int] = []

    def extend(start: int, left: int, packed: int) -> None:
        if left == 0:
            results.append(packed)
            return
        for i in range(start, len(ranks)):
            rank = ranks[i]
            for n in range(min(pool[rank], limit, left), 0, -1):
                extend(i + 1, left - n, packed + n * _UNIT[rank])

    extend(0, count, 0)
    if not rules.rocket_as_kickers:
        both_jokers = _UNIT[SMALL_JOKER] + _UNIT[BIG_JOKER]
        results = [k for k in results if k & both_jokers != both_jokers]
    return results


def _pair_kickers(pool: list[int], count: int, rules: DouDizhuRules) -> list[int]:
    """Packed multisets of ``count`` pairs of distinct ranks from ``pool`` (no jokers); with
    ``bomb_as_kickers`` four equal cards may count as two pairs."""
    ranks = [r for r in range(SMALL_JOKER) if pool[r] >= 2]
    results: list[int] = []

    def extend(start: int, left: int, packed: int) -> None:
        if left == 0:
            results.append(packed)
            return
        for i in range(start, len(ranks)):
            rank = ranks[i]
            most = 2 if rules.bomb_as_kickers and pool[rank] == 4 else 1
            for n in range(min(most, left), 0, -1):
                extend(i + 1, left - n, packed + 2 * n * _UNIT[rank])

    extend(0, count, 0)
    return results
