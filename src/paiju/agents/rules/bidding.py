"""How much a 17-card DouDizhu hand is worth bidding: control cards against the plays it needs.

The classic rule-bot bid (and DeepRocket's bid module, ``shared/specs/doudizhu.md``): count the control
cards — jokers, 2s, aces, bombs — that win back the lead, against the "tidiness" of the hand, the fewest
plays that empty it (``min_steps``). The three public cards are unknown while bidding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.games.doudizhu.cards import BIG_JOKER, SMALL_JOKER, TWO
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.rules import DouDizhuRules

ACE = TWO - 1


@dataclass(frozen=True, slots=True)
class BidConfig:
    """Weights of the hand strength and the strength each bid asks for."""

    big_joker: float = 4.0
    small_joker: float = 3.0
    rocket: float = 2.0
    """Extra for holding both jokers (an unbeatable bomb)."""
    two: float = 2.0
    ace: float = 1.0
    bomb: float = 5.0
    """Per bomb of 3s..As; a bomb of 2s counts as its four 2s plus this."""
    par_steps: float = 6.0
    """Plays a hand may need before each further play costs ``step``."""
    step: float = 1.0
    thresholds: tuple[float, float, float] = (7.0, 9.0, 11.0)
    """Strength needed to bid 1, 2 and 3."""


def hand_strength(hand: Sequence[int], rules: DouDizhuRules, config: BidConfig = BidConfig()) -> float:
    """Control points (jokers, rocket, 2s, aces, bombs) less ``step`` per play beyond ``par_steps``."""
    strength = config.big_joker * hand[BIG_JOKER] + config.small_joker * hand[SMALL_JOKER]
    if hand[BIG_JOKER] and hand[SMALL_JOKER]:
        strength += config.rocket
    strength += config.two * hand[TWO] + config.ace * hand[ACE]
    strength += config.bomb * sum(1 for r in range(SMALL_JOKER) if hand[r] == 4)
    return strength - config.step * max(0.0, min_steps(hand, rules) - config.par_steps)


def highest_bid(value: float, legal: Sequence[int], thresholds: Sequence[float]) -> int:
    """The highest legal bid k whose threshold ``thresholds[k - 1]`` ``value`` reaches; the lowest legal bid (0, a
    pass) when it reaches none. Monotonic: a larger value never bids less."""
    wanted = sum(1 for threshold in thresholds if value >= threshold)
    return max((bid for bid in legal if bid <= wanted), default=min(legal))


def choose_bid(hand: Sequence[int], legal: Sequence[int], rules: DouDizhuRules,
               config: BidConfig = BidConfig()) -> int:
    """The highest legal bid the hand's strength reaches (0, a pass, when it reaches none)."""
    return highest_bid(hand_strength(hand, rules, config), legal, config.thresholds)
