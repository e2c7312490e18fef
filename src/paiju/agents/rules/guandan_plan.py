"""Hand planning for the GuanDan ``rules`` player: a decomposition of a hand into few combinations.

``HandPlanner.plan(hand)`` splits a hand (wild cards used where they help) into the combinations it would
play out, valued ``-step`` per play plus a little for high plays and more for each bomb, straight flush or
joker bomb held (``PlanConfig``); ``value_after`` scores what a play leaves behind. Plans are cached per
planner (bounded). ``signature`` identifies plays that differ only in suits. ``signature``, ``best_plan`` and
``plan_value_after`` are also compiled (``_guandan_plan_fast``, chosen by ``paiju.native``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from paiju.games.guandan.cards import NUM_RANKS
from paiju.games.guandan.combos import (
    BIG_JOKER_RANK,
    CHAIN_SHAPES,
    POSITION_RANK,
    SMALL_JOKER_RANK,
    ComboType,
    Play,
    power,
)
from paiju.native import fast

COUNT = bytes(sum((byte >> (2 * suit)) & 3 for suit in range(4)) for byte in range(256))
"""Profile byte -> number of cards."""
CARD_BITS = (1 << 112) - 1
_PLAIN_CHAINS = (ComboType.STRAIGHT, ComboType.THREE_PAIR, ComboType.TWO_TRIPS)
WINDOW_RANKS = {width: [tuple(POSITION_RANK[p] for p in range(start, start + width)) for start in range(15 - width)]
                 for width in (2, 3, 5)}
BY_COUNT = (None, ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPS)
_MISSING = {copies: bytes(max(0, copies - count) for count in range(256)) for copies in (1, 2, 3)}
"""Translation tables: a rank's natural cards -> the wild cards a chain taking ``copies`` of it needs."""
_USED_UP = {copies: bytes(int(count <= copies) for count in range(256)) for copies in (1, 2, 3)}
"""Translation tables: a rank's natural cards -> 1 when a chain taking ``copies`` of it takes them all."""
_DOUBLES = bytes(int(count == 2) for count in range(256))
_CACHE_LIMIT = 1 << 15
"""Entries a planner's caches hold before they are cleared (bounded memory, short garbage collections)."""


@dataclass(frozen=True, slots=True)
class PlanConfig:
    """Values of the combinations a hand is decomposed into (``HandPlanner``), in plays saved."""

    step: float = 1.0
    """Cost of each non-bomb play the hand still needs."""
    rank_spread: float = 0.6
    """A non-bomb play's value rises by this much from the lowest rank of its type to the highest."""
    bomb: float = 1.2
    """Value of holding a four-card bomb."""
    bomb_card: float = 0.35
    """Extra value per bomb card beyond four."""
    straight_flush: float = 1.7
    """Value of holding a straight flush (it beats five-card bombs)."""
    joker_bomb: float = 3.0
    """Value of holding the joker bomb."""
    search_width: int = 4
    """Chains searched further from each position of the search (the best-looking first)."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One combination of a plan, up to the suits of its natural cards."""

    type: ComboType
    rank: int
    """The rank code of its plays (``Play.rank``)."""
    signature: bytes
    """The ``signature`` of the plays it stands for."""
    naturals: bytes
    """Natural cards per rank 2..A (13 counts)."""
    wilds: int
    value: float
    """Its share of the plan's value (``PlanConfig``)."""
    size: int

    @property
    def is_bomb(self) -> bool:
        return self.type in (ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.JOKER_BOMB)

    @property
    def is_chain(self) -> bool:
        return self.type in CHAIN_SHAPES


@dataclass(frozen=True, slots=True)
class Plan:
    """A decomposition of a hand: its value (the sum of its units' values) and its units."""

    value: float
    units: tuple[Unit, ...]

    @property
    def plays(self) -> int:
        """Plays that empty the hand, bombs included."""
        return len(self.units)


def signature(play: Play, level: int) -> bytes:
    """A play up to the suits of its natural cards: type and rank code, natural cards per rank 2..A, the
    jokers' profile byte, the number of wild cards (bytes, for grouping plays)."""
    raw = play.to_bytes(16, "little")
    wilds = (play >> (8 + 8 * level)) & 3
    counts = raw[1:14].translate(COUNT)
    if wilds:
        counts = counts[:level] + bytes((counts[level] - wilds,)) + counts[level + 1:]
    return raw[:1] + counts + raw[14:15] + bytes((wilds,))


