"""Legal DouDizhu plays for a hand: every distinct play exactly once, in a fixed order.

Leading, a hand may play any combination it holds (each multiset once, in its canonical
interpretation, see ``moves``); following, it may pass, play a higher combination of the same category
and length, a bomb, or the rocket.

Plays are built from the hand's counts category by category, never by filtering the 27,471 plays.
Lookup tables over small domains do most of the work, each entry computed once per process on first
use; they are keyed by parts of the hand, never by whole hands, so any workload fills them quickly:

- the solos, pairs, trios, bombs (and rocket) of five consecutive ranks, keyed by those ranks' counts
  (5^5 keys per group);
- the chains of each kind, keyed by which of the 12 chain ranks hold enough cards (2^12 keys);
- the solos, pairs, trios or bombs above a rank, keyed by which ranks above it hold enough (2^15 keys);
- a trio's trio+solo or trio+pair plays, keyed by which other ranks hold a kicker (2^15 keys per trio).

Plays with four-with-two or plane kickers are enumerated from the hand. Hands and plays are in packed
form (``cards.pack``): one integer per set, so masks come from two integer operations (``cards.at_least``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.games.doudizhu.cards import AT_LEAST, BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, UNIT, at_least, pack
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
from paiju.native import fast

# Enum members bound once: reading ``Category.X`` costs a class-attribute lookup on every use.
_BOMB, _ROCKET, _TRIO_SOLO, _TRIO_PAIR = Category.BOMB, Category.ROCKET, Category.TRIO_SOLO, Category.TRIO_PAIR
_SIMPLE = {Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3, Category.BOMB: 4}
_CATEGORY_OF_COPIES = {copies: category for category, copies in _SIMPLE.items()}
_CHAIN_KINDS = [(category, *shape) for category, shape in CHAIN_SHAPES.items()]  # (category, copies, min, max)
_CHAIN_KIND = {category: index for index, (category, *_) in enumerate(_CHAIN_KINDS)}
_CHAIN_GUARD = sum(0x80 * UNIT[r] for r in range(HIGHEST_CHAIN_RANK + 1))
_BOMB_GUARD = sum(0x80 * UNIT[r] for r in range(SMALL_JOKER))
_GROUP = 5  # ranks per group of the plain-play table: 3-7, 8-Q, K-R
_GROUP_MASK = (1 << (8 * _GROUP)) - 1

ROCKET = move_from_packed(UNIT[SMALL_JOKER] + UNIT[BIG_JOKER], Category.ROCKET, SMALL_JOKER)
_SIMPLE_MOVES = {cat: [move_from_packed(n * UNIT[r], cat, r) for r in range(NUM_RANKS)] for cat, n in _SIMPLE.items()}
_CHAINS = {  # (category, length) -> chain move by lowest rank
    (category, length): [move_from_packed(sum(copies * UNIT[r] for r in range(low, low + length)), category, low,
                                          length) for low in range(HIGHEST_CHAIN_RANK - length + 2)]
    for category, copies, min_length, max_length in _CHAIN_KINDS
    for length in range(min_length, max_length + 1)
}
_KICKER_COPIES = {Category.TRIO_SOLO: 1, Category.TRIO_PAIR: 2}
_TRIO_WITH = {  # category -> [trio rank][kicker rank] -> move
    category: [[move_from_packed(3 * UNIT[t] + copies * UNIT[k], category, t) if k != t else None
                for k in range(NUM_RANKS)] for t in range(SMALL_JOKER)]
    for category, copies in _KICKER_COPIES.items()
}


@dataclass(frozen=True, slots=True)
class _Group:
    """The plain plays of a group of five ranks, and which of its ranks hold 3+ and 4 cards."""

    plays: list[Move]
    trios: list[int]
    bombs: list[int]


_GROUPS: list[dict[int, _Group]] = [{}, {}, {}]
_GROUP_SHIFTS = (0, 8 * _GROUP, 16 * _GROUP)


def _group(index: int, packed: int) -> _Group:
    """The table entry of group ``index`` for the packed hand ``packed`` (computed on first use)."""
    key = (packed >> _GROUP_SHIFTS[index]) & _GROUP_MASK
    group = _GROUPS[index].get(key)
    if group is None:
        ranks = range(_GROUP * index, _GROUP * index + _GROUP)
        counts = [(key >> (8 * (r - ranks.start))) & 0xFF for r in ranks]
        held = {n: [r for r, c in zip(ranks, counts, strict=True) if c >= n and (n == 1 or r < SMALL_JOKER)]
                for n in (1, 2, 3, 4)}
        plays = [_SIMPLE_MOVES[category][r] for r in ranks for category, n in _SIMPLE.items() if r in held[n]]
        if counts[-2:] == [1, 1] and index == 2:
            plays.append(ROCKET)
        group = _GROUPS[index][key] = _Group(plays, held[3], held[4])
    return group


_CHAIN_TABLES: list[dict[int, list[Move]]] = [{} for _ in _CHAIN_KINDS]


def _chains(kind: int, packed: int) -> list[Move]:
    """Every chain of kind ``kind`` (solo chain, pair chain, plane) the packed hand holds."""
    category, copies, min_length, max_length = _CHAIN_KINDS[kind]
    key = at_least(packed, copies) & _CHAIN_GUARD
    chains = _CHAIN_TABLES[kind].get(key)
    if chains is None:
        chains = _CHAIN_TABLES[kind][key] = []
        run = 0
        for end in range(HIGHEST_CHAIN_RANK + 1):
            run = run + 1 if key & (0x80 * UNIT[end]) else 0
            for length in range(min_length, min(run, max_length) + 1):
                chains.append(_CHAINS[category, length][end - length + 1])
    return chains


_ABOVE = [sum(0x80 * UNIT[r] for r in range(rank + 1, NUM_RANKS)) for rank in range(-1, NUM_RANKS)]
_HELD: dict[int, dict[int, tuple[list[int], list[Move]]]] = {copies: {} for copies in _SIMPLE.values()}


def _held(packed: int, copies: int, above: int) -> tuple[list[int], list[Move]]:
    """The ranks above ``above`` holding at least ``copies`` cards, and their solos, pairs, trios or
    bombs; a table keyed by which ranks those are (2^15 keys at most)."""
    key = at_least(packed, copies) & _ABOVE[above + 1]
    entry = _HELD[copies].get(key)
    if entry is None:
        ranks = [r for r in range(NUM_RANKS) if key & (0x80 * UNIT[r])]
        table = _SIMPLE_MOVES[_CATEGORY_OF_COPIES[copies]]
        entry = _HELD[copies][key] = (ranks, [table[r] for r in ranks])
    return entry


def legal_moves(hand: Sequence[int], follow: Move | None, rules: DouDizhuRules) -> list[Move]:
    """Every distinct legal play of ``hand``: leading when ``follow`` is ``None`` or a pass, else
    following ``follow`` (pass first, then same-category plays by rank, then bombs, then the rocket)."""
    packed = pack(hand)
    if follow is None or follow is PASS:
        return _leads(hand, packed, rules)
    category = follow.category
    if category is _BOMB or category is _ROCKET:
        moves = [PASS]
        bomb_floor = follow.rank
    elif category in _SIMPLE:  # the common case, inlined: a table lookup keyed by the ranks above that qualify
        copies = _SIMPLE[category]
        entry = _HELD[copies].get((packed + AT_LEAST[copies]) & _ABOVE[follow.rank + 1])
        moves = [PASS, *(entry or _held(packed, copies, follow.rank))[1]]
        bomb_floor = -1
    else:
        moves = [PASS]
        bomb_floor = -1
        _follow_with_structure(moves, follow, hand, packed, rules)
    if (packed + AT_LEAST[4]) & _BOMB_GUARD:
        moves += _held(packed, 4, bomb_floor)[1]
    if hand[SMALL_JOKER] and hand[BIG_JOKER] and category is not _ROCKET:
        moves.append(ROCKET)
    return moves


def _follow_with_structure(moves: list[Move], follow: Move, hand: Sequence[int], packed: int,
                           rules: DouDizhuRules) -> None:
    """Plays of ``follow``'s category and length above it, for chains and plays with kickers."""
    category, length, above = follow.category, follow.length, follow.rank
    if category in CHAIN_SHAPES:
        moves.extend(m for m in _chains(_CHAIN_KIND[category], packed) if m.length == length and m.rank > above)
    elif category in _TRIO_WITH:
        _trio_with(moves, category, _held(packed, 3, above)[0], packed)
    elif category is Category.FOUR_TWO_SOLOS or category is Category.FOUR_TWO_PAIRS:
        _four_with_two(moves, category, above, hand, rules, set())
    else:
        seen: set[int] = set()
        for plane in reversed(_chains(_CHAIN_KIND[Category.PLANE], packed)):
            if plane.length == length and plane.rank > above:
                _plane_with(moves, category, plane, hand, rules, seen)


