"""DanZero's state and action features (DanZero §IV-A, spec "DanZero"): the network's 567 inputs.

A set of cards is a 54-vector of counts 0..2 in the card order of ``cards`` (index ``4 * rank + suit``
for 2..A with suits H, S, C, D, then the small and the big joker). From one seat's view:

=======  ====  =================================================================================
offset   size  feature
=======  ====  =================================================================================
0        54    own hand
54       12    wild-card flags (``wild_flags``)
66       54    cards not yet seen: both decks less the own hand and every card played this round
120      54    the play to beat (``greater``); zeros when leading
174      54    the partner's last play this round (zeros for a pass or none yet); -1s once the partner
               has finished
228      162   cards played this round by the next player, the partner, the previous player (3 × 54)
390      84    cards left to the next player, the partner, the previous player (3 × 28 one-hot, 0..27;
               a tribute's receiver holding 28 before giving back counts as 27)
474      39    own team's level, the other team's level, the level played (3 × 13 one-hot, 2..A)
513      54    (action) the action's cards: a play's cards, a tribute or back gift's one card
=======  ====  =================================================================================

paiju adds two blocks, ``danzero-plus`` (``encode_plus``; the paper's 567 alone are ``danzero``):

=======  ====  =================================================================================
offset   size  feature
=======  ====  =================================================================================
513      3     who played the play to beat: the next player, the partner, the previous player
               (zeros when leading)
516      54    (action) the action's cards, as above
570      120   (action) the hand the action leaves, by rank (2..A, small joker, big joker): count >= k
               for k = 1..8
=======  ====  =================================================================================

Both are what the competition's rule bots decide by — whether the play to beat is the partner's, and what
is left to play after a move — and neither is a linear function of the paper's features (the first is the
equality of two 54-vectors, the second a threshold of the hand less the action). With them a network
imitating the ``rules`` player agrees with it on more held-out decisions (``benchmarks/guandan_features.py``;
BENCHMARKS.md).

The paper lists the same blocks in another order with the wild-card flags last; this order is that of
the DanZero authors' client, which puts the flags after the hand. ``encode`` repeats the state for each
legal action and appends the action: one row per action for Q(state, action), as Deep Monte-Carlo scores
every legal action with one batch. A play's cards are read straight from its key's bytes and every
card set goes through one lookup table, so a batch of actions is encoded without a Python loop per card.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paiju.games.guandan.cards import NUM_CARDS, NUM_RANKS, UNIT
from paiju.games.guandan.combos import POSITION_RANK

if TYPE_CHECKING:
    from paiju.games.guandan.observation import GuanDanObservation

CARD_SET_SIZE = NUM_CARDS
NUM_WILD_FLAGS = 12
MAX_CARDS_LEFT = 27
STATE_SIZE = 513
ACTION_SIZE = CARD_SET_SIZE
INPUT_SIZE = STATE_SIZE + ACTION_SIZE

HAND = 0
WILD_FLAGS = HAND + CARD_SET_SIZE
UNSEEN = WILD_FLAGS + NUM_WILD_FLAGS
GREATER = UNSEEN + CARD_SET_SIZE
PARTNER_LAST = GREATER + CARD_SET_SIZE
PLAYED = PARTNER_LAST + CARD_SET_SIZE
"""Cards played by the next player, the partner and the previous player, 54 each."""
CARDS_LEFT = PLAYED + 3 * CARD_SET_SIZE
"""Cards left to the next player, the partner and the previous player, 28 each (one-hot of 0..27)."""
LEVELS = CARDS_LEFT + 3 * (MAX_CARDS_LEFT + 1)
"""Own level, the other team's level, the level played, 13 each (one-hot)."""
assert LEVELS + 3 * NUM_RANKS == STATE_SIZE

WHO_SIZE = 3
RANK_LEVELS = 8
"""Two decks hold at most 8 cards of a rank."""
HAND_AFTER_SIZE = (NUM_RANKS + 2) * RANK_LEVELS
PLUS_STATE_SIZE = STATE_SIZE + WHO_SIZE
PLUS_ACTION_SIZE = ACTION_SIZE + HAND_AFTER_SIZE
PLUS_INPUT_SIZE = PLUS_STATE_SIZE + PLUS_ACTION_SIZE

