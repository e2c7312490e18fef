"""A brute-force reference for the legal plays of 癞子 (wild-card) DouDizhu, written from the rules alone.

It shares no code with the engine's move generation (``movegen``, ``wild``, ``moves.interpretations``): the
classic combinations are read by the plain classifier ``readings`` below, straight from the table of
``shared/specs/doudizhu.md``; only ``cards`` and the ``Category`` / ``LEAD_PREFERENCE`` constants are shared.

The rule (spec section 癞子): a play is the cards P taken from the hand and the cards E they stand for. Jokers
and cards of a rank that is not wild stand for themselves; each wild card stands for its own rank or for any
rank 3..2; a P made only of wild cards stands for itself. E must be a classic combination, and every
substituted card (E minus P, positive part) must lie in the main part of the reading. One (P, E) pair takes one
reading: leading, the canonical one (``LEAD_PREFERENCE``, then the highest rank); following, among the
readings that beat the play to beat, the same category first, then the highest rank. A play is identified by
its ``Key``: (P packed, category, main rank, length, bomb tier), the tier ``SOFT`` (E differs from P) <
``HARD`` (natural cards; every non-bomb) < ``WILD`` (the four cards of a wild rank).

``literal_plays`` enumerates exactly that: every sub-multiset P of the hand times every substitution of its
wild cards. It is exponential in the hand, so ``legal_plays`` enumerates the same (P, E) pairs from the other
side: every classic combination E (``combinations``: all 27,471 of the standard ruleset) that the hand can
make, times every P that makes it. The tests check that the two agree on small hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache
from typing import NamedTuple

from paiju.games.doudizhu.cards import BIG_JOKER, MAX_COPIES, NUM_RANKS, SMALL_JOKER, TWO, contains, pack, unpack
from paiju.games.doudizhu.moves import LEAD_PREFERENCE, Category
from paiju.games.doudizhu.rules import DouDizhuRules

SOFT, HARD, WILD = 0, 1, 2
"""Bomb tiers: four made with a substituted wild card, four natural cards, the four cards of a wild rank."""
ACE = 11
"""The highest rank of a chain or plane (3..A: never a 2 or a joker)."""
MAX_PLAY = 20
"""No play holds more cards than the largest hand."""

Counts = tuple[int, ...]
Key = tuple[int, int, int, int, int]
"""A play: P packed (``cards.pack``), category, main rank, length, bomb tier."""
PASS_KEY: Key = (0, Category.PASS, -1, 0, HARD)
_PREFERENCE = {category: i for i, category in enumerate(LEAD_PREFERENCE)}


class Reading(NamedTuple):
    """One classic reading of a multiset: category, main rank (lowest rank of a chain or plane), length (ranks
    in the main part) and the main part's counts (where substituted cards may go)."""

    category: Category
    rank: int
    length: int
    main: Counts


class Combination(NamedTuple):
    """A classic combination: its counts, packed, and its readings."""

    counts: Counts
    packed: int
    readings: list[Reading]


# -- the classic combinations ---------------------------------------------------------------------------------