def _leads(hand: Sequence[int], packed: int, rules: DouDizhuRules) -> list[Move]:
    """All plays of ``hand``. Only planes and kicker plays can share a multiset; they are produced in the
    lead-preference order (planes, four-with-two, planes with solos, with pairs), highest rank first, and
    a multiset already produced is skipped, so each keeps its canonical interpretation."""
    low = _GROUPS[0].get(packed & _GROUP_MASK) or _group(0, packed)
    middle = _GROUPS[1].get((packed >> _GROUP_SHIFTS[1]) & _GROUP_MASK) or _group(1, packed)
    high = _GROUPS[2].get(packed >> _GROUP_SHIFTS[2]) or _group(2, packed)
    moves = low.plays + middle.plays + high.plays
    for kind, table in enumerate(_CHAIN_TABLES):  # solo chains, pair chains, planes
        chains = table.get((packed + AT_LEAST[kind + 1]) & _CHAIN_GUARD)
        if chains is None:
            chains = _chains(kind, packed)
        moves += chains
    planes = chains
    trios = low.trios + middle.trios + high.trios
    if not trios:
        return moves
    _trio_with(moves, _TRIO_SOLO, trios, packed)
    _trio_with(moves, _TRIO_PAIR, trios, packed)
    if not (planes or low.bombs or middle.bombs or high.bombs):
        return moves
    seen = {m.packed for m in planes}
    for category in (Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS):
        _four_with_two(moves, category, -1, hand, rules, seen)
    for category, (_, max_length) in PLANE_KICKER_SHAPES.items():
        for plane in reversed(planes):
            if plane.length <= max_length:
                _plane_with(moves, category, plane, hand, rules, seen)
    return moves


