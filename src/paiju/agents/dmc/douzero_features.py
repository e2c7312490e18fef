"""DouZero's state and action features (Zha et al. 2021, Tables 4 and 5; ``douzero/env/env.py``, ``get_obs``).

A set of cards is a 54-dim *card row*: for each rank 3..2 (13 ranks, rank-major) four entries, entry ``k``
set when the rank is held at least ``k + 1`` times (DouZero's 4 × 13 matrix flattened column by column),
then the small and the big joker.

``encode`` scores every legal action of one decision at once: ``x`` has one row per legal action — the
state features, the same in every row, followed by the action's card row — and ``z`` the last 15 moves.

Landlord ``x`` (373):

| offset | size | field                                        |
| ------ | ---- | -------------------------------------------- |
| 0      | 54   | own hand                                     |
| 54     | 54   | cards in the other two hands (unseen)        |
| 108    | 54   | the play to beat (zeros when leading)        |
| 162    | 54   | cards played by the up peasant               |
| 216    | 54   | cards played by the down peasant             |
| 270    | 17   | up peasant's cards left, one-hot (n at n-1)  |
| 287    | 17   | down peasant's cards left, one-hot           |
| 304    | 15   | bombs and rockets played so far, one-hot     |
| 319    | 54   | the action                                   |

Peasant ``x`` (484, "teammate" the other peasant):

| offset | size | field                                        |
| ------ | ---- | -------------------------------------------- |
| 0      | 54   | own hand                                     |
| 54     | 54   | cards in the other two hands (unseen)        |
| 108    | 54   | cards played by the landlord                 |
| 162    | 54   | cards played by the teammate                 |
| 216    | 54   | the play to beat (zeros when leading)        |
| 270    | 54   | the landlord's last move (zeros for a pass)  |
| 324    | 54   | the teammate's last move (zeros for a pass)  |
| 378    | 20   | landlord's cards left, one-hot               |
| 398    | 17   | teammate's cards left, one-hot               |
| 415    | 15   | bombs and rockets played so far, one-hot     |
| 430    | 54   | the action                                   |

``z`` (5 × 162): the last 15 moves (passes included) as card rows, oldest first, padded with zero rows in
front; row ``i`` holds moves ``3i, 3i+1, 3i+2``. It is the same for every action, so ``encode`` returns it
once; ``DouZeroFeatures.z_batch`` repeats it per action (a view, no copy) for DouZero's batched model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from paiju.core.errors import PaijuError
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, pack
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.observation import DouDizhuObservation

CARD_ROW = 54
LANDLORD_X = 373
PEASANT_X = 484
HISTORY_MOVES = 15
Z_SHAPE = (5, 3 * CARD_ROW)
MAX_BOMBS = 15


@dataclass(frozen=True, slots=True)
class DouZeroFeatures:
    """DouZero's features of one decision: ``x`` ``[n_legal, 373 | 484]`` and ``z`` ``[5, 162]``, float32."""

    position: str
    x: np.ndarray
    z: np.ndarray

    @property
    def z_batch(self) -> np.ndarray:
        """``z`` repeated for each legal action, ``[n_legal, 5, 162]`` (a read-only broadcast view)."""
        return np.broadcast_to(self.z, (len(self.x), *Z_SHAPE))


_THRESHOLDS = (np.arange(256)[:, None] >= np.arange(1, 5)).astype(np.float32)
"""Row ``n``: DouZero's four entries of a rank held ``n`` times (``[1, 1, 0, 0]`` for a pair)."""
# Of the 60 entries of 15 ranks, rank r's start at 4r: keep all four of 3..2 and each joker's first.
_ROW_COLUMNS = np.r_[0:52, 52, 56]
_DECK_PACKED = pack(FULL_DECK)


def card_rows(card_sets: Sequence[int]) -> np.ndarray:
    """Card rows ``[k, 54]`` float32 of ``k`` card sets in packed form (``cards.pack``, a byte per rank):
    the bytes of all sets, looked up at once in the threshold table."""
    raw = np.frombuffer(b"".join(packed.to_bytes(NUM_RANKS, "little") for packed in card_sets), dtype=np.uint8)
    return _THRESHOLDS[raw].reshape(len(card_sets), 4 * NUM_RANKS)[:, _ROW_COLUMNS]


def encode(observation: DouDizhuObservation, legal: Sequence[Move]) -> DouZeroFeatures:
    """DouZero's ``get_obs`` for ``observation``'s seat and each of the ``legal`` plays (see module doc).

    Card sets are summed in packed form (a byte per rank never overflows: a rank has at most 4 cards), then
    every card row of the decision — state, last 15 moves, actions — is made by one vectorized unpacking.
    """
    obs = observation
    if obs.phase != "play" or obs.landlord is None:
        raise PaijuError(f"DouZero features describe a play decision; this observation is in phase {obs.phase!r}")
    if not legal:
        raise PaijuError("DouZero features need at least one legal play to score")
    played = [0, 0, 0]
    bombs = 0
    for seat, move in obs.history:
        played[seat] += move.packed
        bombs += move.is_bomb
    last_by_seat = [0, 0, 0]
    for seat, move in obs.history[-3:]:  # seats move in turn: each seat's last move is among the last 3
        last_by_seat[seat] = move.packed
    hand = pack(obs.hand)
    unseen = _DECK_PACKED - hand - sum(played)
    follow = obs.follow.packed if obs.follow is not None else 0
    landlord, down, up = obs.landlord, (obs.landlord + 1) % 3, (obs.landlord + 2) % 3
    if obs.seat == landlord:
        sets = [hand, unseen, follow, played[up], played[down]]
        counted = ((obs.cards_left[up], 17), (obs.cards_left[down], 17))
    else:
        mate = down if obs.seat == up else up
        sets = [hand, unseen, played[landlord], played[mate], follow, last_by_seat[landlord], last_by_seat[mate]]
        counted = ((obs.cards_left[landlord], 20), (obs.cards_left[mate], 17))
    recent = [move.packed for _, move in obs.history[-HISTORY_MOVES:]]
    recent = [0] * (HISTORY_MOVES - len(recent)) + recent
    rows = card_rows(sets + recent + [move.packed for move in legal])
    width = CARD_ROW * len(sets)
    state = np.zeros(width + sum(size for _, size in counted) + MAX_BOMBS, dtype=np.float32)
    state[:width] = rows[:len(sets)].ravel()
    for left, size in counted:
        state[width + left - 1] = 1
        width += size
    state[width + bombs] = 1
    x = np.empty((len(legal), len(state) + CARD_ROW), dtype=np.float32)
    x[:, :len(state)] = state
    x[:, len(state):] = rows[len(sets) + HISTORY_MOVES:]
    z = rows[len(sets):len(sets) + HISTORY_MOVES].reshape(Z_SHAPE)
    return DouZeroFeatures(cast(str, obs.position), x, z)


__all__ = ["LANDLORD_X", "PEASANT_X", "Z_SHAPE", "DouZeroFeatures", "card_rows", "encode"]
