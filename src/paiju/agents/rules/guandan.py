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
from typing import TYPE_CHECKING, Any

from paiju.agents.rules.guandan_plan import (
    BY_COUNT,
    CARD_BITS,
    COUNT,
    WINDOW_RANKS,
    HandPlanner,
    PlanConfig,
    planner,
    signature,
)
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import AgentError
from paiju.games.guandan.cards import NUM_RANKS, UNIT, card_index, card_rank
from paiju.games.guandan.combos import (
    CHAIN_SHAPES,
    POSITION_RANK,
    ComboType,
    Play,
    power,
)
from paiju.native import fast

if TYPE_CHECKING:
    from paiju.games.guandan.observation import GuanDanObservation

FINISH = 1000.0
"""Score of a play that empties the hand."""
TEN = 8
"""Rank index of the 10: a card given back has rank at most 10 (spec "Tribute")."""
BOTH_DECKS = sum(2 * unit for unit in UNIT)
"""The packed set of all 108 cards."""

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


class GuanDanRulesAgent(Agent):
    """The heuristic GuanDan player ``rules``; exact ties are broken by its own seeded generator."""

    name = "rules"
    score_scale = "the heuristic's preference: higher is better, no unit"

    def __init__(self, seed: int = 0, config: GuanDanRulesConfig | None = None) -> None:
        self.config = config or GuanDanRulesConfig()
        self.rng = random.Random(seed)

    def act(self, observation: GuanDanObservation, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if observation.phase == "play":  # the top of ``explain``'s ranking, without its list
            plays, scores = play_scores(_PlayJudge(observation, self.config), legal)
            top = max(scores)
            best = [play for play, score in zip(plays, scores, strict=True) if score == top]
        else:
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
            by_rank[rank] = value - 100.0 * (rank > TEN) - 0.01 * rank
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
        self.size = sum(obs.hand.to_bytes(14, "little").translate(COUNT))
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
        """Every play scored (``play_scores``)."""
        plays, scores = play_scores(self, legal)
        return list(map(ScoredAction, plays, scores))

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
        if 0 < partner_cards <= 2 and play.type is BY_COUNT[partner_cards]:
            value += config.feed_partner - 0.05 * play.order(self.level)
        return value


class _Unseen:
    """The cards a seat has not seen (both decks less its hand and every card played this round), and
    whether they could beat a play without a bomb."""

    def __init__(self, observation: GuanDanObservation) -> None:
        obs = observation
        unseen = BOTH_DECKS - obs.hand - played_cards(obs.history)
        shift = 8 * obs.level
        self.wilds = (unseen >> shift) & 3
        profile = (unseen - (self.wilds << shift)).to_bytes(14, "little")
        self.counts = [*list(profile[:NUM_RANKS].translate(COUNT)), profile[13] & 3, profile[13] >> 2]
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
                       for ranks in WINDOW_RANKS[width][first:])
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


def play_scores(judge: _PlayJudge, legal: Sequence[Play]) -> tuple[list[Play], list[float]]:
    """Every play and its score (``_PlayJudge.score``), grouped: plays that differ only in suits (same
    ``signature``) are scored once, in the order their groups first appear in ``legal``, each less a little
    for each straight-flush card it uses."""
    groups: dict[bytes, list[Play]] = {}
    level = judge.level
    for play in legal:
        groups.setdefault(signature(play, level), []).append(play)
    plays: list[Play] = []
    scores: list[float] = []
    mask = judge.flush_mask
    for group in groups.values():
        score = judge.score(group[0])
        plays += group
        scores += [score - 1e-4 * _flush_weight(play >> 8, mask) for play in group]
    return plays, scores


def play_values(observation: GuanDanObservation, legal: Sequence[Play],
                config: GuanDanRulesConfig | None = None) -> list[float]:
    """The ``rules`` player's score of each play of ``legal`` (phase "play"), in ``legal``'s order: the player
    plays a highest-scored one (``play_scores``)."""
    plays, scores = play_scores(_PlayJudge(observation, config or GuanDanRulesConfig()), legal)
    by_play = dict(zip(plays, scores, strict=True))
    return [by_play[play] for play in legal]


def played_cards(history: Sequence[tuple[int, Play]]) -> int:
    """The packed set of the cards of the plays in ``history`` ((seat, play) pairs)."""
    return sum((play >> 8) & CARD_BITS for _, play in history)


reference_play_scores = play_scores
reference_played_cards = played_cards
reference_flush_mask = _flush_mask
play_scores = fast("paiju.agents.rules._guandan_plan_fast", "play_scores", play_scores)
played_cards = fast("paiju.agents.rules._guandan_plan_fast", "played_cards", played_cards)
_flush_mask = fast("paiju.agents.rules._guandan_plan_fast", "flush_mask", _flush_mask)
