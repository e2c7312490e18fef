"""What the bid model sees of a 17-card DouDizhu hand: its cards and the shape they make.

Only the hand: the landlord's game a bid wins does not depend on the bidding seat (the landlord always leads)
and the three public cards are unknown while bidding. Per rank 3..2 a thermometer of its count (>= 1, 2, 3, 4
cards), one flag per joker, then the hand's shape as the ``rules`` bidder reads it (``paiju.agents.rules.
bidding``): the fewest plays that empty it (``min_steps``), its bombs, and the rocket.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from paiju.core.errors import PaijuError
from paiju.games.doudizhu.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, TWO, format_cards
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.rules import DouDizhuRules

HAND_SIZE = 17
FEATURES = 4 * (TWO + 1) + 2 + 3
"""52 count thermometers, 2 jokers, plays needed / 10, bombs, rocket."""
_RULES = DouDizhuRules()


def hand_features(hand: Sequence[int]) -> np.ndarray:
    """The ``FEATURES`` float32 features of a 17-card ``hand`` (15 counts, ranks 3..R); ``PaijuError`` otherwise."""
    check_hand(hand)
    x = np.zeros(FEATURES, dtype=np.float32)
    for rank in range(TWO + 1):
        x[4 * rank: 4 * rank + hand[rank]] = 1.0
    base = 4 * (TWO + 1)
    x[base] = hand[SMALL_JOKER]
    x[base + 1] = hand[BIG_JOKER]
    x[base + 2] = min_steps(hand, _RULES) / 10.0
    x[base + 3] = sum(1 for rank in range(TWO + 1) if hand[rank] == 4)
    x[base + 4] = float(hand[SMALL_JOKER] and hand[BIG_JOKER])
    return x


def batch_features(hands: Sequence[Sequence[int]]) -> np.ndarray:
    """``hand_features`` of each hand, stacked (shape ``(len(hands), FEATURES)``)."""
    if not hands:
        return np.zeros((0, FEATURES), dtype=np.float32)
    return np.stack([hand_features(hand) for hand in hands])


def check_hand(hand: Sequence[int]) -> None:
    """``PaijuError`` unless ``hand`` is 15 rank counts (at most 4 of 3..2, 1 of each joker) making 17 cards."""
    counts = list(hand)
    if len(counts) != NUM_RANKS or any(not isinstance(n, int | np.integer) or n < 0 for n in counts):
        raise PaijuError(f"a bid hand is {NUM_RANKS} non-negative rank counts, got {counts!r}")
    if any(n > 4 for n in counts[:TWO + 1]) or counts[SMALL_JOKER] > 1 or counts[BIG_JOKER] > 1:
        raise PaijuError(f"a bid hand holds at most 4 cards of a rank and 1 of each joker, got {counts!r}")
    if sum(counts) != HAND_SIZE:
        raise PaijuError(f"a bid hand holds {HAND_SIZE} cards, got {sum(counts)} ({format_cards(counts)!r})")


__all__ = ["FEATURES", "HAND_SIZE", "batch_features", "check_hand", "hand_features"]
