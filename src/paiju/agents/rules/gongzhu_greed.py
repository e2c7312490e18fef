"""``mr-greed``: Mr. Greed, the strongest of ScrofaZero's hand-written Gongzhu players (§5.1, §8.2, §6.2).

For each legal card Mr. Greed estimates what it is worth to its partnership and plays the best:

- **Sampled deals.** ``samples`` deals of the cards it cannot see, uniformly among those consistent with the
  cards each seat holds and the voids it showed (``paiju.games.gongzhu.sampling``, as ``Gongzhu.determinize``).
- **Finishing the trick.** In each deal the seats after it finish the trick greedily: each plays the card that
  is best for its own partnership given that the later seats answer the same way (a search of the rest of
  the trick, at most three plies). A card is worth to a seat what its partnership gains from the trick (the
  other partnership's gain counts against it) plus the *relief* of no longer holding the card. A trick's
  gain is its points (``POINTS``) to the winner; with C10 in it, a winner without C10 doubles its collected
  points and the trick's and adds the average still to come per seat (``(−200 − points collected) / 4``),
  and a winner who already holds C10 doubles the trick's points.
- **Relief** (``GreedValues``: the experience card values of Table 4) is what a card costs to hold, so what
  shedding it gains: by rank (a high card wins tricks it would rather not); SA −50 and SK −30 while the pig
  SQ is out (another seat holds it); CA −20, CK −15, CQ −10, CJ −5 while C10 is out (0.4, 0.3, 0.2, 0.1 of
  the C10 stake, 50 at the start); DA +30, DK +20, DQ +10 while DJ is out. A guard's value ends with the
  trick in which the card it guards falls: shedding SA on the trick that takes the pig relieves nothing.
  (This last point goes beyond the authors' code, which counts the relief either way; with it, and 20
  sampled deals, the strengths of Table 2 are reproduced.)
- **Leading** in the first ``opening_tricks`` tricks, each suit gains ``short_suit`` per card by which the
  others hold on average more of it than this seat does (voiding a short suit early opens discards).

A card's value is its mean over the sampled deals plus the leading bonus; the highest wins, ties to the lower
card. Playing last needs no sampling: the trick is then known. Every choice depends only on the seats' places
relative to this one, so the agent plays the same game from any seat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from paiju.agents.rules.gongzhu_common import (
    HEARTS,
    PIG,
    POINTS,
    SHEEP,
    TRANSFORMER,
    TableView,
    indices,
    legal_mask,
    suit_of,
)
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES, RANKS, SUIT_MASKS
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.sampling import sample_hidden_hands
from paiju.native import fast

ALL_SCORING_POINTS = -200
"""Sum of ``POINTS`` over the 16 scoring cards: the hearts −200, SQ −100, DJ +100."""


@dataclass(frozen=True, slots=True)
class GreedValues:
    """Mr. Greed's experience card values (ScrofaZero §6.2, Table 4), as the cost of holding a card."""

    rank_burden: tuple[float, ...] = (0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11)
    """Cost of holding a card of rank 2, 3, .., A: high cards win tricks. Applies to spades, diamonds and clubs,
    and to the hearts up to ``heart_burden_top``."""
    heart_burden_top: str = "10"
    """The highest heart that carries a rank burden (higher hearts are weighed by their points)."""
    pig_guards: tuple[tuple[str, float], ...] = (("SA", -50.0), ("SK", -30.0))
    """Holding values while SQ is still out: a high spade may have to take the pig."""
    sheep_guards: tuple[tuple[str, float], ...] = (("DA", 30.0), ("DK", 20.0), ("DQ", 10.0))
    """Holding values while DJ is still out: a high diamond may win it."""
    transformer_guards: tuple[tuple[str, float], ...] = (("CA", 0.4), ("CK", 0.3), ("CQ", 0.2), ("CJ", 0.1))
    """Fractions of the C10 stake lost by holding these clubs while C10 is out (they may have to take it)."""

    def __post_init__(self) -> None:
        # Stored as tuples so that the values hash (``relief_table`` is cached by them) whatever was passed.
        object.__setattr__(self, "rank_burden", tuple(float(value) for value in self.rank_burden))
        for name in ("pig_guards", "sheep_guards", "transformer_guards"):
            object.__setattr__(self, name, tuple((card, float(value)) for card, value in getattr(self, name)))
        if len(self.rank_burden) != len(RANKS):
            raise PaijuError(f"rank_burden needs one value per rank 2..A (13), got {len(self.rank_burden)}")
        if self.heart_burden_top not in RANKS:
            raise PaijuError(f"heart_burden_top must be a rank 2..A, got {self.heart_burden_top!r}")
        for name in ("pig_guards", "sheep_guards", "transformer_guards"):
            for card, _ in getattr(self, name):
                if card not in CARD_INDEX:
                    raise PaijuError(f"{name} names {card!r}, which is not a card name such as 'SA'")


