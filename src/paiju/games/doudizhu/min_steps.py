"""The fewest plays that empty a DouDizhu hand if nobody else ever played (PerfectDou appendix E.1).

PerfectDou's oracle (appendix E.1, Algorithm 1) is the NOIP 2015 problem "斗地主": a depth-first search
over the chains a hand holds, and for the cards left a dynamic programme over the hand's *shape* — how
many ranks hold exactly one, two, three or four cards. Once the chains are out, every remaining
category (solo, pair, trio, bomb, rocket, trio + solo/pair, four + two solos/pairs) only asks for
*distinct* ranks, never for particular ones, so the shape (plus the number of jokers) fixes the answer.

Unlike the appendix's sketch this follows paiju's combinations exactly (``moves``): a joker may be a
kicker but the two jokers are never kickers of one play, a plane's kickers are neither of its ranks nor
a trio next to it, and four equal cards are never two pair kickers — each unless the ruleset's option
says so. The search tries planes with kickers last (the order of disjoint plays does not matter), and
is memoised on the packed hand (``cards.pack``) with a bounded cache; the shape table is shared by all
hands.

``min_steps`` and ``decompose`` also exist compiled (``_min_steps_fast``, chosen by ``paiju.native``): the
same search in C on a 64-bit hand, with the same values and plays; ``reference_min_steps`` and
``reference_decompose`` keep these Python ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from paiju.core.errors import CardError
from paiju.games.doudizhu.cards import MAX_COPIES, NUM_RANKS, SMALL_JOKER, UNIT, pack, unpack
from paiju.games.doudizhu.moves import (
    CHAIN_SHAPES,
    HIGHEST_CHAIN_RANK,
    PLANE_KICKER_SHAPES,
    Category,
    Move,
    interpretations,
)
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.native import fast

CACHE_SIZE = 1 << 16
"""Hands remembered per ruleset (least recently used are forgotten first)."""

Shape = tuple[int, int, int, int, int]
"""Ranks 3..2 holding exactly 1, 2, 3, 4 cards, then the number of jokers."""

_JOKERS = UNIT[SMALL_JOKER] | UNIT[SMALL_JOKER + 1]


@dataclass(frozen=True, slots=True)
class ShapeStep:
    """One play on a shape: ``takes`` removes ``amount`` cards from a rank holding ``count``, in order (the
    first take is the main part, the others kickers from other ranks); ``jokers`` jokers go with it."""

    takes: tuple[tuple[int, int], ...]
    jokers: int = 0


def min_steps(counts: Sequence[int], rules: DouDizhuRules | None = None) -> int:
    """The fewest plays that empty the hand ``counts`` (15 rank counts) when no one else plays.

    >>> from paiju.games.doudizhu.cards import parse_cards
    >>> min_steps(parse_cards("3456789TJQKA"))
    1
    """
    return _solver(rules or DouDizhuRules()).steps(_checked_pack(counts))


def decompose(counts: Sequence[int], rules: DouDizhuRules | None = None) -> list[Move]:
    """One way to play the hand out in ``min_steps`` plays: the plays (each in its lead interpretation)."""
    return _solver(rules or DouDizhuRules()).plan(_checked_pack(counts))


def _checked_pack(counts: Sequence[int]) -> int:
    if len(counts) != NUM_RANKS:
        raise CardError(f"a hand is {NUM_RANKS} rank counts, got {len(counts)}")
    for rank, (count, most) in enumerate(zip(counts, MAX_COPIES, strict=True)):
        if not isinstance(count, int) or not 0 <= count <= most:
            raise CardError(f"rank {rank} holds {count!r} cards; a deck has 0..{most}")
    return pack(counts)


@cache
def _solver(rules: DouDizhuRules) -> _Solver:
    return _Solver(rules)


# -- shapes --------------------------------------------------------------------------------------------

def shape_of(packed: int) -> Shape:
    """The shape of a packed hand: ranks with exactly 1..4 cards (jokers apart), and the jokers."""
    raw = packed.to_bytes(NUM_RANKS, "little")
    plain = raw[:SMALL_JOKER]
    return (plain.count(1), plain.count(2), plain.count(3), plain.count(4), raw[SMALL_JOKER] + raw[SMALL_JOKER + 1])


def _held_masks(packed: int) -> tuple[int, int, int]:
    """12-bit masks of the chain ranks 3..A holding at least one, two and three cards."""
    raw = packed.to_bytes(NUM_RANKS, "little")
    masks = [0, 0, 0]
    for rank in range(HIGHEST_CHAIN_RANK + 1):
        for copies in range(min(raw[rank], 3)):
            masks[copies] |= 1 << rank
    return masks[0], masks[1], masks[2]


@cache
def _chains_within(mask: int, copies: int) -> tuple[tuple[int, int, int], ...]:
    """The chains of ``copies`` cards per rank (solo chains, pair chains, planes) on ranks of ``mask``, as
    (packed play, lowest rank, length)."""
    category = next(c for c, shape in CHAIN_SHAPES.items() if shape[0] == copies)
    _, min_length, max_length = CHAIN_SHAPES[category]
    found = []
    for length in range(min_length, max_length + 1):
        for low in range(HIGHEST_CHAIN_RANK - length + 2):
            window = ((1 << length) - 1) << low
            if mask & window == window:
                found.append((sum(copies * UNIT[r] for r in range(low, low + length)), low, length))
    return tuple(found)


def _take(shape: Shape, count: int, amount: int) -> Shape | None:
    """The shape after taking ``amount`` cards from one rank holding ``count``; None if there is none."""
    if not shape[count - 1]:
        return None
    after = list(shape)
    after[count - 1] -= 1
    if count > amount:
        after[count - amount - 1] += 1
    return tuple(after)  # type: ignore[return-value]


# -- the solver ----------------------------------------------------------------------------------------

class _Solver:
    """Minimum steps under one ruleset: the shape table and the memoised chain search."""

    def __init__(self, rules: DouDizhuRules) -> None:
        self.rules = rules
        self._shape_table: dict[Shape, tuple[int, ShapeStep | None]] = {}
        self._search = lru_cache(maxsize=CACHE_SIZE)(self._search_uncached)
        self._leads: dict[int, Move] = {}

    def steps(self, packed: int) -> int:
        return self._search(packed, False)[0]

    def plan(self, packed: int) -> list[Move]:
        """Follow the search's choices: chains first, then the shape table's plays realised on ranks."""
        plays: list[Move] = []
        planes_only = False
        while packed:
            _, chain = self._search(packed, planes_only)
            if not chain:
                break
            planes_only = planes_only or self._has_kickers(chain)
            plays.append(self._lead_move(chain))
            packed -= chain
        counts = unpack(packed)
        while any(counts):
            step = self._shape(shape_of(pack(counts)))[1]
            assert step is not None
            played = _realise(step, counts)
            plays.append(self._lead_move(pack(played)))
            counts = [a - b for a, b in zip(counts, played, strict=True)]
        return plays

    def _lead_move(self, packed: int) -> Move:
        """A play's lead interpretation, remembered per play (a table over the plays, not the hands)."""
        move = self._leads.get(packed)
        if move is None:
            move = self._leads[packed] = interpretations(tuple(unpack(packed)), self.rules)[0]
        return move

    @staticmethod
    def _has_kickers(packed: int) -> bool:
        return not any(packed == main for copies in (1, 2, 3) for main, _, _ in _chains_within(4095, copies))

    # The chain search: PerfectDou Algorithm 1, DFS. Returns (steps, first chain play or 0 for none).
    def _search_uncached(self, packed: int, planes_only: bool) -> tuple[int, int]:
        best = self._shape(shape_of(packed))[0]
        best_chain = 0
        if best <= 1:
            return best, 0
        if best == 2:  # a chain can only do better by being the whole hand
            return (1, packed) if self._is_one_chain(packed) else (2, 0)
        held = _held_masks(packed)
        if not planes_only:
            for copies in (1, 2, 3):
                for main, _, _ in _chains_within(held[copies - 1], copies):
                    steps = 1 + self._search(packed - main, False)[0]
                    if steps < best:
                        best, best_chain = steps, main
        for play in self._plane_kicker_plays(packed, held[2]):
            steps = 1 + self._search(packed - play, True)[0]
            if steps < best:
                best, best_chain = steps, play
        return best, best_chain

    def _is_one_chain(self, packed: int) -> bool:
        return any(Category.SOLO_CHAIN <= m.category <= Category.PLANE_PAIRS
                   for m in interpretations(tuple(unpack(packed)), self.rules))

    def _plane_kicker_plays(self, packed: int, trios: int) -> Iterator[int]:
        """Planes with kickers held by the hand, as packed plays (``moves``: kickers are not of the plane's
        ranks, solo kickers are never a trio next to the plane nor both jokers, pair kickers never jokers)."""
        rules = self.rules
        solo_most, pair_most = (4, 2) if rules.bomb_as_kickers else (3, 1)
        for main, low, length in _chains_within(trios, 3):
            rest = unpack(packed - main)
            for r in range(low, low + length):
                rest[r] = 0
            if length <= PLANE_KICKER_SHAPES[Category.PLANE_SOLOS][1]:
                caps = [min(n, solo_most) for n in rest]
                if not rules.rocket_as_kickers and caps[SMALL_JOKER] and caps[SMALL_JOKER + 1]:
                    yield from (main + k for k in _kicker_sets(caps, length, 1, (low - 1, low + length))
                                if k & _JOKERS != _JOKERS)
                else:
                    yield from (main + k for k in _kicker_sets(caps, length, 1, (low - 1, low + length)))
            if length <= PLANE_KICKER_SHAPES[Category.PLANE_PAIRS][1]:
                caps = [min(n // 2, pair_most) if r < SMALL_JOKER else 0 for r, n in enumerate(rest)]
                yield from (main + k for k in _kicker_sets(caps, length, 2, ()))

    # The shape table: PerfectDou Algorithm 1, InitMatrix / NowStep, over every play of the shape.
    def _shape(self, shape: Shape) -> tuple[int, ShapeStep | None]:
        known = self._shape_table.get(shape)
        if known is not None:
            return known
        if not any(shape):
            result: tuple[int, ShapeStep | None] = (0, None)
        else:
            result = min(((1 + self._shape(after)[0], step) for after, step in self._shape_plays(shape)),
                         key=lambda option: option[0])
        self._shape_table[shape] = result
        return result

    def _shape_plays(self, shape: Shape) -> Iterator[tuple[Shape, ShapeStep]]:
        """Every play of a shape outside chains, as (shape after, the play)."""
        rules = self.rules
        jokers = shape[4]
        for kept in range(2):  # the rocket, a joker alone
            if jokers > kept:
                yield (*shape[:4], kept), ShapeStep((), jokers - kept)  # type: ignore[misc]
        for size in (4, 3, 2, 1):  # bomb, trio, pair, solo
            for count in range(size, 5):
                after = _take(shape, count, size)
                if after is not None:
                    yield after, ShapeStep(((count, size),))
        for count in (3, 4):  # trio + solo, trio + pair
            trio = _take(shape, count, 3)
            if trio is None:
                continue
            if jokers:
                yield (*trio[:4], jokers - 1), ShapeStep(((count, 3),), 1)  # type: ignore[misc]
            for kicker, amount in ((c, a) for a in (2, 1) for c in range(a, 5)):
                after = _take(trio, kicker, amount)
                if after is not None:
                    yield after, ShapeStep(((count, 3), (kicker, amount)))
        if rules.no_four_with_two:
            return
        four = _take(shape, 4, 4)
        if four is None:
            return
        for first in range(1, 5):
            one = _take(four, first, 1)
            if one is None:
                continue
            if jokers:
                yield (*one[:4], jokers - 1), ShapeStep(((4, 4), (first, 1)), 1)  # type: ignore[misc]
            for second in range(first, 5):  # different ranks: after the first take it holds first - 1
                after = _take(one, second, 1)
                if after is not None:
                    yield after, ShapeStep(((4, 4), (first, 1), (second, 1)))
        for count in range(2, 5):  # both solo kickers of one rank
            after = _take(four, count, 2)
            if after is not None:
                yield after, ShapeStep(((4, 4), (count, 2)))
        if jokers == 2 and rules.rocket_as_kickers:
            yield (*four[:4], 0), ShapeStep(((4, 4),), 2)  # type: ignore[misc]
        for first in range(2, 5):  # two pairs of different ranks
            one = _take(four, first, 2)
            if one is None:
                continue
            for second in range(first, 5):
                after = _take(one, second, 2)
                same_rank_only = first == 4 and second == 2 and one[1] < 2
                if after is not None and not same_rank_only:
                    yield after, ShapeStep(((4, 4), (first, 2), (second, 2)))
        if rules.bomb_as_kickers:
            after = _take(four, 4, 4)
            if after is not None:
                yield after, ShapeStep(((4, 4), (4, 4)))


def _kicker_sets(caps: list[int], total: int, unit: int, no_three: tuple[int, ...]) -> list[int]:
    """Packed kicker multisets: ``total`` units of ``unit`` cards, at most ``caps[r]`` units of rank ``r``,
    never exactly three units of a rank in ``no_three`` (a trio next to a plane would lengthen it)."""
    found: list[int] = []
    ranks = [r for r in range(NUM_RANKS) if caps[r]]

    def extend(index: int, left: int, packed: int) -> None:
        if left == 0:
            found.append(packed)
            return
        for i in range(index, len(ranks)):
            rank = ranks[i]
            for units in range(min(caps[rank], left), 0, -1):
                if units == 3 and rank in no_three and rank <= HIGHEST_CHAIN_RANK:
                    continue
                extend(i + 1, left - units, packed + units * unit * UNIT[rank])

    extend(0, total, 0)
    return found


def _realise(step: ShapeStep, counts: list[int]) -> list[int]:
    """The cards of a shape play taken from actual ranks: the main part from the highest rank holding the
    count, kickers from the lowest other ranks holding theirs (any such ranks give the same shape after)."""
    played = [0] * NUM_RANKS
    left = counts.copy()
    for index, (count, amount) in enumerate(step.takes):
        holding = [r for r in range(SMALL_JOKER) if left[r] == count]
        fresh = [r for r in holding if not played[r]] or holding
        rank = fresh[-1] if index == 0 else fresh[0]
        played[rank] += amount
        left[rank] -= amount
    wanted = step.jokers
    for joker in range(SMALL_JOKER, NUM_RANKS):  # the small joker first
        if wanted and left[joker]:
            played[joker] = 1
            wanted -= 1
    return played


reference_min_steps = min_steps
reference_decompose = decompose
min_steps = fast("paiju.games.doudizhu._min_steps_fast", "min_steps", min_steps)
decompose = fast("paiju.games.doudizhu._min_steps_fast", "decompose", decompose)