class HandPlanner:
    """Decomposes hands at one level into the combinations of highest total value (a min-steps search
    in the manner of PerfectDou appendix E.1, with GuanDan's combinations and wild cards).

    The search tries each straight flush (at most one per hand) or none, then, depth first, the chains
    (straights, tubes, plates) that can pay off — a chain must use up at least two ranks' cards (a straight
    also over three pairs), wild cards filling its gaps — going on from the ``search_width`` best-looking
    ones. What is left is grouped by rank: singles, pairs, trips, bombs, trips joined to the lowest pairs
    as full houses; the wild cards left go where they add most (a trips made a bomb, a bomb made bigger, a
    pair made trips, a single made a pair, or kept as level cards). Results are memoised on the natural
    cards and the wild cards left, in caches of bounded size.
    """

    def __init__(self, level: int, config: PlanConfig | None = None) -> None:
        self.level = level
        self.config = config = config or PlanConfig()
        self.order = [rank for rank in range(NUM_RANKS) if rank != level] + [level]
        """Ranks 2..A by strength as singles: the level rank highest."""

        def plain(order: float, top: float) -> float:
            return -config.step + config.rank_spread * (order / top - 0.5)

        self.same_rank = [plain(power(rank, level), BIG_JOKER_RANK) for rank in range(BIG_JOKER_RANK + 1)]
        """Value of a single, pair, trips or full house by rank (jokers included): the rank's strength."""
        self.bombs = [[0.0] * 4 + [config.bomb + config.bomb_card * (size - 4) + 0.01 * power(rank, level)
                                   for size in range(4, 11)] for rank in range(NUM_RANKS)]
        self.chain_values = {kind: [plain(start, 14 - CHAIN_SHAPES[kind][0]) for start in range(15 - width)]
                             for kind, (width, _) in CHAIN_SHAPES.items() if kind is not ComboType.STRAIGHT_FLUSH}
        self.flush_values = [config.straight_flush + 0.01 * start for start in range(10)]
        self._leaves: dict[bytes, tuple[float, int, tuple[int, ...]]] = {}
        self._searches: dict[bytes, tuple[float, int, tuple[Unit, ...]]] = {}
        self._plans: dict[int, Plan] = {}
        self._tables: object = None
        """The compiled planner's C copy of the values above (``_guandan_plan_fast``), made on first use."""

    # -- whole hands ---------------------------------------------------------------------------------

    def plan(self, hand: int) -> Plan:
        """The best decomposition of the packed ``hand``."""
        plan = self._plans.get(hand)
        if plan is None:
            self._bound_caches()
            plan = self._plans[hand] = self._best_plan(hand)
        return plan

    def _bound_caches(self) -> None:
        if len(self._leaves) + len(self._searches) + len(self._plans) > _CACHE_LIMIT:
            self._plans.clear()
            self._searches.clear()
            self._leaves.clear()

    def _best_plan(self, hand: int) -> Plan:
        return best_plan(self, hand)

    def value_after(self, plan: Plan, hand: int) -> tuple[float, int]:
        """The value and number of plays of the packed ``hand`` (the planned hand less some cards): the
        plan's chains and straight flushes still whole in it kept, the rest regrouped — or all regrouped."""
        return plan_value_after(self, plan, hand)

    # -- the search ----------------------------------------------------------------------------------

    def _search(self, counts: bytes, wilds: int) -> tuple[float, int, tuple[Unit, ...]]:
        """Best chains for the natural ``counts`` and ``wilds`` wild cards: (value with the groups left,
        plays, the chains). Only the ``search_width`` chains that look best one step ahead (the chain and
        the rest grouped) are searched further."""
        key = counts + bytes((wilds,))
        found = self._searches.get(key)
        if found is not None:
            return found
        value, plays, _ = self._leaf(counts, wilds)
        best: tuple[float, int, tuple[Unit, ...]] = (value, plays, ())
        ahead = []
        for chain in self._chains(counts, wilds):
            rest = bytes(map(int.__sub__, counts, chain.naturals))
            ahead.append((self._leaf(rest, wilds - chain.wilds)[0] + chain.value, chain, rest))
        ahead.sort(key=lambda option: -option[0])
        for _, chain, rest in ahead[:self.config.search_width]:
            value, plays, chains = self._search(rest, wilds - chain.wilds)
            if value + chain.value > best[0] + 1e-9:
                best = (value + chain.value, plays + 1, (chain, *chains))
        self._searches[key] = best
        return best

    def _chains(self, counts: bytes, wilds: int) -> list[Unit]:
        """Straights, tubes and plates worth trying: each uses up at least two ranks' cards (a straight may
        instead take one card from three or more pairs); gaps filled with wild cards."""
        found = []
        by_position = counts[-1:] + counts
        for kind in _PLAIN_CHAINS:
            width, copies = CHAIN_SHAPES[kind]
            missing = by_position.translate(_MISSING[copies])
            used_up = by_position.translate(_USED_UP[copies])
            doubles = by_position.translate(_DOUBLES) if kind is ComboType.STRAIGHT else bytes(14)
            values = self.chain_values[kind]
            for start, ranks in enumerate(WINDOW_RANKS[width]):
                end = start + width
                need = sum(missing[start:end])
                if need > wilds:
                    continue
                if sum(used_up[start:end]) < 2 and sum(doubles[start:end]) < 3:
                    continue
                naturals = bytearray(NUM_RANKS)
                for rank in ranks:
                    naturals[rank] = min(counts[rank], copies)
                found.append(self._unit(kind, ranks[0], bytes(naturals), need, values[start]))
        return found

    def _straight_flushes(self, profile: bytes, wilds: int) -> list[Unit]:
        """The straight flushes of the natural ``profile`` (one card of a suit per rank) with the wild cards."""
        found = []
        for suit in range(4):
            held = [(profile[rank] >> (2 * suit)) & 3 > 0 for rank in range(NUM_RANKS)]
            if sum(held) + wilds < 5:
                continue
            for start, ranks in enumerate(WINDOW_RANKS[5]):
                need = sum(not held[rank] for rank in ranks)
                if need <= wilds:
                    naturals = bytes(int(held[rank] and rank in ranks) for rank in range(NUM_RANKS))
                    found.append(self._unit(ComboType.STRAIGHT_FLUSH, ranks[0], naturals, need,
                                            self.flush_values[start]))
        return found

    # -- groups of one rank --------------------------------------------------------------------------

    def _leaf(self, counts: bytes, wilds: int) -> tuple[float, int, tuple[int, ...]]:
        """The best grouping of ``counts`` with ``wilds`` wild cards: (value, plays, the ranks the wild
        cards join)."""
        key = counts + bytes((wilds,))
        found = self._leaves.get(key)
        if found is not None:
            return found
        if not wilds:
            best = (*self._group_value(counts), ())
        else:
            best = (float("-inf"), 0, ())
            extended = bytearray(counts)
            for ranks in combinations_with_replacement(self._wild_targets(counts), wilds):
                for rank in ranks:
                    extended[rank] += 1
                value, plays = self._group_value(extended)
                if value > best[0]:
                    best = (value, plays, ranks)
                for rank in ranks:
                    extended[rank] -= 1
        self._leaves[key] = best
        return best

    def _wild_targets(self, counts: bytes) -> list[int]:
        """Ranks worth a wild card: the lowest and highest rank holding 1, 2, 3 and 4+ cards, and the
        level rank (a wild card kept as a level card)."""
        lowest: dict[int, int] = {}
        highest: dict[int, int] = {}
        for rank in self.order:
            count = min(counts[rank], 4)
            if count:
                lowest.setdefault(count, rank)
                highest[count] = rank
        targets = [self.level]
        for count in (3, 4, 2, 1):
            for rank in (lowest.get(count), highest.get(count)):
                if rank is not None and rank not in targets:
                    targets.append(rank)
        return targets

    def _group_value(self, counts: bytes | bytearray) -> tuple[float, int]:
        """Value and plays of ``counts`` grouped by rank, trips taking the lowest pairs as full houses."""
        value = 0.0
        plays = trips = 0
        pairs: list[float] = []
        for rank in self.order:
            count = counts[rank]
            if not count:
                continue
            plays += 1
            if count >= 4:
                value += self.bombs[rank][count]
                continue
            value += self.same_rank[rank]
            if count == 2:
                pairs.append(self.same_rank[rank])
            elif count == 3:
                trips += 1
        joined = min(trips, len(pairs))
        return value - sum(pairs[:joined]), plays - joined

    def _groups(self, counts: bytes, wilds: int) -> list[Unit]:
        """The units of the best grouping of ``counts`` with ``wilds`` wild cards (``_leaf``)."""
        allocation = self._leaf(counts, wilds)[2]
        extra = [allocation.count(rank) for rank in range(NUM_RANKS)]
        trips: list[int] = []
        pairs: list[int] = []
        units = []
        for rank in self.order:
            count = counts[rank] + extra[rank]
            if not count:
                continue
            if count == 3:
                trips.append(rank)
            elif count == 2:
                pairs.append(rank)
            if count == 1 or count >= 4:
                kind, value = (ComboType.SINGLE, self.same_rank[rank]) if count == 1 else \
                    (ComboType.BOMB, self.bombs[rank][count])
                units.append(self._unit(kind, rank, _only(rank, counts[rank]), extra[rank], value))
        joined = min(len(trips), len(pairs))
        for high, low in zip(trips, pairs, strict=False):
            naturals = bytearray(NUM_RANKS)
            naturals[high], naturals[low] = counts[high], counts[low]
            units.append(self._unit(ComboType.THREE_WITH_TWO, high, bytes(naturals), extra[high] + extra[low],
                                    self.same_rank[high]))
        for kind, ranks in ((ComboType.TRIPS, trips[joined:]), (ComboType.PAIR, pairs[joined:])):
            for rank in ranks:
                units.append(self._unit(kind, rank, _only(rank, counts[rank]), extra[rank], self.same_rank[rank]))
        return units

    def _joker_units(self, jokers: int) -> list[Unit]:
        """The jokers (profile byte 13): the joker bomb, else a pair or a single of each joker."""
        small, big = jokers & 3, jokers >> 2
        if small == big == 2:
            return [self._unit(ComboType.JOKER_BOMB, 15, bytes(NUM_RANKS), 0, self.config.joker_bomb, jokers)]
        units = []
        for count, rank, bits in ((small, SMALL_JOKER_RANK, small), (big, BIG_JOKER_RANK, big << 2)):
            if count:
                units.append(self._unit(BY_COUNT[count], rank, bytes(NUM_RANKS), 0, self.same_rank[rank], bits))
        return units

    def _unit(self, kind: ComboType, rank: int, naturals: bytes, wilds: int, value: float, jokers: int = 0) -> Unit:
        code = bytes((kind << 4 | rank,))
        size = sum(naturals) + wilds + (jokers & 3) + (jokers >> 2)
        return Unit(kind, rank, code + naturals + bytes((jokers, wilds)), naturals, wilds, value, size)


