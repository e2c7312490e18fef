"""ScrofaZero's network input: 434 numbers for the player to move (ScrofaZero §8.4–§8.5, §8.13).

=========================  =====  ==========================================================================
block                      size   content
=========================  =====  ==========================================================================
hands ``[0, 208)``         52×4   the four hands, acting player first, then the next seats in play order:
                                  row ``r`` is seat me+r's hand, column ``13 * suit + rank`` per card
trick ``[208, 370)``       54×3   the cards already on the table this trick, one 54-slot row per earlier
                                  seat, most recent first: row 0 the card of seat me−1 (the previous
                                  player), row 1 me−2, row 2 me−3 (the leader when I play fourth); rows of
                                  seats that have not played are zero. "Diffuse" one-hot (§8.5): card ``k``
                                  sits at slot ``k + 1`` and sets its neighbours too (slots ``k .. k + 2``),
                                  so S2 (slot 1) and CA (slot 52) have the end slots 0 and 53 beside them
collected ``[370, 434)``   16×4   the scoring cards each seat has collected, same relative seat order;
                                  columns in ``scoring.SCORING_CARDS`` order (SQ, H2 .. HA, DJ, C10)
=========================  =====  ==========================================================================

Readings where the paper is silent: the paper lists the blocks as hands, trick, collected, and this module
keeps that order (the authors' code concatenates hands, collected, trick — the order does not matter to a
network trained from scratch). The row order of the trick, most recent first, is the authors'
(``four_cards_oh``: "anti-relative order [me-1, me-2, me-3]"), so each row always means the same relative seat.
The authors' code places card ``k`` at slots ``k - 1 .. k + 1`` of 0-based indices, which drops S2 in row 0 and
never uses slot 53; the layout above is what §8.5 describes (54 slots "to diffuse the element at two
endpoints"). The authors order the 16 scoring cards hearts first; here they follow card order like the rest of
the engine.

The acting player is the state's ``to_move``. A scenario (a full ``GongzhuState`` dealt by
``Gongzhu.determinize`` or ``scenarios`` from one seat's observation) is encoded by the same functions.
``average_others=True`` gives §8.13's input for a player who cannot see the other hands (IEC): each of the three
other rows holds 1/3 on every card any other seat holds ("triple-1/3-hot"), which depends only on what the acting
seat can see.

Speed: states are packed into one ``uint64`` array of masks (4 hands, 4 collected) and unpacked with one
``np.unpackbits``; the ≤ 3 trick cards become one fancy-index assignment per batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from paiju.games.gongzhu.cards import CARD_INDEX, NUM_CARDS
from paiju.games.gongzhu.scoring import SCORING_CARDS
from paiju.games.gongzhu.state import GongzhuState

TRICK_SLOTS = 54
"""Slots per trick row: 52 cards and one more at each end for the diffuse neighbours (§8.5)."""
HANDS_START = 0
TRICK_START = HANDS_START + 4 * NUM_CARDS
COLLECTED_START = TRICK_START + 3 * TRICK_SLOTS
INPUT_SIZE = COLLECTED_START + 4 * len(SCORING_CARDS)
"""434 = 52×4 + 54×3 + 16×4."""

_SCORING_INDICES = np.array([CARD_INDEX[card] for card in SCORING_CARDS], dtype=np.intp)
_DIFFUSE = np.arange(3, dtype=np.intp)


def encode_state(state: GongzhuState, average_others: bool = False) -> np.ndarray:
    """The 434 inputs (float32) of one state, for its player to move."""
    return encode_batch([state], average_others=average_others)[0]


def encode_batch(states: Sequence[GongzhuState], out: np.ndarray | None = None,
                 average_others: bool = False) -> np.ndarray:
    """The inputs of ``states``, row ``i`` for ``states[i]``, written into ``out[:len(states)]`` (float32, at least
    ``len(states)`` rows of ``INPUT_SIZE``; allocated when not given) and returned as that slice."""
    count = len(states)
    out = _rows(out, count)
    masks: list[int] = []
    rows: list[int] = []
    slots: list[int] = []
    for row, state in enumerate(states):
        if state.over:
            raise ValueError(f"state {row} of the batch is over: there is no player to move to encode for")
        me = state.to_move
        hands, taken = state.hands, state.taken
        masks += (hands[me], hands[(me + 1) & 3], hands[(me + 2) & 3], hands[(me + 3) & 3],
                  taken[me], taken[(me + 1) & 3], taken[(me + 2) & 3], taken[(me + 3) & 3])
        for position, card in enumerate(reversed(state.trick)):
            rows.append(row)
            slots.append(TRICK_START + TRICK_SLOTS * position + card)
    bits = _unpack(np.array(masks, dtype=np.uint64).reshape(count, 8))
    out[:, HANDS_START:TRICK_START] = bits[:, :4, :NUM_CARDS].reshape(count, 4 * NUM_CARDS)
    if average_others:
        others = bits[:, 1:4, :NUM_CARDS].sum(axis=1, dtype=np.float32) / 3
        out[:, HANDS_START + NUM_CARDS:TRICK_START] = np.tile(others, 3)
    out[:, TRICK_START:COLLECTED_START] = 0
    if rows:
        out[np.array(rows)[:, None], np.array(slots)[:, None] + _DIFFUSE] = 1
    out[:, COLLECTED_START:] = bits[:, 4:, _SCORING_INDICES].reshape(count, 4 * len(SCORING_CARDS))
    return out


def legal_masks(states: Sequence[GongzhuState]) -> np.ndarray:
    """The legal cards of each state's player to move, as booleans ``[len(states), 52]`` (``state.legal_mask``)."""
    masks = np.array([state.legal_mask() for state in states], dtype=np.uint64).reshape(len(states), 1)
    return _unpack(masks)[:, 0, :NUM_CARDS].astype(bool)


def _unpack(masks: np.ndarray) -> np.ndarray:
    """Bits of card masks: ``[n, k]`` uint64 -> ``[n, k, 64]`` uint8, bit ``i`` (card ``i``) at ``[..., i]``."""
    count, width = masks.shape
    octets = masks.astype("<u8", copy=False).view(np.uint8)
    return np.unpackbits(octets, axis=1, bitorder="little").reshape(count, width, 64)


def _rows(out: np.ndarray | None, count: int) -> np.ndarray:
    """The first ``count`` rows of ``out``, checked, or a new array."""
    if out is None:
        return np.empty((count, INPUT_SIZE), dtype=np.float32)
    if out.dtype != np.float32 or out.ndim != 2 or out.shape[1] != INPUT_SIZE or out.shape[0] < count:
        raise ValueError(f"out must be a float32 array of at least {count} rows of {INPUT_SIZE}, "
                         f"got {out.dtype} {out.shape}")
    return out[:count]


__all__ = ["COLLECTED_START", "HANDS_START", "INPUT_SIZE", "TRICK_SLOTS", "TRICK_START", "encode_batch",
           "encode_state", "legal_masks"]