_TRIO_TABLES: dict[Category, list[dict[int, list[Move]]]] = {
    category: [{} for _ in range(SMALL_JOKER)] for category in _TRIO_WITH}


def _trio_with(moves: list[Move], category: Category, trios: list[int], packed: int) -> None:
    """Trio + solo or trio + pair for each of ``trios``, the kicker of any other rank holding enough
    cards; per trio, a table keyed by which ranks those are (2^15 keys at most)."""
    copies = _KICKER_COPIES[category]
    key = at_least(packed, copies)
    for trio in trios:
        table = _TRIO_TABLES[category][trio]
        plays = table.get(key)
        if plays is None:
            row = _TRIO_WITH[category][trio]
            plays = table[key] = [row[k] for k in range(NUM_RANKS) if k != trio and key & (0x80 * UNIT[k])]
        moves += plays


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
            _add_unseen(moves, seen, [4 * UNIT[four] + k for k in kicker_sets], category, four, 1)


def _plane_with(moves: list[Move], category: Category, plane: Move, hand: Sequence[int], rules: DouDizhuRules,
                seen: set[int]) -> None:
    """``plane`` with as many solo or pair kickers as it has trios. Kickers are never of the plane's ranks;
    solo kickers never hold three cards of a rank next to the plane (that would lengthen it, see
    ``moves.extends_plane``)."""
    low, length = plane.rank, plane.length
    pool = [0 if low <= r < low + length else n for r, n in enumerate(hand)]
    if category is Category.PLANE_SOLOS:
        for r in (low - 1, low + length):
            if 0 <= r <= HIGHEST_CHAIN_RANK:
                pool[r] = min(pool[r], 2)
        kicker_sets = _solo_kickers(pool, length, rules)
    else:
        kicker_sets = _pair_kickers(pool, length, rules)
    _add_unseen(moves, seen, [plane.packed + k for k in kicker_sets], category, low, length)


