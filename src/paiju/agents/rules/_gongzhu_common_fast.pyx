"""Compiled ``TableView.from_observation`` (``gongzhu_common.table_view``): one seat's view as masks.

The reference concatenates the plays, converts each to a (seat, card index) pair and slices them per trick;
here one C loop over the history and the trick reads each card's index from ``CARD_INDEX`` and updates the
played mask, the cards left and the voids in C integers, and the trick's pairs come from a table made once
(tuples are immutable, so views share them).
"""

from libc.stdint cimport uint64_t
from paiju.games.gongzhu._cards_fast cimport mask_of

from paiju.agents.rules import gongzhu_common as reference
from paiju.games.gongzhu.cards import CARD_INDEX

cdef dict INDEX = CARD_INDEX
cdef tuple PLAYS = tuple((seat, card) for seat in range(4) for card in range(52))
"""``PLAYS[52 * seat + card]``: the pair ``(seat, card)``."""


def table_view(cls, observation):
    """``TableView.from_observation``: the masks, counts and voids of ``observation``."""
    history = observation.history
    trick = observation.trick
    cdef Py_ssize_t done = len(history) // 4, n_history = len(history), total = n_history + len(trick), index
    cdef uint64_t played = 0
    cdef long voids[4]
    cdef long left[4]
    cdef int seat, card, led = 0
    for seat in range(4):
        voids[seat] = 0
        left[seat] = 13
    in_trick = []
    for index in range(total):
        player, name = history[index] if index < n_history else trick[index - n_history]
        if not 0 <= player < 4:  # not a seat: the reference decides what that gives
            return reference.reference_table_view(cls, observation)
        seat = player
        card = INDEX[name]
        played |= (<uint64_t>1) << card
        left[seat] -= 1
        if index % 4 == 0:
            led = card // 13
        elif card // 13 != led:
            voids[seat] |= 1 << led
        if index >= 4 * done:
            in_trick.append(PLAYS[52 * seat + card])
    return cls(observation.seat, mask_of(observation.hand), observation.leader, tuple(in_trick), played,
               tuple([mask_of(cards) for cards in observation.taken]), (voids[0], voids[1], voids[2], voids[3]),
               (left[0], left[1], left[2], left[3]), done)
