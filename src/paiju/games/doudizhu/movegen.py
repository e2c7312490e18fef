"""Legal DouDizhu plays for a hand: every distinct play exactly once, in a fixed order.

Leading, a hand may play any combination it holds (each multiset once, in its canonical
interpretation, see ``moves``); following, it may pass, play a higher combination of the same category
and length, a bomb, or the rocket.

The generator builds plays from the hand's counts category by category rather than filtering the list
of all 27,471 plays, so a call costs time in proportion to the answer. Plays without kickers come from
tables built once at import; plays with kickers are interned on first use (``moves.move_from_packed``).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.games.doudizhu.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO
from paiju.games.doudizhu.moves import (
    CHAIN_SHAPES,
    HIGHEST_CHAIN_RANK,
    PASS,
    PLANE_KICKER_SHAPES,
    Category,
    Move,
    move_from_packed,
)
from paiju.games.doudizhu.rules import DouDizhuRules

_UNIT = [1 << (4 * r) for r in range(NUM_RANKS)]
_SIMPLE = {Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3, Category.BOMB: 4}
_CHAIN_BY_COPIES = {copies: category for category, (copies, _, _) in CHAIN_SHAPES.items()}

ROCKET = move_from_packed(_UNIT[SMALL_JOKER] + _UNIT[BIG_JOKER], Category.ROCKET, SMALL_JOKER)
_SIMPLE_MOVES = {cat: [move_from_packed(n * _UNIT[r], cat, r) for r in range(NUM_RANKS)]
                 for cat, n in _SIMPLE.items()}
_CHAINS = {  # (category, length) -> chain move by lowest rank
    (category, length): {low: move_from_packed(sum(copies * _UNIT[r] for r in range(low, low + length)),
                                               category, low, length)
                         for low in range(HIGHEST_CHAIN_RANK - length + 2)}
    for category, (copies, min_length, max_length) in CHAIN_SHAPES.items()
    for length in range(min_length, max_length + 1)
}
_TRIO_WITH = {  # category -> [trio rank][kicker rank] -> move
    category: [[move_from_packed(3 * _UNIT[t] + copies * _UNIT[k], category, t) if k != t else None
                for k in range(NUM_RANKS)] for t in range(SMALL_JOKER)]
    for category, copies in ((Category.TRIO_SOLO, 1), (Category.TRIO_PAIR, 2))
}


def legal_moves(hand: Sequence[int], follow: Move | None, rules: DouDizhuRules) -> list[Move]:
    """Every distinct legal play of ``hand``: leading when ``follow`` is ``None`` or a pass, else
    following ``follow`` (pass first, then same-category plays by rank, then bombs, then the rocket)."""
    if follow is None or follow.is_pass:
        return _leads(hand, rules)
    moves = [PASS]
    category = follow.category
    if category is Category.ROCKET:
        return moves
    if category is Category.BOMB:
        bomb_floor = follow.rank
    else:
        bomb_floor = -1
        if category in _SIMPLE:
            _simple(moves, category, follow.rank, hand)
        elif category in CHAIN_SHAPES:
            copies = CHAIN_SHAPES[category][0]
            table = _CHAINS[category, follow.length]
            moves.extend(table[low] for low in _chain_lows(hand, copies, follow.length, follow.rank))
        elif category in _TRIO_WITH:
            _trio_with(moves, category, follow.rank, hand)
        elif category in (Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS):
            _four_with_two(moves, category, follow.rank, hand, rules, set())
        else:
            _plane_with(moves, category, follow.length, follow.rank, hand, rules, set())
    bombs = _SIMPLE_MOVES[Category.BOMB]
    moves.extend(bombs[r] for r in range(bomb_floor + 1, SMALL_JOKER) if hand[r] == 4)
    if hand[SMALL_JOKER] and hand[BIG_JOKER]:
        moves.append(ROCKET)
    return moves


def _leads(hand: Sequence[int], rules: DouDizhuRules) -> list[Move]:
    """All plays of ``hand``. Only planes and kicker plays can share a multiset; they are produced in the
    lead-preference order (planes, four-with-two, planes with kickers), highest rank first, and a
    multiset already produced is skipped, so each keeps its canonical interpretation."""
    solos, pairs, trios, bombs = [], [], [], []
    solo_moves, pair_moves, trio_moves, bomb_moves = _SIMPLE_MOVES.values()
    for rank in range(NUM_RANKS):
        n = hand[rank]
        if n:
            solos.append(solo_moves[rank])
            if n >= 2:
                pairs.append(pair_moves[rank])
                if n >= 3:
                    trios.append(trio_moves[rank])
                    if n == 4:
                        bombs.append(bomb_moves[rank])
    moves = [ROCKET, *bombs] if hand[SMALL_JOKER] and hand[BIG_JOKER] else bombs
    moves += solos + pairs + trios
    for copies, (category, (_, min_length, max_length)) in zip((1, 2, 3), CHAIN_SHAPES.items(), strict=True):
        run = 0
        for end in range(HIGHEST_CHAIN_RANK + 1):
            if hand[end] < copies:
                run = 0
                continue
            run += 1
            if run >= min_length:
                for length in range(min_length, min(run, max_length) + 1):
                    moves.append(_CHAINS[category, length][end - length + 1])
    if trios:
        for category in _TRIO_WITH:
            _trio_with(moves, category, -1, hand)
    seen = {m.packed for m in moves if m.category is Category.PLANE}
    if bombs:
        for category in (Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS):
            _four_with_two(moves, category, -1, hand, rules, seen)
    if len(trios) >= 2:
        for category, (_, max_length) in PLANE_KICKER_SHAPES.items():
            for length in range(2, max_length + 1):
                _plane_with(moves, category, length, -1, hand, rules, seen)
    return moves


def _simple(moves: list[Move], category: Category, above: int, hand: Sequence[int]) -> None:
    """Solos, pairs, trios or bombs ranked above ``above``."""
    copies = _SIMPLE[category]
    table = _SIMPLE_MOVES[category]
    for rank in range(above + 1, NUM_RANKS if copies == 1 else SMALL_JOKER):
        if hand[rank] >= copies:
            moves.append(table[rank])


def _chain_lows(hand: Sequence[int], copies: int, length: int, above: int) -> list[int]:
    """Lowest ranks (above ``above``) of the chains of ``length`` ranks each held ``copies`` times."""
    lows = []
    run = 0
    for end in range(HIGHEST_CHAIN_RANK + 1):
        run = run + 1 if hand[end] >= copies else 0
        if run >= length and end - length + 1 > above:
            lows.append(end - length + 1)
    return lows


def _trio_with(moves: list[Move], category: Category, above: int, hand: Sequence[int]) -> None:
    """Trio + solo or trio + pair with the trio ranked above ``above``; the kicker of another rank."""
    copies = 1 if category is Category.TRIO_SOLO else 2
    table = _TRIO_WITH[category]
    kicker_ranks = [k for k in range(NUM_RANKS if copies == 1 else SMALL_JOKER) if hand[k] >= copies]
    for trio in range(above + 1, SMALL_JOKER):
        if hand[trio] >= 3:
            row = table[trio]
            moves.extend(row[k] for k in kicker_ranks if k != trio)


def _four_with_two(moves: list[Move], category: Category, above: int, hand: Sequence[int],
                   rules: DouDizhuRules, seen: set[int]) -> None:
    """Four + two solos or four + two pairs, the four ranked above ``above``, highest first."""
    if rules.no_four_with_two:
        return
    for four in range(TWO, above, -1):
        if hand[four] == 4:
            pool = [0 if r == four else n for r, n in enumerate(hand)]
            if category is Category.FOUR_TWO_PAIRS:
                kicker_sets = _pair_kickers(pool, 2, rules)
            else:
                kicker_sets = _solo_kickers(pool, 2, rules)
            _add_unseen(moves, seen, [4 * _UNIT[four] + k for k in kicker_sets], category, four, 1)


def _plane_with(moves: list[Move], category: Category, length: int, above: int, hand: Sequence[int],
                rules: DouDizhuRules, seen: set[int]) -> None:
    """A plane of ``length`` trios (lowest rank above ``above``) with as many solo or pair kickers,
    highest plane first. Kickers are never of the plane's ranks; solo kickers never hold three cards of a
    rank next to the plane (that would lengthen it, see ``moves.extends_plane``)."""
    for low in reversed(_chain_lows(hand, 3, length, above)):
        pool = [0 if low <= r < low + length else n for r, n in enumerate(hand)]
        main = sum(3 * _UNIT[r] for r in range(low, low + length))
        if category is Category.PLANE_SOLOS:
            for r in (low - 1, low + length):
                if 0 <= r <= HIGHEST_CHAIN_RANK:
                    pool[r] = min(pool[r], 2)
            kicker_sets = _solo_kickers(pool, length, rules)
        else:
            kicker_sets = _pair_kickers(pool, length, rules)
        _add_unseen(moves, seen, [main + k for k in kicker_sets], category, low, length)


def _add_unseen(moves: list[Move], seen: set[int], packed_plays: list[int], category: Category, rank: int,
                length: int) -> None:
    for packed in packed_plays:
        if packed not in seen:
            seen.add(packed)
            moves.append(move_from_packed(packed, category, rank, length))


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
