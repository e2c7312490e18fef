"""``rules``: a heuristic GuanDan player in the manner of the competition's rule-based bots.

The player keeps a **plan**: a decomposition of its hand into few combinations (``HandPlanner``), valued
``-step`` per play plus a little for high plays, and more for each bomb, straight flush or joker bomb held
(they win the lead back whenever needed). Every candidate is scored by how the plan's value changes when
its cards leave the hand, plus terms for the table:

- **leading**: the plan's weakest plays first and many cards at once; not what an opponent about to go
  out could follow with all their cards (then the highest such play); a low single or pair when the
  partner is about to go out; the unbeatable play first when one more play then empties the hand;
- **following**: the cheapest play that beats without breaking the plan; the partner's play is left
  alone (always when the partner is about to go out), an opponent's answered, with a bomb when an
  opponent is close to going out or when the bomb leaves at most one play;
- **finishing**: a play that empties the hand is always taken;
- **tribute and back** (DanZero's heuristics, spec "DanZero"): give the highest card allowed; give back
  the card of rank at most 10 whose loss leaves the best plan (a lone low single before a card of a pair
  or a chain).

Plays that differ only in suits are scored once; among them the player keeps the cards that could make a
straight flush. Everything is read from the seat's own observation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import AgentError
from paiju.games.guandan.cards import NUM_RANKS, UNIT, card_index, card_rank
from paiju.games.guandan.combos import (
    BIG_JOKER_RANK,
    CHAIN_SHAPES,
    POSITION_RANK,
    SMALL_JOKER_RANK,
    ComboType,
    Play,
    power,
)

if TYPE_CHECKING:
    from paiju.games.guandan.observation import GuanDanObservation

FINISH = 1000.0
"""Score of a play that empties the hand."""

_COUNT = bytes(sum((byte >> (2 * suit)) & 3 for suit in range(4)) for byte in range(256))
"""Profile byte -> number of cards."""
_CARD_BITS = (1 << 112) - 1
_TEN = 8
"""Rank index of the 10: a card given back has rank at most 10 (spec "Tribute")."""
_PLAIN_CHAINS = (ComboType.STRAIGHT, ComboType.THREE_PAIR, ComboType.TWO_TRIPS)
_WINDOW_RANKS = {width: [tuple(POSITION_RANK[p] for p in range(start, start + width)) for start in range(15 - width)]
                 for width in (2, 3, 5)}
_BY_COUNT = (None, ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPS)
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
class GuanDanRulesConfig:
    """Weights of the play heuristic (see the module docstring); values are in plays saved."""

    plan: PlanConfig = field(default_factory=PlanConfig)
    lead_size: float = 0.04
    """Value per card a lead sheds."""
    partner_pass: float = 1.0
    """Value of letting the partner's play stand."""
    partner_close: int = 5
    """A partner holding this many cards or fewer is about to go out: their play always stands."""
    opponent_pass: float = 0.0
    """Value of letting an opponent's play stand while no opponent is close to going out."""
    pressing_cards: int = 10
    """An opponent holding this many cards or fewer is close to going out."""
    pressing_pass: float = -1.6
    """Value of letting an opponent's play stand when an opponent is close to going out."""
    danger_cards: int = 2
    """An opponent holding this many cards or fewer is about to go out."""
    urgent_pass: float = -8.0
    """Value of letting an opponent's play stand when an opponent is about to go out."""
    lead_into_danger: float = 4.0
    """Cost of leading a beatable play that an opponent about to go out could follow with all their cards."""
    block_rank: float = 0.1
    """Value per rank of such a lead when it must be made (the highest blocks best)."""
    feed_partner: float = 1.5
    """Value of leading a low single or pair of the size a partner about to go out holds."""
    sure_win: float = 3.0
    """Value of a play after which the hand needs at most one more play, when nothing but a bomb beats it."""
    winning_bomb: float = 2.5
    """Value of a bomb that leaves the hand at most one more play."""


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
    counts = raw[1:14].translate(_COUNT)
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
        shift = 8 * self.level
        wilds = (hand >> shift) & 3
        profile = (hand - (wilds << shift)).to_bytes(14, "little")
        counts = profile[:NUM_RANKS].translate(_COUNT)
        jokers = self._joker_units(profile[13])
        value, _, chains = self._search(counts, wilds)
        best = (value, chains)
        for flush in self._straight_flushes(profile, wilds):
            rest = bytes(c - n for c, n in zip(counts, flush.naturals, strict=True))
            value, _, chains = self._search(rest, wilds - flush.wilds)
            if value + flush.value > best[0]:
                best = (value + flush.value, (flush, *chains))
        rest = bytearray(counts)
        left = wilds
        for unit in best[1]:
            for rank, taken in enumerate(unit.naturals):
                rest[rank] -= taken
            left -= unit.wilds
        units = (*jokers, *best[1], *self._groups(bytes(rest), left))
        return Plan(sum(unit.value for unit in units), units)

    def value_after(self, plan: Plan, hand: int) -> tuple[float, int]:
        """The value and number of plays of the packed ``hand`` (the planned hand less some cards): the
        plan's chains and straight flushes still whole in it kept, the rest regrouped — or all regrouped."""
        self._bound_caches()
        shift = 8 * self.level
        wilds = (hand >> shift) & 3
        profile = (hand - (wilds << shift)).to_bytes(14, "little")
        counts = profile[:NUM_RANKS].translate(_COUNT)
        jokers = self._joker_units(profile[13])
        base = sum(unit.value for unit in jokers)
        value, plays, _ = self._leaf(counts, wilds)
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
            leaf_value, leaf_plays, _ = self._leaf(bytes(rest), wilds)
            if kept_value + leaf_value > value:
                value, plays = kept_value + leaf_value, kept + leaf_plays
        return base + value, plays + len(jokers)

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
            for start, ranks in enumerate(_WINDOW_RANKS[width]):
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
            for start, ranks in enumerate(_WINDOW_RANKS[5]):
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
                units.append(self._unit(_BY_COUNT[count], rank, bytes(NUM_RANKS), 0, self.same_rank[rank], bits))
        return units

    def _unit(self, kind: ComboType, rank: int, naturals: bytes, wilds: int, value: float, jokers: int = 0) -> Unit:
        code = bytes((kind << 4 | rank,))
        size = sum(naturals) + wilds + (jokers & 3) + (jokers >> 2)
        return Unit(kind, rank, code + naturals + bytes((jokers, wilds)), naturals, wilds, value, size)


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