_FULL_DECKS = sum(2 * unit for unit in UNIT)
"""Both decks as a packed set: two of each card."""
_FIELDS = np.array([[(byte >> (2 * suit)) & 3 for suit in range(4)] for byte in range(256)], dtype=np.float32)
"""Profile byte of a packed set -> its four 2-bit counts (the suits of a rank; the two jokers in byte 13)."""
_COUNT = bytes(sum((byte >> (2 * suit)) & 3 for suit in range(4)) for byte in range(256))
"""Profile byte -> number of cards."""
_CARD_BITS = (1 << 112) - 1


def card_vectors(packed_sets: Sequence[int]) -> np.ndarray:
    """The 54-vectors of packed card sets (``cards.pack``), one row each (float32)."""
    blob = b"".join([packed.to_bytes(14, "little") for packed in packed_sets])
    profiles = np.frombuffer(blob, dtype=np.uint8).reshape(len(packed_sets), 14)
    return _FIELDS[profiles].reshape(len(packed_sets), 56)[:, :CARD_SET_SIZE]


def encode_actions(actions: Sequence[Any]) -> np.ndarray:
    """The ``(n, 54)`` action features: a play's cards (a pass is all zeros), a gift's one card.

    A play is an int key whose bytes 1..14 are its packed cards (``combos.play_key``); a gift (tribute or
    back) has a ``card``.
    """
    blob = b"".join([(action if isinstance(action, int) else UNIT[action.card] << 8).to_bytes(16, "little")
                     for action in actions])
    profiles = np.frombuffer(blob, dtype=np.uint8).reshape(len(actions), 16)[:, 1:15]
    return _FIELDS[profiles].reshape(len(actions), 56)[:, :CARD_SET_SIZE]


def wild_flags(hand: int, level: int) -> list[float]:
    """The 12 wild-card flags of a packed hand at ``level`` (DanZero §IV-A: "whether we have wild cards in
    hand and whether these cards can make up Bombs, Straight Flushes, Straights, or other card types").

    With w the wild cards held, c[r] the hand's natural cards (wild cards excluded) of rank r = 2..A, and
    chain positions A, 2, ..., K, A (the ace low and high), every flag is 0 when w = 0, else:

    ====  ========================================================================================
    flag  meaning
    ====  ========================================================================================
    0     holds a wild card
    1     a straight flush is within reach: some suit's natural cards fill at least 5 - w places of
          some five consecutive chain positions
    2-7   thermometer of m = max c[r]: flag 2 + k is m >= k + 2 (k = 0..5; a bomb needs m + w >= 4)
    8     a wild card completes a straight: some five consecutive positions hold 5 - w to 4 ranks
    9     a wild card completes a plate (TwoTrips): two adjacent positions with sum min(c, 3) in
          6 - w .. 5
    10    a wild card completes a tube (ThreePair): three adjacent positions with sum min(c, 2) in
          6 - w .. 5
    11    a wild card completes a full house: ranks t != p, c[t] >= 1, min(c[t], 3) + min(c[p], 2)
          in 5 - w .. 4
    ====  ========================================================================================
    """
    shift = 8 * level
    wilds = (hand >> shift) & 3
    flags = [0.0] * NUM_WILD_FLAGS
    if not wilds:
        return flags
    natural = hand - (wilds << shift)
    profile = natural.to_bytes(14, "little")[:NUM_RANKS]
    counts = profile.translate(_COUNT)
    by_position = [counts[rank] for rank in POSITION_RANK]
    flags[0] = 1.0
    flags[1] = float(_straight_flush_within_reach(profile, wilds))
    most = max(counts)
    for k in range(6):
        flags[2 + k] = float(most >= k + 2)
    flags[8] = float(any(5 - wilds <= sum(c > 0 for c in by_position[p:p + 5]) <= 4 for p in range(10)))
    flags[9] = float(any(6 - wilds <= min(a, 3) + min(b, 3) <= 5 for a, b in itertools.pairwise(by_position)))
    flags[10] = float(any(6 - wilds <= sum(min(c, 2) for c in by_position[p:p + 3]) <= 5 for p in range(12)))
    flags[11] = float(any(5 - wilds <= min(counts[t], 3) + min(counts[p], 2) <= 4
                          for t in range(NUM_RANKS) if counts[t] for p in range(NUM_RANKS) if p != t))
    return flags