def readings(counts: Sequence[int], rules: DouDizhuRules) -> list[Reading]:
    """Every classic reading of ``counts`` (15 counts), in no particular order; ``[]`` if it is no combination."""
    counts = tuple(counts)
    size = sum(counts)
    if size == 0 or any(n > limit for n, limit in zip(counts, MAX_COPIES, strict=True)):
        return []
    ranks = [r for r in range(NUM_RANKS) if counts[r]]
    found: list[Reading] = []
    if len(ranks) == 1:  # solo, pair, trio, bomb: all the cards of one rank
        category = (Category.SOLO, Category.PAIR, Category.TRIO, Category.BOMB)[size - 1]
        found.append(Reading(category, ranks[0], 1, counts))
    if counts[SMALL_JOKER] == counts[BIG_JOKER] == 1 and size == 2:
        found.append(Reading(Category.ROCKET, SMALL_JOKER, 1, counts))
    for category, copies, shortest in ((Category.SOLO_CHAIN, 1, 5), (Category.PAIR_CHAIN, 2, 3),
                                       (Category.PLANE, 3, 2)):
        if (len(ranks) >= shortest and all(counts[r] == copies for r in ranks)
                and ranks[-1] <= ACE and ranks[-1] - ranks[0] == len(ranks) - 1):
            found.append(Reading(category, ranks[0], len(ranks), counts))
    for main_rank in ranks:
        if counts[main_rank] < 3:
            continue
        kickers = list(counts)
        kickers[main_rank] = 0
        main = _only(counts, [main_rank])
        if counts[main_rank] == 3 and size == 4:
            found.append(Reading(Category.TRIO_SOLO, main_rank, 1, main))
        if counts[main_rank] == 3 and size == 5 and _pairs(kickers, 1, rules):
            found.append(Reading(Category.TRIO_PAIR, main_rank, 1, main))
        if counts[main_rank] == 4 and not rules.no_four_with_two:
            if size == 6 and _solos(kickers, rules):
                found.append(Reading(Category.FOUR_TWO_SOLOS, main_rank, 1, main))
            if size == 8 and _pairs(kickers, 2, rules):
                found.append(Reading(Category.FOUR_TWO_PAIRS, main_rank, 1, main))
    for category, per_trio in ((Category.PLANE_SOLOS, 4), (Category.PLANE_PAIRS, 5)):
        length = size // per_trio
        if size % per_trio or length < 2:
            continue
        for low in range(ACE - length + 2):
            plane = list(range(low, low + length))
            if any(counts[r] != 3 for r in plane):
                continue
            kickers = list(counts)
            for r in plane:
                kickers[r] = 0
            if category == Category.PLANE_SOLOS:
                ok = _solos(kickers, rules) and not _next_to_plane(kickers, low, length)
            else:
                ok = _pairs(kickers, length, rules)
            if ok:
                found.append(Reading(category, low, length, _only(counts, plane)))
    return found


def _only(counts: Counts, ranks: list[int]) -> Counts:
    """``counts`` restricted to ``ranks``."""
    return tuple(n if r in ranks else 0 for r, n in enumerate(counts))


def _solos(kickers: list[int], rules: DouDizhuRules) -> bool:
    """Solo kickers may share a rank, but are never both jokers (option ``rocket_as_kickers``) nor four equal
    cards (option ``bomb_as_kickers``)."""
    if kickers[SMALL_JOKER] and kickers[BIG_JOKER] and not rules.rocket_as_kickers:
        return False
    return rules.bomb_as_kickers or max(kickers) < 4


def _pairs(kickers: list[int], pairs: int, rules: DouDizhuRules) -> bool:
    """``pairs`` pair kickers of distinct ranks, no jokers (option ``bomb_as_kickers``: four equal cards are two
    pairs)."""
    allowed = (2, 4) if rules.bomb_as_kickers else (2,)
    return all(n in allowed for n in kickers if n) and sum(kickers) == 2 * pairs


def _next_to_plane(kickers: list[int], low: int, length: int) -> bool:
    """Whether solo kickers hold three cards of a rank right below or above the plane (they would lengthen it)."""
    return any(0 <= r <= ACE and kickers[r] == 3 for r in (low - 1, low + length))


def combinations(rules: DouDizhuRules) -> dict[int, list[Combination]]:
    """Every classic combination of the deck with its readings under ``rules``' options, by size."""
    return _combinations(DouDizhuRules(rocket_as_kickers=rules.rocket_as_kickers,
                                       bomb_as_kickers=rules.bomb_as_kickers, no_four_with_two=rules.no_four_with_two))