_KICKER_PLAYS: dict[tuple[Category, int, int], dict[int, Move]] = {}


def _add_unseen(moves: list[Move], seen: set[int], packed_plays: list[int], category: Category, rank: int,
                length: int) -> None:
    """Append the plays of one main part (``category``, ``rank``, ``length``) not in ``seen``, and mark them."""
    by_packed = _KICKER_PLAYS.setdefault((category, rank, length), {})
    for packed in packed_plays:
        if packed not in seen:
            seen.add(packed)
            move = by_packed.get(packed)
            if move is None:
                move = by_packed[packed] = move_from_packed(packed, category, rank, length)
            moves.append(move)


def _solo_kickers(pool: list[int], count: int, rules: DouDizhuRules) -> list[int]:
    """Packed multisets of ``count`` solo kickers from ``pool``: ranks may repeat; never four equal cards
    or both jokers unless the ruleset allows it."""
    kickers = _multisets(pool, count, 1, 4 if rules.bomb_as_kickers else 3)
    if not rules.rocket_as_kickers:
        both_jokers = UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]
        kickers = [k for k in kickers if k & both_jokers != both_jokers]
    return kickers


def _pair_kickers(pool: list[int], count: int, rules: DouDizhuRules) -> list[int]:
    """Packed multisets of ``count`` pairs of distinct ranks from ``pool`` (no jokers); with
    ``bomb_as_kickers`` four equal cards may count as two pairs."""
    pairs = [n // 2 if r < SMALL_JOKER else 0 for r, n in enumerate(pool)]
    return _multisets(pairs, count, 2, 2 if rules.bomb_as_kickers else 1)


def _multisets(available: list[int], count: int, size: int, most: int) -> list[int]:
    """Packed multisets of ``count`` units (a unit = ``size`` cards of one rank), taking at most
    ``min(available[r], most)`` units of rank ``r``: a knapsack over the ranks, each multiset made once."""
    if count == 2:  # four + two, the usual case: two units of different ranks, or two of one rank
        singles = [size * UNIT[r] for r, held in enumerate(available) if held]
        return [a + b for i, a in enumerate(singles) for b in singles[i + 1:]] + [
            2 * size * UNIT[r] for r, held in enumerate(available) if min(held, most) >= 2]
    found: list[list[int]] = [[0]] + [[] for _ in range(count)]  # found[k]: multisets of k units so far
    for rank, held in enumerate(available):
        cap = min(held, most, count)
        if cap:
            unit = size * UNIT[rank]
            for k in range(count, 0, -1):  # larger k first, so this rank is added once per multiset
                for m in range(1, min(cap, k) + 1):
                    found[k] += [partial + m * unit for partial in found[k - m]]
    return found[count]


reference_legal_moves = legal_moves
legal_moves = fast("paiju.games.doudizhu._movegen_fast", "legal_moves", legal_moves)
