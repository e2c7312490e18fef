"""The fewest plays that empty a 癞子 hand (``min_steps`` with wild cards) and one such plan.

The classic oracle (``min_steps``) searches the chains a hand holds, then reads the rest by its shape. Here each
wild card may also stand for another rank, so the search tries every chain, pair chain and plane (with or
without kickers) that the hand's natural cards make with the help of its wild cards, and reads the rest by a
shape in which a wild card either joins a natural rank (one more card there: a pair, trio or soft bomb) or
stays as its own rank. Wild cards never stand for a rank the hand does not hold outside a chain or plane — such
a group would be wild cards only, which stand for their own rank. Once no wild card is left the classic oracle
answers.

The value is the minimum over these readings, so over the assignments of the wild cards to ranks, with two
shortcuts for speed: a plane takes only its cheapest kickers (``_kickers``), and plays with kickers come last
in a plan. A pair made with a wild card is played alone (a wild kicker stands for its own rank), but the shape
does not tell trios and fours made with wild cards from natural ones, so the value can fall short of the truth
where the best reading would split one of those into kickers. ``decompose`` gives a plan of at most that many
plays: the search's chains and planes, then the classic plan of the cards the rest stands for, its bombs
marked soft where a wild card made them and wild where they are a wild rank's four.

``min_steps`` also exists compiled (``_wild_steps_fast``, chosen by ``paiju.native``): the same search in C, with
the same values; ``reference_min_steps`` keeps this Python one. ``decompose`` is this Python one only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from paiju.games.doudizhu.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, UNIT, pack, unpack
from paiju.games.doudizhu.min_steps import _solver
from paiju.games.doudizhu.min_steps import decompose as classic_decompose
from paiju.games.doudizhu.min_steps import min_steps as classic_min_steps
from paiju.games.doudizhu.moves import (
    CHAIN_SHAPES,
    HIGHEST_CHAIN_RANK,
    PLANE_KICKER_SHAPES,
    SOFT,
    WILD,
    Category,
    Move,
    interpretations,
    move_from_packed,
)
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.native import fast

CACHE_SIZE = 1 << 15
"""Positions remembered per ruleset and wild ranks (least recently used are forgotten first)."""
SOLVERS = 4
"""Rulesets and wild ranks whose positions are remembered (a game has one; the least recently used go)."""

Wilds = tuple[int, ...]
"""Wild cards held, one count per wild rank (in the order of the wild ranks)."""
Raises = tuple[tuple[int, int], ...]
"""The leaf's wild cards joining natural ranks: (cards the rank held, cards held of the wild rank it came from)."""
Play = tuple[int, int, Wilds, bool]
"""A chain or plane of the search: (cards it stands for, natural cards taken, wild cards taken, whether it has
kickers); cards packed."""

_CHAIN_LENGTHS = tuple(CHAIN_SHAPES.values())
"""Solo chains, pair chains, planes: (cards per rank, fewest ranks, most ranks)."""


def min_steps(counts: Sequence[int], wild: Sequence[int], rules: DouDizhuRules | None = None) -> int:
    """The fewest plays that empty ``counts`` (15 rank counts) with wild ranks ``wild`` when no one else plays.

    With wild rank 8 (index 5), ``34568`` is the chain ``34567`` and ``5558`` the soft bomb of fives:

    >>> from paiju.games.doudizhu.cards import parse_cards
    >>> min_steps(parse_cards("34568"), (5,)), min_steps(parse_cards("5558"), (5,))
    (1, 1)
    >>> min_steps(parse_cards("5558"), ())  # no wild rank: a trio with a kicker
    1
    >>> min_steps(parse_cards("34TT8"), (5,))  # 8 makes TTT: TTT + 3, then 4
    2
    """
    rules = rules or DouDizhuRules()
    held = tuple(counts[w] for w in wild)
    if not any(held):
        return classic_min_steps(counts, rules)
    return _wild_solver(rules, tuple(wild)).search(_naturals(counts, wild), held, False)[0]


def decompose(counts: Sequence[int], wild: Sequence[int], rules: DouDizhuRules | None = None) -> list[Move]:
    """A plan of at most ``min_steps`` plays, as the plays the cards stand for (bombs with their tier: ``SOFT`` when a
    wild card stands for one of the four, ``WILD`` for a wild rank's four).

    >>> from paiju.games.doudizhu.cards import parse_cards
    >>> [(m.cards, m.label) for m in decompose(parse_cards("8888R"), (5,))]
    [('R', 'solo'), ('8888', 'wild bomb')]
    >>> [(m.cards, m.label) for m in decompose(parse_cards("345588"), (5,))]  # 3458 + 8: two 8s stand for 5s
    [('345555', 'four+two solos')]
    """
    rules = rules or DouDizhuRules()
    held = tuple(counts[w] for w in wild)
    if not any(held):
        return classic_decompose(counts, rules)
    solver = _wild_solver(rules, tuple(wild))
    plays, rest, substituted = solver.plan(_naturals(counts, wild), held)
    plan = [interpretations(tuple(unpack(play)), rules)[0] for play in plays]
    for play in classic_decompose(rest, rules):
        if play.category is Category.BOMB and (play.rank in wild or substituted[play.rank]):
            play = move_from_packed(play.packed, play.category, play.rank, 1, "", WILD if play.rank in wild else SOFT)
        plan.append(play)
    return plan