def best_plan(planner: HandPlanner, hand: int) -> Plan:
    """The best decomposition of the packed ``hand`` (``HandPlanner.plan`` without its cache)."""
    shift = 8 * planner.level
    wilds = (hand >> shift) & 3
    profile = (hand - (wilds << shift)).to_bytes(14, "little")
    counts = profile[:NUM_RANKS].translate(COUNT)
    jokers = planner._joker_units(profile[13])
    value, _, chains = planner._search(counts, wilds)
    best = (value, chains)
    for flush in planner._straight_flushes(profile, wilds):
        rest = bytes(c - n for c, n in zip(counts, flush.naturals, strict=True))
        value, _, chains = planner._search(rest, wilds - flush.wilds)
        if value + flush.value > best[0]:
            best = (value + flush.value, (flush, *chains))
    rest = bytearray(counts)
    left = wilds
    for unit in best[1]:
        for rank, taken in enumerate(unit.naturals):
            rest[rank] -= taken
        left -= unit.wilds
    units = (*jokers, *best[1], *planner._groups(bytes(rest), left))
    return Plan(sum(unit.value for unit in units), units)


def plan_value_after(planner: HandPlanner, plan: Plan, hand: int) -> tuple[float, int]:
    """``HandPlanner.value_after``: the value and plays of the packed ``hand`` after ``plan``."""
    planner._bound_caches()
    shift = 8 * planner.level
    wilds = (hand >> shift) & 3
    profile = (hand - (wilds << shift)).to_bytes(14, "little")
    counts = profile[:NUM_RANKS].translate(COUNT)
    jokers = planner._joker_units(profile[13])
    base = sum(unit.value for unit in jokers)
    value, plays, _ = planner._leaf(counts, wilds)
    rest = bytearray(counts)
    kept_value, kept = 0.0, 0
    for unit in plan.units:
        if unit.is_chain and unit.wilds <= wilds and all(map(int.__ge__, rest, unit.naturals)):
            for rank, taken in enumerate(unit.naturals):
                rest[rank] -= taken
            wilds -= unit.wilds
            kept_value += unit.value
            kept += 1
    if kept:
        leaf_value, leaf_plays, _ = planner._leaf(bytes(rest), wilds)
        if kept_value + leaf_value > value:
            value, plays = kept_value + leaf_value, kept + leaf_plays
    return base + value, plays + len(jokers)


def _only(rank: int, count: int) -> bytes:
    """Natural counts holding ``count`` cards of ``rank`` only."""
    naturals = bytearray(NUM_RANKS)
    naturals[rank] = count
    return bytes(naturals)


_PLANNERS: dict[tuple[int, PlanConfig], HandPlanner] = {}


def planner(level: int, config: PlanConfig) -> HandPlanner:
    """The shared planner of ``level`` (its caches serve every agent using the same values)."""
    found = _PLANNERS.get((level, config))
    if found is None:
        found = _PLANNERS[(level, config)] = HandPlanner(level, config)
    return found


reference_signature = signature
reference_best_plan = best_plan
reference_plan_value_after = plan_value_after
signature = fast("paiju.agents.rules._guandan_plan_fast", "signature", signature)
best_plan = fast("paiju.agents.rules._guandan_plan_fast", "best_plan", best_plan)
plan_value_after = fast("paiju.agents.rules._guandan_plan_fast", "plan_value_after", plan_value_after)