class GuanDanRulesAgent(Agent):
    """The heuristic GuanDan player ``rules``; exact ties are broken by its own seeded generator."""

    name = "rules"

    def __init__(self, seed: int = 0, config: GuanDanRulesConfig | None = None) -> None:
        self.config = config or GuanDanRulesConfig()
        self.rng = random.Random(seed)

    def act(self, observation: GuanDanObservation, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        scored = self.explain(observation, legal)
        best = [s.action for s in scored if s.score == scored[0].score]
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def explain(self, observation: GuanDanObservation, legal: Sequence[Any]) -> list[ScoredAction]:
        """Every legal action scored, best first: plays in phase "play", gifts in "tribute" and "back"."""
        phase = observation.phase
        if phase == "play":
            scored = _PlayJudge(observation, self.config).scored(legal)
        elif phase == "tribute":
            scored = _tribute_scores(observation, legal)
        elif phase == "back":
            scored = _back_scores(observation, legal, planner(observation.level, self.config.plan))
        else:
            raise AgentError(self.name, observation.seat, f"has nothing to do in phase {phase!r}")
        scored.sort(key=lambda s: -s.score)
        return scored


def _tribute_scores(observation: GuanDanObservation, legal: Sequence[Any]) -> list[ScoredAction]:
    """Tribute: the highest card that is not a wild card (spec "Tribute"); among equal cards, the one
    least likely to make a straight flush."""
    level = observation.level
    mask = _flush_mask(observation.hand, level)
    wild = card_index(level, 0)
    return [ScoredAction(gift, float(power(card_rank(gift.card), level)) - 100.0 * (gift.card == wild)
                         - 0.01 * _flush_weight(UNIT[gift.card], mask)) for gift in legal]


def _back_scores(observation: GuanDanObservation, legal: Sequence[Any], plans: HandPlanner) -> list[ScoredAction]:
    """Back: a card of rank at most 10 whose loss leaves the best plan (DanZero's heuristic: a lone single
    rather than a card of a pair or a chain); among equals the lowest, then the one least likely to make a
    straight flush. Each rank's value is computed once."""
    hand = observation.hand
    plan = plans.plan(hand)
    mask = _flush_mask(hand, observation.level)
    by_rank: dict[int, float] = {}
    scored = []
    for gift in legal:
        rank = card_rank(gift.card)
        if rank not in by_rank:
            value = plans.value_after(plan, hand - UNIT[gift.card])[0]
            by_rank[rank] = value - 100.0 * (rank > _TEN) - 0.01 * rank
        scored.append(ScoredAction(gift, by_rank[rank] - 0.001 * _flush_weight(UNIT[gift.card], mask)))
    return scored


def _flush_mask(hand: int, level: int) -> int:
    """Packed mask of the natural cards that lie with at least two others of their suit within five
    consecutive ranks: the cards a straight flush could use."""
    shift = 8 * level
    profile = (hand - (((hand >> shift) & 3) << shift)).to_bytes(14, "little")
    mask = 0
    for suit in range(4):
        held = [(profile[rank] >> (2 * suit)) & 3 > 0 for rank in POSITION_RANK]
        for start in range(10):
            if sum(held[start:start + 5]) >= 3:
                for position in range(start, start + 5):
                    if held[position]:
                        mask |= 3 * UNIT[card_index(POSITION_RANK[position], suit)]
    return mask


def _flush_weight(packed: int, mask: int) -> int:
    """How many straight-flush cards (``_flush_mask``) the packed cards use, counting copies."""
    return (packed & mask).bit_count()


class _PlayJudge:
    """Scores plays and the pass for one seat's observation in phase "play"."""

    def __init__(self, observation: GuanDanObservation, config: GuanDanRulesConfig) -> None:
        obs = observation
        self.obs = obs
        self.config = config
        self.level = level = obs.level
        self.planner = planner(level, config.plan)
        self.hand = obs.hand
        self.size = sum(obs.hand.to_bytes(14, "little").translate(_COUNT))
        self.plan = self.planner.plan(obs.hand)
        seat = obs.seat
        self.partner = (seat + 2) % 4
        self.partner_cards = obs.cards_left[self.partner]
        self.opponents = [s for s in ((seat + 1) % 4, (seat + 3) % 4) if obs.cards_left[s] > 0]
        self.fewest = min((obs.cards_left[s] for s in self.opponents), default=99)
        self.leading = obs.greater is None
        self.unseen = _Unseen(obs)
        self.flush_mask = _flush_mask(obs.hand, level)

    def scored(self, legal: Sequence[Play]) -> list[ScoredAction]:
        """Every play scored; plays that differ only in suits share a score, less a little for each
        straight-flush card they use."""
        groups: dict[bytes, list[Play]] = {}
        level = self.level
        for play in legal:
            groups.setdefault(signature(play, level), []).append(play)
        scored = []
        mask = self.flush_mask
        for plays in groups.values():
            score = self.score(plays[0])
            scored += [ScoredAction(play, score - 1e-4 * _flush_weight(play >> 8, mask)) for play in plays]
        return scored

    def score(self, play: Play) -> float:
        if play.is_pass:
            return self._pass_value()
        if play.size == self.size:
            return FINISH
        value, plays_after = self.planner.value_after(self.plan, self.hand - play.packed)
        score = value - self.plan.value
        config = self.config
        if self.leading:
            score += config.lead_size * play.size + self._lead_terms(play)
            if plays_after <= 1 and not play.is_bomb and not self.unseen.can_beat(play, level=self.level):
                score += config.sure_win
        elif plays_after <= 1:
            if play.is_bomb:
                score += config.winning_bomb
            elif not self.unseen.can_beat(play, level=self.level):
                score += config.sure_win
        return score

    def _pass_value(self) -> float:
        config = self.config
        assert self.obs.greater is not None
        if self.obs.greater[0] == self.partner:
            return FINISH / 2 if self.partner_cards <= config.partner_close else config.partner_pass
        if self.fewest <= config.danger_cards:
            return config.urgent_pass
        if self.fewest <= config.pressing_cards:
            return config.pressing_pass
        return config.opponent_pass

    def _lead_terms(self, play: Play) -> float:
        config = self.config
        value = 0.0
        cards_left = self.obs.cards_left
        for seat in self.opponents:
            if cards_left[seat] <= config.danger_cards and play.size == cards_left[seat] \
                    and self.unseen.can_beat(play, level=self.level):
                value -= config.lead_into_danger - config.block_rank * play.order(self.level)
        partner_cards = self.partner_cards
        if 0 < partner_cards <= 2 and play.type is _BY_COUNT[partner_cards]:
            value += config.feed_partner - 0.05 * play.order(self.level)
        return value


class _Unseen:
    """The cards a seat has not seen (both decks less its hand and every card played this round), and
    whether they could beat a play without a bomb."""

    def __init__(self, observation: GuanDanObservation) -> None:
        obs = observation
        unseen = sum(2 * unit for unit in UNIT) - obs.hand - sum((play >> 8) & _CARD_BITS for _, play in obs.history)
        shift = 8 * obs.level
        self.wilds = (unseen >> shift) & 3
        profile = (unseen - (self.wilds << shift)).to_bytes(14, "little")
        self.counts = [*list(profile[:NUM_RANKS].translate(_COUNT)), profile[13] & 3, profile[13] >> 2]
        """Natural cards per rank 2..A, then the small and the big joker."""

    def can_beat(self, play: Play, level: int) -> bool:
        """Whether the unseen cards hold a higher play of the same type (bombs aside)."""
        kind = play.type
        if kind in CHAIN_SHAPES:
            if kind is ComboType.STRAIGHT_FLUSH:
                return False
            width, copies = CHAIN_SHAPES[kind]
            first = play.order(level) + 1
            return any(sum(max(0, copies - self.counts[rank]) for rank in ranks) <= self.wilds
                       for ranks in _WINDOW_RANKS[width][first:])
        copies = {ComboType.SINGLE: 1, ComboType.PAIR: 2, ComboType.TRIPS: 3, ComboType.THREE_WITH_TWO: 3}.get(kind)
        if copies is None:
            return False
        floor = power(play.rank, level)
        for rank, count in enumerate(self.counts):
            if power(rank, level) <= floor:
                continue
            if rank >= NUM_RANKS:
                if count >= copies:
                    return True
            elif (count and count + self.wilds >= copies) or (rank == level and self.wilds >= copies):
                return True
        return False