def _straight_flush_within_reach(profile: bytes, wilds: int) -> bool:
    """Whether some suit fills at least ``5 - wilds`` places of five consecutive chain positions."""
    for suit in range(4):
        held = [(profile[rank] >> (2 * suit)) & 3 > 0 for rank in POSITION_RANK]
        if any(sum(held[p:p + 5]) >= 5 - wilds for p in range(10)):
            return True
    return False


def encode_state(observation: GuanDanObservation) -> np.ndarray:
    """The 513 state features of ``observation`` (layout in the module docstring), float32."""
    obs = observation
    seat = obs.seat
    others = ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
    partner = others[1]
    played = [0, 0, 0, 0]
    partner_last = 0
    for player, play in obs.history:
        packed = (play >> 8) & _CARD_BITS
        played[player] += packed
        if player == partner:
            partner_last = packed
    greater = 0 if obs.greater is None else (obs.greater[1] >> 8) & _CARD_BITS
    unseen = _FULL_DECKS - obs.hand - sum(played)
    sets = card_vectors([obs.hand, unseen, greater, partner_last, *(played[s] for s in others)])
    state = np.zeros(STATE_SIZE, dtype=np.float32)
    state[HAND:HAND + CARD_SET_SIZE] = sets[0]
    state[WILD_FLAGS:WILD_FLAGS + NUM_WILD_FLAGS] = wild_flags(obs.hand, obs.level)
    state[UNSEEN:PARTNER_LAST] = sets[1:3].reshape(-1)
    if partner in obs.finished:
        state[PARTNER_LAST:PLAYED] = -1.0
    else:
        state[PARTNER_LAST:PLAYED] = sets[3]
    state[PLAYED:CARDS_LEFT] = sets[4:].reshape(-1)
    for block, player in enumerate(others):
        state[CARDS_LEFT + block * (MAX_CARDS_LEFT + 1) + min(obs.cards_left[player], MAX_CARDS_LEFT)] = 1.0
    for block, level in enumerate((obs.self_level, obs.oppo_level, obs.level)):
        state[LEVELS + block * NUM_RANKS + level] = 1.0
    return state


def rank_counts(vectors: np.ndarray) -> np.ndarray:
    """``(n, 54)`` card vectors -> ``(n, 15)`` cards per rank (2..A, small joker, big joker)."""
    return np.concatenate([vectors[:, :4 * NUM_RANKS].reshape(len(vectors), NUM_RANKS, 4).sum(axis=2),
                           vectors[:, 4 * NUM_RANKS:]], axis=1)


_LEVELS = np.arange(1, RANK_LEVELS + 1, dtype=np.float32)


def encode_plus(observation: GuanDanObservation, legal: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The ``danzero-plus`` features: the ``(516,)`` state and the ``(n, 174)`` actions (module docstring)."""
    state = np.zeros(PLUS_STATE_SIZE, dtype=np.float32)
    state[:STATE_SIZE] = encode_state(observation)
    if observation.greater is not None:
        state[STATE_SIZE + (observation.greater[0] - observation.seat) % 4 - 1] = 1.0
    cards = encode_actions(legal)
    left = rank_counts(state[None, HAND:HAND + CARD_SET_SIZE]) - rank_counts(cards)
    actions = np.empty((len(legal), PLUS_ACTION_SIZE), dtype=np.float32)
    actions[:, :ACTION_SIZE] = cards
    actions[:, ACTION_SIZE:] = (left[:, :, None] >= _LEVELS).reshape(len(legal), HAND_AFTER_SIZE)
    return state, actions


def encode(observation: GuanDanObservation, legal: Sequence[Any]) -> np.ndarray:
    """The ``(n, 567)`` network inputs: the state repeated for each of the ``n`` legal actions, then the
    action's features (DanZero §IV-A: "the input is the concatenation of the state and action features")."""
    rows = np.empty((len(legal), INPUT_SIZE), dtype=np.float32)
    rows[:, :STATE_SIZE] = encode_state(observation)
    rows[:, STATE_SIZE:] = encode_actions(legal)
    return rows
