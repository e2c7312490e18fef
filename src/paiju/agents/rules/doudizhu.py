"""``rules``: a heuristic DouDizhu player in the manner of the strong rule-based bots (RHCP).

Every candidate play is scored from what the seat knows (its hand, the plays so far, the cards each seat
holds — never another hand):

- **plan**: ``step`` per play the hand needs fewer afterwards (the minimum-steps oracle, PerfectDou
  appendix E.1): plays that fit the hand's best decomposition gain ``step``, plays that break it less;
- **spending**: the cost of the cards it gives up — the control cards (aces, 2s, jokers) that win the
  lead back cost the most, bombs and the rocket more again, and so does breaking one for a lesser play;
- **leading**: the weakest combinations first (``lead_rank`` per rank), shedding many cards at once;
- **the table**: finishing the hand; a sure win (a play no opponent can beat, after which at most one
  play of the plan can be beaten); an opponent about to go out (follow at any price, bomb; never lead
  what they can follow to go out; block with the highest card when they play next); a partner about to
  go out (let their play stand; lead them a low card of the size they hold).

Passing is scored too, so that following is a choice: a partner's play is left alone unless beating it
is worth more than ``partner_pass``; an opponent's play is answered when that is worth more than letting
it stand, and always when an opponent is about to go out. Bids come from ``bidding``.

癞子 (``DouDizhuRules.laizi``): the plan counts the plays with the hand's wild cards standing for what helps most
(``wild_steps``); a wild card spent costs at least ``wild_card`` (a control card like a 2) and a bomb
``tier_bomb_cost`` by its tier; the opponents' unseen wild cards may complete their combinations
(``counting.can_beat``).

The scoring of the classic game's plays (``play_scores``) also exists compiled (``_doudizhu_fast``, chosen by
``paiju.native``), with identical scores; ``reference_play_scores`` keeps this Python one, which also scores
the 癞子 game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.agents.rules.bidding import BidConfig, choose_bid
from paiju.agents.rules.counting import can_beat, unseen_cards
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import AgentError
from paiju.games.doudizhu import wild_steps
from paiju.games.doudizhu.cards import BIG_JOKER, SMALL_JOKER, UNIT
from paiju.games.doudizhu.min_steps import decompose, min_steps
from paiju.games.doudizhu.moves import CHAIN_SHAPES, Category, Move
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.native import fast

FINISH = 1000.0
"""Score of a play that empties the hand."""
SURE_WIN = 500.0
"""Bonus of a play after which the rest of the hand cannot be stopped."""

_KICKER_CATEGORIES = {Category.TRIO_SOLO: 3, Category.TRIO_PAIR: 3, Category.PLANE_SOLOS: 3,
                      Category.PLANE_PAIRS: 3, Category.FOUR_TWO_SOLOS: 4, Category.FOUR_TWO_PAIRS: 4}


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """Weights of the play heuristic (see the module docstring)."""

    step: float = 10.0
    """Value of needing one play fewer to empty the hand."""
    card_cost: tuple[float, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0.4, 0.8, 1.5, 3.0, 4.0, 5.0)
    """Cost of giving up one card of each rank 3..2, B, R."""
    bomb_cost: float = 15.0
    """Extra cost of playing a bomb or the rocket, or of breaking one for a lesser play."""
    lead_rank: float = 0.5
    """Cost per rank of a lead's highest main rank (lead the weakest combination first)."""
    lead_size: float = 0.3
    """Value per card a lead sheds."""
    partner_pass: float = 8.0
    """Value of letting a partner's play stand."""
    opponent_pass: float = -10.0
    """Value of letting an opponent's play stand while no opponent is close to going out."""
    urgent_pass: float = -40.0
    """Value of letting an opponent's play stand when some opponent holds ``danger_cards`` or fewer."""
    pressing_pass: float = -12.0
    """Value of letting an opponent's play stand when some opponent holds ``pressing_cards`` or fewer."""
    danger_cards: int = 2
    """An opponent (partner) holding this many cards or fewer is about to go out."""
    pressing_cards: int = 4
    """An opponent holding this many cards or fewer is close to going out."""
    lead_into_danger: float = 40.0
    """Cost of leading what an opponent about to go out could follow with all their cards."""
    block_rank: float = 2.0
    """Value per rank when blocking an opponent about to go out who plays next."""
    feed_partner: float = 20.0
    """Value of leading a low play of the size a partner about to go out holds."""
    winning_bomb: float = 25.0
    """Value of a bomb or rocket on the way to a sure win (each one doubles the score)."""
    kicker_variants: int = 2
    """Kicker choices considered per main part (the cheapest kickers first)."""
    wild_card: float = 4.0
    """癞子: the least cost of giving up one wild card (its rank's ``card_cost`` when higher)."""
    tier_bomb_cost: tuple[float, float, float] = (8.0, 15.0, 20.0)
    """癞子: extra cost of playing a soft, a hard and a wild bomb (the rocket: ``bomb_cost``)."""


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The ``rules`` player's configuration: play weights and bid weights."""

    play: PlayConfig = field(default_factory=PlayConfig)
    bid: BidConfig = field(default_factory=BidConfig)