@cache
def _combinations(rules: DouDizhuRules) -> dict[int, list[Combination]]:
    """Every classic combination of the deck with its readings, by size.

    Candidates: c copies of each rank of a run (one rank, or ranks 3..A for c = 1..3), alone or with the kickers
    of the table (one or two solos or pairs for one trio or four, one solo or pair per trio of a plane, any cards
    of any rank); the classifier keeps those that are combinations.
    """
    found: dict[Counts, list[Reading]] = {}
    candidates: list[Counts] = [tuple(1 if r in (SMALL_JOKER, BIG_JOKER) else 0 for r in range(NUM_RANKS))]
    for copies in (1, 2, 3, 4):
        for length in range(1, ACE + 2 if copies < 4 else 2):
            top = NUM_RANKS - 1 if length == 1 else ACE
            for low in range(top - length + 2):
                main = tuple(copies if low <= r < low + length else 0 for r in range(NUM_RANKS))
                kicker_shapes = [(0, 1)]
                if copies == 3:
                    kicker_shapes += [(length, 1), (length, 2)]
                if copies == 4:
                    kicker_shapes += [(2, 1), (2, 2)]
                for number, width in kicker_shapes:
                    if copies * length + number * width > MAX_PLAY:
                        continue
                    for kicker_ranks in itertools.combinations_with_replacement(range(NUM_RANKS), number):
                        counts = list(main)
                        for r in kicker_ranks:
                            counts[r] += width
                        candidates.append(tuple(counts))
    for counts in candidates:
        if counts not in found and sum(counts) <= MAX_PLAY:
            options = readings(counts, rules)
            if options:
                found[counts] = options
    by_size: dict[int, list[Combination]] = {}
    for counts, options in found.items():
        by_size.setdefault(sum(counts), []).append(Combination(counts, pack(counts), options))
    return by_size


# -- plays: the context rule ------------------------------------------------------------------------------------


def beats(play: Key, other: Key) -> bool:
    """Whether ``play`` may follow ``other``: the rocket beats everything; a bomb beats every non-bomb and every
    bomb lower by (tier, rank); otherwise same category and length, higher rank."""
    _, category, rank, length, tier = play
    _, other_category, other_rank, other_length, other_tier = other
    if other_category == Category.PASS:
        return category != Category.PASS
    if other_category == Category.ROCKET:
        return False
    if category == Category.ROCKET:
        return True
    if category == Category.BOMB:
        return other_category != Category.BOMB or (tier, rank) > (other_tier, other_rank)
    return category == other_category and length == other_length and rank > other_rank


def play_key(hand_cards: Counts, stands_for: Counts, follow: Key | None, wild: Sequence[int],
             rules: DouDizhuRules, options: list[Reading] | None = None) -> Key | None:
    """The play that cards ``hand_cards`` (P) standing for ``stands_for`` (E) make, leading (``follow`` None or
    a pass) or following ``follow``; None when (P, E) is no legal play. P is assumed to be cards of the hand;
    ``options``, when given, are E's ``readings``."""
    if not _substitutes(hand_cards, stands_for, wild):
        return None
    substituted = [max(0, e - p) for e, p in zip(stands_for, hand_cards, strict=True)]
    packed = pack(hand_cards)
    keys = []
    for reading in readings(stands_for, rules) if options is None else options:
        if all(s <= m for s, m in zip(substituted, reading.main, strict=True)):
            keys.append((packed, reading.category, reading.rank, reading.length,
                         _tier(reading, hand_cards, stands_for, wild)))
    if follow is None or follow[1] == Category.PASS:
        return min(keys, key=lambda k: (_PREFERENCE[Category(k[1])], -k[2]), default=None)
    follow_category = follow[1]
    return max((k for k in keys if beats(k, follow)), key=lambda k: (k[1] == follow_category, k[2]), default=None)


def _substitutes(hand_cards: Counts, stands_for: Counts, wild: Sequence[int]) -> bool:
    """Whether P may stand for E: same number of cards, jokers and cards of ranks that are not wild unchanged
    (wild cards stand for ranks 3..2), and E equal to P when P is all wild cards."""
    if sum(hand_cards) != sum(stands_for):
        return False
    if all(n == 0 or r in wild for r, n in enumerate(hand_cards)):
        return tuple(hand_cards) == tuple(stands_for)
    for r in range(NUM_RANKS):
        if r not in wild and stands_for[r] < hand_cards[r]:
            return False
    return stands_for[SMALL_JOKER] == hand_cards[SMALL_JOKER] and stands_for[BIG_JOKER] == hand_cards[BIG_JOKER]


def _tier(reading: Reading, hand_cards: Counts, stands_for: Counts, wild: Sequence[int]) -> int:
    """A bomb's tier; ``HARD`` for every other play."""
    if reading.category != Category.BOMB:
        return HARD
    if tuple(hand_cards) != tuple(stands_for):
        return SOFT
    return WILD if reading.rank in wild else HARD


# -- enumeration ------------------------------------------------------------------------------------------------