def _naturals(counts: Sequence[int], wild: Sequence[int]) -> int:
    """The packed hand less its wild cards."""
    return pack([0 if r in wild else n for r, n in enumerate(counts)])


@lru_cache(maxsize=SOLVERS)
def _wild_solver(rules: DouDizhuRules, wild: tuple[int, ...]) -> _WildSolver:
    return _WildSolver(rules, wild)


class _WildSolver:
    """Minimum steps with wild ranks ``wild``: the memoised search over positions (natural cards, wild cards)."""

    def __init__(self, rules: DouDizhuRules, wild: tuple[int, ...]) -> None:
        self.rules = rules
        self.wild = wild
        self.shape_steps = _solver(rules)._shape  # the classic shape table, shared
        self.search = lru_cache(maxsize=CACHE_SIZE)(self._search)
        self.leaf = lru_cache(maxsize=CACHE_SIZE)(self._leaf)

    def _search(self, naturals: int, wilds: Wilds, planes_only: bool) -> tuple[int, Play | None]:
        """(steps, first play): a chain or plane first, or None for the leaf (PerfectDou Algorithm 1). Plays with
        kickers come last (the order of disjoint plays does not matter): after one, ``planes_only``."""
        if not any(wilds):
            return classic_min_steps(unpack(naturals), self.rules), None
        natural = unpack(naturals)
        best, first = self.leaf(_shape(natural), tuple(sorted(wilds)), 0)[0], None
        if best <= 1:
            return best, None
        for play in self._plays(natural, wilds, planes_only):
            _, taken, used, kicked = play
            left = tuple(a - b for a, b in zip(wilds, used, strict=True))
            if best == 2 and (taken != naturals or any(left)):
                continue  # two plays: only a play of the whole position does better
            steps = 1 + self.search(naturals - taken, left, kicked)[0]
            if steps < best:
                best, first = steps, play
        return best, first

    def _plays(self, natural: list[int], wilds: Wilds, planes_only: bool) -> Iterator[Play]:
        """The chains and planes, and planes with kickers (only these when ``planes_only``), that the natural
        cards make with the help of wild cards (``_take``)."""
        spare = sum(wilds)
        for copies, least, most in _CHAIN_LENGTHS[2 if planes_only else 0:]:
            for low in range(HIGHEST_CHAIN_RANK + 1):
                need = stands = took = 0
                for high in range(low, min(low + most, HIGHEST_CHAIN_RANK + 1)):
                    held = natural[high]
                    if held < copies:
                        need += copies - held
                        if need > spare:
                            break
                    else:
                        held = copies
                    stands += copies * UNIT[high]
                    took += held * UNIT[high]
                    if high - low + 1 < least or not took:  # cards all wild stand for their own rank
                        continue
                    used = _take(need, wilds)
                    if not planes_only:
                        yield stands, took, used, False
                    if copies == 3 and high - low < PLANE_KICKER_SHAPES[Category.PLANE_SOLOS][1]:
                        yield from self._with_kickers(natural, wilds, (stands, took, used, True), low, high - low + 1)

    def _with_kickers(self, natural: list[int], wilds: Wilds, plane: Play, low: int, length: int) -> Iterator[Play]:
        """The plane with its cheapest solo kickers and its cheapest pair kickers from the rest (``_kickers``; wild
        cards there stand for their own rank)."""
        stands, took, used, _ = plane
        rest = [n - t for n, t in zip(natural, unpack(took), strict=True)]
        for w, held, spent in zip(self.wild, wilds, used, strict=True):
            rest[w] += held - spent
        for r in range(low, low + length):
            rest[r] = 0
        beside = tuple(r for r in (low - 1, low + length) if 0 <= r <= HIGHEST_CHAIN_RANK)
        for size, most in PLANE_KICKER_SHAPES.values():
            kicker = _kickers(rest, length, size, beside, self.wild, self.rules)
            if length <= most and kicker is not None:
                counts = unpack(kicker)
                wild_part = tuple(counts[w] for w in self.wild)
                natural_part = kicker - sum(n * UNIT[w] for w, n in zip(self.wild, wild_part, strict=True))
                yield (stands + kicker, took + natural_part,
                       tuple(a + b for a, b in zip(used, wild_part, strict=True)), True)

    def _leaf(self, shape: tuple[int, ...], wilds: Wilds, pairs: int) -> tuple[int, Raises]:
        """(steps, raises) with no more chains: each wild card stays as its own rank or joins a natural rank holding
        1..3 cards (a raise, written as that count; ``wilds`` sorted). A solo made a pair is played alone
        (``pairs``): a substituted card is never a kicker."""
        own = list(shape)
        for held in wilds:
            if held:
                own[held - 1] += 1
        best, raises = self.shape_steps(tuple(own))[0] + pairs, ()  # type: ignore[arg-type]
        for index, held in enumerate(wilds):
            if not held or (index and wilds[index - 1] == held):
                continue
            fewer = tuple(sorted((*wilds[:index], held - 1, *wilds[index + 1:])))
            for count in (1, 2, 3, 0):
                raised, made = list(shape), pairs
                if count == 1 and shape[0]:  # a solo becomes a pair
                    raised[0] -= 1
                    made += 1
                elif count > 1 and shape[count - 1]:  # a pair or trio grows by one
                    raised[count - 1] -= 1
                    raised[count] += 1
                elif count == 0 and pairs:  # a pair made of a solo becomes a trio
                    raised[2] += 1
                    made -= 1
                else:
                    continue
                steps, after = self.leaf(tuple(raised), fewer, made)
                if steps < best:
                    best, raises = steps, ((count or 2, held), *after)
        return best, raises

    def plan(self, naturals: int, wilds: Wilds) -> tuple[list[int], list[int], list[int]]:
        """A best plan: the search's plays (packed, as the cards they stand for), then the cards the leaf makes
        the rest stand for and per rank how many of them are wild cards (each raise on the highest rank holding
        that count)."""
        plays = []
        left = list(wilds)
        kicked = False
        while (play := self.search(naturals, tuple(left), kicked)[1]) is not None:
            stands, taken, used, kicked = play
            plays.append(stands)
            left = [a - b for a, b in zip(left, used, strict=True)]
            naturals -= taken
        natural = unpack(naturals)
        substituted = [0] * NUM_RANKS
        raises = self.leaf(_shape(natural), tuple(sorted(left)), 0)[1] if any(left) else ()
        for count, held in raises:
            rank = max(r for r in range(TWO + 1) if natural[r] == count)
            natural[rank] += 1
            substituted[rank] += 1
            left[left.index(held)] -= 1
        for w, held in zip(self.wild, left, strict=True):
            natural[w] += held
        return plays, natural, substituted