@dataclass(frozen=True, slots=True)
class GreedConfig:
    """Mr. Greed's search and values (see the module docstring)."""

    samples: int = 20
    """Deals of the unseen cards sampled per decision (the authors' code draws 5, an earlier version 20; 20
    reproduces Table 2's strengths)."""
    short_suit: float = 30.0
    """Leading bonus per card by which this seat is shorter in a suit than the others' average."""
    opening_tricks: int = 3
    """The leading bonus applies to the first tricks, this many."""
    values: GreedValues = field(default_factory=GreedValues)

    def __post_init__(self) -> None:
        if not isinstance(self.samples, int) or isinstance(self.samples, bool) or self.samples < 1:
            raise PaijuError(f"samples must be a positive integer, got {self.samples!r}")
        if self.opening_tricks < 0:
            raise PaijuError(f"opening_tricks must be 0 or more, got {self.opening_tricks!r}")


@lru_cache(maxsize=1024)
def relief_table(values: GreedValues, pig_out: bool, sheep_out: bool, transformer_stake: float | None
                 ) -> tuple[float, ...]:
    """Per card, the relief of shedding it (minus its holding value) for a seat to which SQ / DJ are out
    (``pig_out`` / ``sheep_out``: neither played nor held by it) and that faces a C10 stake
    ``transformer_stake`` (None when C10 is not out)."""
    top = RANKS.index(values.heart_burden_top)
    relief = [0.0] * 52
    for card in range(52):
        suit, rank = divmod(card, 13)
        if suit != HEARTS or rank <= top:
            relief[card] = values.rank_burden[rank]
    if pig_out:
        for name, value in values.pig_guards:
            relief[CARD_INDEX[name]] -= value
    if sheep_out:
        for name, value in values.sheep_guards:
            relief[CARD_INDEX[name]] -= value
    if transformer_stake is not None:
        for name, fraction in values.transformer_guards:
            relief[CARD_INDEX[name]] += fraction * transformer_stake
    return tuple(relief)