class DouDizhuRulesAgent(Agent):
    """The heuristic DouDizhu player ``rules``; exact ties are broken by its own seeded generator."""

    name = "rules"
    score_scale = "the heuristic's preference: higher is better, no unit"

    def __init__(self, seed: int = 0, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()
        self.rng = random.Random(seed)

    def act(self, observation: DouDizhuObservation, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if observation.phase == "play":  # the best-scored candidates, as ``explain`` ranks them
            candidates, scores = _scores(observation, legal, self.config.play)
            top = max(scores)
            best = [move for move, score in zip(candidates, scores, strict=True) if score == top]
        else:
            scored = self.explain(observation, legal)
            best = [s.action for s in scored if s.score == scored[0].score]
        return best[0] if len(best) == 1 else best[self.rng.randrange(len(best))]

    def explain(self, observation: DouDizhuObservation, legal: Sequence[Any]) -> list[ScoredAction]:
        """Scored candidates, best first: every bid while bidding; while playing, every play except kicker
        variants beyond the ``kicker_variants`` cheapest per main part."""
        if observation.phase == "bid":
            chosen = choose_bid(observation.hand, legal, observation.rules, self.config.bid)
            return sorted((ScoredAction(b, -float(abs(b - chosen))) for b in legal), key=lambda s: -s.score)
        if observation.phase != "play":
            raise AgentError(self.name, observation.seat, f"has nothing to do in phase {observation.phase!r}")
        candidates, scores = _scores(observation, legal, self.config.play)
        scored = [ScoredAction(move, score) for move, score in zip(candidates, scores, strict=True)]
        scored.sort(key=lambda s: -s.score)
        return scored


def play_scores(observation: DouDizhuObservation, legal: Sequence[Move],
                config: PlayConfig) -> tuple[list[Move], list[float]]:
    """The candidate plays (``_candidates``, in order) and their scores."""
    judge = _PlayJudge(observation, config)
    candidates = _candidates(legal, observation.hand, config, judge.wild)
    return candidates, [judge.score(move) for move in candidates]


def _scores(observation: DouDizhuObservation, legal: Sequence[Move],
            config: PlayConfig) -> tuple[list[Move], list[float]]:
    """``play_scores``: the compiled one for the classic game, this Python one under the 癞子 rules."""
    scorer = reference_play_scores if observation.rules.laizi else play_scores
    return scorer(observation, legal, config)


class _PlayJudge:
    """Scores plays (and the pass) for one seat's observation."""

    def __init__(self, observation: DouDizhuObservation, config: PlayConfig) -> None:
        obs = observation
        assert obs.landlord is not None
        self.obs = obs
        self.config = config
        self.rules = obs.rules
        self.hand = obs.hand
        self.wild = obs.wild if obs.rules.laizi else ()
        self.steps = self._min_steps(obs.hand)
        self.pool = unseen_cards(obs)
        self.landlord = obs.seat == obs.landlord
        self.partner = None if self.landlord else 3 - obs.seat - obs.landlord
        self.opponents = [s for s in range(3) if s != obs.seat and s != self.partner]
        self.next_seat = (obs.seat + 1) % 3
        self.opponent_most = max(obs.cards_left[s] for s in self.opponents)
        self.leading = obs.follow is None
        self.partner_played = not self.leading and obs.follow_seat == self.partner

    # -- scores ------------------------------------------------------------------------------------

    def score(self, move: Move) -> float:
        if move.is_pass:
            return self._pass_value()
        after = tuple(a - b for a, b in zip(self.hand, move.counts, strict=True))
        if not any(after):
            return FINISH
        steps_after = self._min_steps(after)
        value = self.config.step * (self.steps - steps_after) - self._spending(move)
        value += self._lead_terms(move) if self.leading else self._follow_terms(move)
        if steps_after <= 3 and self._wins_out(move, after):
            value += SURE_WIN + (self.config.winning_bomb if move.is_bomb else 0.0)
        return value

    def _min_steps(self, counts: Sequence[int]) -> int:
        return wild_steps.min_steps(counts, self.wild, self.rules) if self.wild else min_steps(counts, self.rules)

    def _pass_value(self) -> float:
        config = self.config
        obs = self.obs
        if self.partner_played:
            if self._must_block(obs.follow):
                return 0.0
            return FINISH / 2 if obs.cards_left[self.partner] <= config.danger_cards else config.partner_pass
        fewest = min(obs.cards_left[s] for s in self.opponents)
        if fewest <= config.danger_cards:
            return config.urgent_pass
        if fewest <= config.pressing_cards:
            return config.pressing_pass
        return config.opponent_pass

    def _spending(self, move: Move) -> float:
        """Cards given up, plus ``bomb_cost`` for a bomb played or broken (the rocket split counts half); 癞子: a
        wild card costs at least ``wild_card``, a bomb played ``tier_bomb_cost`` by its tier."""
        config = self.config
        if self.wild:
            cost = sum(n * _card_cost(r, config, self.wild) for r, n in enumerate(move.counts) if n)
            if move.category is Category.BOMB:
                return cost + config.tier_bomb_cost[move.tier]
        else:
            cost = sum(n * config.card_cost[r] for r, n in enumerate(move.counts) if n)
        if move.is_bomb:
            return cost + config.bomb_cost
        hand = self.hand
        cost += config.bomb_cost * sum(1 for r, n in enumerate(move.counts) if n and hand[r] == 4)
        if hand[SMALL_JOKER] and hand[BIG_JOKER] and (move.counts[SMALL_JOKER] or move.counts[BIG_JOKER]):
            cost += config.bomb_cost / 2
        return cost

    def _lead_terms(self, move: Move) -> float:
        config = self.config
        obs = self.obs
        value = config.lead_size * move.size - config.lead_rank * _top_rank(move)
        for seat in self.opponents:  # they could go out on it: if it must be, the highest such play
            held = obs.cards_left[seat]
            if held <= config.danger_cards and move.size == held and can_beat(self.pool, move, held, self.wild):
                value -= config.lead_into_danger - config.block_rank * _top_rank(move)
        if self.partner is not None:
            held = obs.cards_left[self.partner]
            if held <= config.danger_cards and move.size == held and move.category in (Category.SOLO, Category.PAIR):
                value += config.feed_partner - move.rank
        return value

    def _follow_terms(self, move: Move) -> float:
        if self._must_block(self.obs.follow) and move.category is self.obs.follow.category:
            return self.config.block_rank * move.rank
        return 0.0

    def _must_block(self, follow: Move | None) -> bool:
        """Whether the next seat is an opponent about to go out who could beat ``follow``."""
        nxt = self.next_seat
        held = self.obs.cards_left[nxt]
        return (follow is not None and nxt in self.opponents and held <= self.config.danger_cards
                and can_beat(self.pool, follow, held, self.wild))

    def _wins_out(self, move: Move, after: tuple[int, ...]) -> bool:
        """No opponent can beat ``move``, and at most one play of the rest of the plan can be beaten."""
        if can_beat(self.pool, move, self.opponent_most, self.wild):
            return False
        plan = wild_steps.decompose(after, self.wild, self.rules) if self.wild else decompose(after, self.rules)
        beatable = sum(1 for play in plan if can_beat(self.pool, play, self.opponent_most, self.wild))
        return beatable <= 1


def _top_rank(move: Move) -> int:
    return move.rank + move.length - 1 if move.category in CHAIN_SHAPES else move.rank


def _card_cost(rank: int, config: PlayConfig, wild: Sequence[int]) -> float:
    """``card_cost`` of one card of ``rank``; a wild card's at least ``wild_card``."""
    cost = config.card_cost[rank]
    return max(cost, config.wild_card) if rank in wild else cost


def _candidates(legal: Sequence[Move], hand: Sequence[int], config: PlayConfig,
                wild: Sequence[int] = ()) -> list[Move]:
    """``legal`` less costly kicker choices: per main part (癞子: and the cards that make it), the
    ``kicker_variants`` cheapest kickers — those breaking no larger group first, then the cheapest by
    ``card_cost``, then the lowest."""
    kept: list[Move] = []
    groups: dict[tuple[int, ...], list[tuple[tuple[int, float, int], Move]]] = {}
    for move in legal:
        copies = _KICKER_CATEGORIES.get(move.category)
        if copies is None:
            kept.append(move)
            continue
        main = range(move.rank, move.rank + move.length)
        counts = move.effective_counts if wild else move.counts  # wild kickers stand for their own rank
        kickers = [(rank, n - (copies if rank in main else 0)) for rank, n in enumerate(counts) if n]
        kickers = [(rank, n) for rank, n in kickers if n > 0]
        cost = (sum(1 for rank, n in kickers if hand[rank] > n),
                sum(n * _card_cost(r, config, wild) for r, n in kickers), sum(n * rank for rank, n in kickers))
        key: tuple[int, ...] = (move.category, move.rank, move.length)
        if wild:
            key += (move.packed - sum(n * UNIT[r] for r, n in kickers),)  # the cards of the main part
        groups.setdefault(key, []).append((cost, move))
    for variants in groups.values():
        variants.sort(key=lambda cost_move: cost_move[0])
        kept.extend(move for _, move in variants[:config.kicker_variants])
    return kept


reference_play_scores = play_scores
play_scores = fast("paiju.agents.rules._doudizhu_fast", "play_scores", play_scores)