def _shape(natural: list[int]) -> tuple[int, int, int, int, int]:
    """Ranks 3..2 holding exactly 1..4 natural cards, then the jokers (``min_steps.shape_of``)."""
    plain = natural[:SMALL_JOKER]
    return plain.count(1), plain.count(2), plain.count(3), plain.count(4), natural[SMALL_JOKER] + natural[BIG_JOKER]


def _kickers(rest: list[int], units: int, size: int, beside: tuple[int, ...], wild: tuple[int, ...],
             rules: DouDizhuRules) -> int | None:
    """``units`` kickers of ``size`` cards (1: solos, 2: pairs) from ``rest``, packed, or None: natural cards before
    wild cards, from the ranks holding the fewest cards first, then the lowest; as ``moves`` allows (pairs never
    jokers, solos never both jokers nor three of a rank ``beside`` the plane, four equal cards only under
    ``bomb_as_kickers``)."""
    kicker = 0
    for rank in sorted(range(NUM_RANKS if size == 1 else SMALL_JOKER), key=lambda r: (r in wild, rest[r], r)):
        most = rest[rank] // size
        if not units or not most:
            continue
        if size == 1:
            most = min(most, 4 if rules.bomb_as_kickers else 3, 2 if rank in beside else 4)
            if rank == BIG_JOKER and kicker & UNIT[SMALL_JOKER] and not rules.rocket_as_kickers:
                continue
        else:
            most = min(most, 2 if rules.bomb_as_kickers else 1)
        take = min(most, units)
        kicker += take * size * UNIT[rank]
        units -= take
    return None if units else kicker


def _take(need: int, wilds: Wilds) -> Wilds:
    """How many of ``need`` wild cards (no more than those held) to take from each wild rank: from the rank holding
    fewer first, so that the larger group left stays whole."""
    if len(wilds) == 1:
        return (need,)
    first, second = wilds
    if first <= second:
        return min(need, first), need - min(need, first)
    return need - min(need, second), min(need, second)


reference_min_steps = min_steps
min_steps = fast("paiju.games.doudizhu._wild_steps_fast", "min_steps", min_steps)
