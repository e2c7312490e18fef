"""DouZero's features (``douzero_features``) for 癞子 DouDizhu: what the wild cards change, added.

As DanZero's features flag GuanDan's wild cards, the state gains the wild ranks and each action what it stands for
and how many wild cards it spends:

| part   | extra | field                                                                  |
| ------ | ----- | ---------------------------------------------------------------------- |
| state  | 13    | the wild ranks, one-hot over 3..2                                      |
| action | 54    | the cards the play stands for (``Move.effective_counts``), a card row  |
| action | 9     | the wild cards it spends (0..8), one-hot                               |

A row is DouZero's state, the wild ranks, then DouZero's action row and the two action blocks: landlord 449,
peasant 560. ``z`` (the last 15 moves) is DouZero's, of the cards played.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from paiju.agents.dmc import douzero_features as douzero
from paiju.games.doudizhu.cards import TWO, pack
from paiju.games.doudizhu.moves import Move, on_forget
from paiju.games.doudizhu.observation import DouDizhuObservation

WILD_STATE = TWO + 1
WILD_SPENT = 9
ACTION = 2 * douzero.CARD_ROW + WILD_SPENT
LANDLORD_X = douzero.LANDLORD_X + WILD_STATE + douzero.CARD_ROW + WILD_SPENT
PEASANT_X = douzero.PEASANT_X + WILD_STATE + douzero.CARD_ROW + WILD_SPENT
_STANDS: dict[Move, int] = {}
"""Packed cards each play stands for, by play (plays are interned; forgotten with them)."""
on_forget(_STANDS.clear)


def encode(observation: DouDizhuObservation, legal: Sequence[Move]) -> douzero.DouZeroFeatures:
    """The 癞子 features of ``observation``'s seat and each of the ``legal`` plays (see module doc)."""
    base = douzero.encode(observation, legal)
    state_size = base.x.shape[1] - douzero.CARD_ROW
    x = np.zeros((len(legal), state_size + WILD_STATE + ACTION), dtype=np.float32)
    x[:, :state_size] = base.x[:, :state_size]
    for rank in observation.wild:
        x[:, state_size + rank] = 1
    action = state_size + WILD_STATE
    x[:, action:action + douzero.CARD_ROW] = base.x[:, state_size:]
    stands = []
    for move in legal:
        packed = _STANDS.get(move)
        if packed is None:
            packed = _STANDS[move] = pack(move.effective_counts)
        stands.append(packed)
    x[:, action + douzero.CARD_ROW:action + 2 * douzero.CARD_ROW] = douzero.card_rows(stands)
    spent = [sum(move.counts[rank] for rank in observation.wild) for move in legal]
    x[np.arange(len(legal)), action + 2 * douzero.CARD_ROW + np.array(spent, dtype=np.int64)] = 1
    return douzero.DouZeroFeatures(base.position, x, base.z)


__all__ = ["ACTION", "LANDLORD_X", "PEASANT_X", "encode"]