def literal_plays(hand: Sequence[int], follow: Key | None, wild: Sequence[int],
                  rules: DouDizhuRules) -> dict[Key, Counts]:
    """Every legal play of ``hand`` (pass first when following), each with the smallest E (by ``pack``) that
    makes it: every sub-multiset P of the hand times every substitution of its wild cards. Exponential: the
    definition, for small hands."""
    plays: dict[Key, Counts] = {}
    for cards in itertools.product(*(range(n + 1) for n in hand)):
        wild_cards = sum(cards[r] for r in wild)
        natural = tuple(0 if r in wild else n for r, n in enumerate(cards))
        for targets in itertools.combinations_with_replacement(range(TWO + 1), wild_cards):
            stands_for = list(natural)
            for r in targets:
                stands_for[r] += 1
            _record(plays, play_key(cards, tuple(stands_for), follow, wild, rules), tuple(stands_for))
    return _with_pass(plays, follow)


def legal_plays(hand: Sequence[int], follow: Key | None, wild: Sequence[int],
                rules: DouDizhuRules) -> dict[Key, Counts]:
    """The same as ``literal_plays``, enumerated from E: for every classic combination E of a size the context
    allows, every P of the hand that stands for it: E's jokers and some of its cards of ranks that are not wild
    (N: at most E's count of each rank, all but ``left_out``), taken from the hand, and ``size(E) - size(N)``
    wild cards of the hand."""
    natural = [0 if r in wild else n for r, n in enumerate(hand)]
    held = [hand[r] for r in wild]
    spare = sum(held)
    # A quick bound: E holds no more jokers than the hand, nor more of a rank than its natural cards + every wild.
    reach = pack([n + spare if r <= TWO else n for r, n in enumerate(natural)])
    leading = follow is None or follow[1] == Category.PASS
    sizes = range(1, MAX_PLAY + 1) if leading else {sum(unpack(follow[0])), 4, 2}  # type: ignore[index]
    plays: dict[Key, Counts] = {}
    for size in sizes:
        if size > sum(hand):
            continue
        for stands_for, packed, options in combinations(rules).get(size, ()):
            if not contains(reach, packed):
                continue
            usable = [min(e, n) for e, n in zip(stands_for, natural, strict=True)]
            missing = size - sum(usable)  # cards of E only wild cards can give
            if missing > spare:
                continue
            ranks = [r for r in range(TWO + 1) if usable[r]]
            for left_out in _bounded([usable[r] for r in ranks], spare - missing):
                naturals = list(usable)
                for r, n in zip(ranks, left_out, strict=True):
                    naturals[r] -= n
                for wild_cards in _bounded(held, size - sum(naturals), exact=True):
                    cards = list(naturals)
                    for r, n in zip(wild, wild_cards, strict=True):
                        cards[r] += n
                    key = play_key(tuple(cards), stands_for, follow, wild, rules, options)
                    _record(plays, key, stands_for)
    return _with_pass(plays, follow)


def _bounded(caps: Sequence[int], total: int, exact: bool = False) -> Iterator[tuple[int, ...]]:
    """Every vector ``d`` with ``0 <= d[i] <= caps[i]`` and ``sum(d) <= total`` (``== total`` if ``exact``)."""
    if not caps:
        if total >= 0 and (total == 0 or not exact):
            yield ()
        return
    for first in range(min(caps[0], total) + 1):
        for rest in _bounded(caps[1:], total - first, exact):
            yield (first, *rest)


def _record(plays: dict[Key, Counts], key: Key | None, stands_for: Counts) -> None:
    """Keep ``key`` with the smallest E that makes it."""
    if key is not None and (key not in plays or pack(stands_for) < pack(plays[key])):
        plays[key] = stands_for


def _with_pass(plays: dict[Key, Counts], follow: Key | None) -> dict[Key, Counts]:
    if follow is None or follow[1] == Category.PASS:
        return plays
    return {PASS_KEY: (0,) * NUM_RANKS, **plays}


def legal_keys(hand: Sequence[int], follow: Key | None, wild: Sequence[int], rules: DouDizhuRules) -> set[Key]:
    """The keys of ``legal_plays``."""
    return set(legal_plays(hand, follow, wild, rules))