@dataclass(frozen=True, slots=True)
class Scoreboard:
    """What the collected cards say about a trick's worth: each seat's collected points (``POINTS``), whether
    it holds C10, and the average of the points still to come per seat."""

    points: tuple[int, int, int, int]
    transformer: tuple[bool, bool, bool, bool]
    to_come: int

    @classmethod
    def of(cls, taken: Sequence[int]) -> Scoreboard:
        points = tuple(sum(POINTS[card] for card in indices(mask)) for mask in taken)
        return cls(points=points, transformer=tuple(bool(mask >> TRANSFORMER & 1) for mask in taken),  # type: ignore[arg-type]
                   to_come=(ALL_SCORING_POINTS - sum(points)) // 4)  # type: ignore[arg-type]

    def gain(self, winner: int, points: int, fallen: int, team: int) -> float:
        """What the trick is worth to partnership ``team`` (seat parity) when ``winner`` takes ``points`` and
        the special cards ``fallen`` (``FALLEN`` bits; 4 is C10)."""
        if self.transformer[winner]:
            delta = 2 * points
        elif fallen & 4:
            delta = 2 * points + self.points[winner] + self.to_come
        else:
            delta = points
        return delta if winner & 1 == team else -delta


FALLEN = tuple(1 if card == PIG else 2 if card == SHEEP else 4 if card == TRANSFORMER else 0 for card in range(52))
"""``FALLEN[card]``: the bit a card sets in a trick's set of fallen special cards (SQ 1, DJ 2, C10 4)."""

Reliefs = tuple[tuple[float, ...], ...]
"""One seat's relief tables indexed by the special cards fallen in the trick (``FALLEN`` bits): a guard's value
ends when the card it guards falls."""


class Follower:
    """A seat still to play in a searched trick: its seat, its candidate cards and its relief tables."""

    __slots__ = ("candidates", "follows", "reliefs", "seat")

    def __init__(self, seat: int, hand: int, led_suit: int, reliefs: Reliefs) -> None:
        self.seat = seat
        self.reliefs = reliefs
        following = hand & SUIT_MASKS[led_suit]
        self.follows = bool(following)
        self.candidates = indices(following) if following else discards(hand, reliefs)


class TrickSearch:
    """The end of a trick when the seats still to play each choose greedily (see the module docstring)."""

    __slots__ = ("board", "followers")

    def __init__(self, board: Scoreboard, followers: list[Follower]) -> None:
        self.board = board
        self.followers = followers

    def finish(self, k: int, best: int, winner: int, points: int, fallen: int) -> tuple[int, int, int]:
        """(winning seat, points, fallen special cards) once followers ``k``.. have played to a trick that
        ``winner`` is winning with card ``best``, holding ``points`` and the special cards ``fallen``."""
        if k == len(self.followers):
            return winner, points, fallen
        player = self.followers[k]
        seat, reliefs, gain = player.seat, player.reliefs, self.board.gain
        team = seat & 1
        best_value = -1e18
        best_end = (winner, points, fallen)
        for card in player.candidates:
            if player.follows and card > best:
                end = self.finish(k + 1, card, seat, points + POINTS[card], fallen | FALLEN[card])
            else:
                end = self.finish(k + 1, best, winner, points + POINTS[card], fallen | FALLEN[card])
            value = gain(end[0], end[1], end[2], team) + reliefs[end[2]][card]
            if value > best_value:
                best_value, best_end = value, end
        return best_end


def discard_key(card: int) -> int:
    """What others see of a discard: its points, C10 and the special cards apart."""
    return -1000 - card if FALLEN[card] else POINTS[card]


def discards(hand: int, reliefs: Reliefs) -> list[int]:
    """The discards worth considering from a hand void in the led suit. A discard cannot win the trick, so the
    others see only its points (``discard_key``); of the cards alike to them keep those with the greatest relief
    for some way the trick may end."""
    chosen: set[int] = set()
    for relief in {id(relief): relief for relief in reliefs}.values():
        best: dict[int, int] = {}
        for card in indices(hand):
            key = discard_key(card)
            other = best.get(key)
            if other is None or relief[card] > relief[other]:
                best[key] = card
        chosen.update(best.values())
    return sorted(chosen)


class GongzhuGreedAgent(Agent):
    """Mr. Greed (ScrofaZero §5.1): experience card values plus a search of the current trick over sampled deals.

    Its random draws (the sampled deals) come from its own generator seeded with ``seed``.
    """

    name = "mr-greed"
    score_scale = "the points Mr. Greed expects the card to win (+) or lose (−) for this seat's team"

    def __init__(self, seed: int = 0, config: GreedConfig | None = None) -> None:
        self.config = config or GreedConfig()
        self.rng = random.Random(seed)

    def values(self, observation: GongzhuObservation, legal: Sequence[str]) -> dict[str, float]:
        """Each legal card's expected worth to this partnership (the module docstring), by card name."""
        view = TableView.from_observation(observation)
        allowed = indices(legal_mask(self.name, view.seat, legal))
        totals = self._trick_values(view, allowed)
        bonus = self._lead_bonus(view)
        return {CARD_NAMES[card]: totals[card] + bonus[suit_of(card)] for card in allowed}

    def act(self, observation: GongzhuObservation, legal: Sequence[str]) -> str:
        if len(legal) == 1:
            legal_mask(self.name, observation.seat, legal)
            return legal[0]
        values = self.values(observation, legal)
        return max(legal, key=values.__getitem__)

    def explain(self, observation: GongzhuObservation, legal: Sequence[str]) -> list[ScoredAction]:
        """Every legal card with its expected worth, best first."""
        values = self.values(observation, legal)
        ranked = sorted(legal, key=lambda card: -values[card])
        return [ScoredAction(card, values[card]) for card in ranked]

    # -- the search ----------------------------------------------------------------------------------------

    def _reliefs(self, view: TableView, board: Scoreboard, seat: int, hand: int) -> Reliefs:
        """The relief tables of ``seat`` holding ``hand`` (its own or a sampled one), by fallen special cards."""
        gone = view.played | hand
        pig_out, sheep_out = not gone >> PIG & 1, not gone >> SHEEP & 1
        stake = None if gone >> TRANSFORMER & 1 else -(board.to_come + board.points[seat])
        values = self.config.values
        return tuple(relief_table(values, pig_out and not fallen & 1, sheep_out and not fallen & 2,
                                  None if fallen & 4 else stake) for fallen in range(8))

    def _trick_values(self, view: TableView, allowed: list[int]) -> dict[int, float]:
        """Each allowed card's mean worth from the trick in progress (its gain plus its relief)."""
        return trick_values(self, view, allowed)

    def _sample(self, view: TableView) -> dict[int, int]:
        """A deal of the unseen cards to the other seats (in playing order from this one), uniformly among
        those consistent with their card counts and voids."""
        others = [(view.seat + k) & 3 for k in (1, 2, 3)]
        forbidden = [sum(SUIT_MASKS[suit] for suit in range(4) if view.voids[seat] >> suit & 1) for seat in others]
        hands = sample_hidden_hands(view.unseen, [view.cards_left[seat] for seat in others], forbidden, self.rng)
        return dict(zip(others, hands, strict=True))

    def _lead_bonus(self, view: TableView) -> list[float]:
        """Per suit, the leading bonus for short suits in the opening tricks (zero when following)."""
        if view.trick or view.tricks_done >= self.config.opening_tricks:
            return [0.0] * 4
        bonus = []
        for suit in range(4):
            mine = view.in_suit(suit).bit_count()
            others = (13 - (view.played & SUIT_MASKS[suit]).bit_count() - mine) / 3
            bonus.append((others - mine) * self.config.short_suit)
        return bonus


def trick_values(agent: GongzhuGreedAgent, view: TableView, allowed: list[int]) -> dict[int, float]:
    """``GongzhuGreedAgent._trick_values``: each allowed card's mean worth to ``agent`` from the trick in
    progress (its gain plus its relief), averaged over ``agent.config.samples`` sampled deals."""
    board = Scoreboard.of(view.taken)
    me = view.seat
    team = me & 1
    mine = agent._reliefs(view, board, me, view.hand)
    winner, best, points, fallen = me, -1, 0, 0
    if view.trick:
        winner, best = view.winning()
        for _, card in view.trick:
            points += POINTS[card]
            fallen |= FALLEN[card]
    later = [(me + k) & 3 for k in range(1, 4 - len(view.trick))]
    samples = agent.config.samples if later else 1
    totals = dict.fromkeys(allowed, 0.0)
    for _ in range(samples):
        hands = agent._sample(view) if later else {}
        reliefs = {seat: agent._reliefs(view, board, seat, hands[seat]) for seat in later}
        searches: dict[int, TrickSearch] = {}
        ends: dict[int, tuple[int, int, int]] = {}
        for card in allowed:
            led = view.led_suit if view.trick else suit_of(card)
            if led not in searches:
                searches[led] = TrickSearch(board, [Follower(seat, hands[seat], led, reliefs[seat])
                                                    for seat in later])
            search = searches[led]
            if not view.trick or (suit_of(card) == led and card > best):
                end = search.finish(0, card, me, points + POINTS[card], fallen | FALLEN[card])
            elif suit_of(card) == led:
                end = search.finish(0, best, winner, points + POINTS[card], fallen | FALLEN[card])
            else:  # a discard: the others see only what ``discard_key`` tells apart
                key = discard_key(card)
                if key not in ends:
                    ends[key] = search.finish(0, best, winner, points + POINTS[card], fallen | FALLEN[card])
                end = ends[key]
            totals[card] += board.gain(end[0], end[1], end[2], team) + mine[end[2]][card]
    return {card: total / samples for card, total in totals.items()}


def make_greed_agent(argument: str, seed: int) -> GongzhuGreedAgent:
    """The agent factory of ``mr-greed`` (``mr-greed:N``: N sampled deals per decision)."""
    if not argument:
        return GongzhuGreedAgent(seed)
    if not argument.isdigit() or int(argument) < 1:
        raise PaijuError(f"mr-greed takes no argument or a number of sampled deals such as ':40', got {argument!r}")
    return GongzhuGreedAgent(seed, GreedConfig(samples=int(argument)))


reference_trick_values = trick_values
trick_values = fast("paiju.agents.rules._gongzhu_greed_fast", "trick_values", trick_values)
