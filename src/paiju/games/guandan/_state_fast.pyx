"""Compiled play-phase steps of ``state.GuanDanState``: ``legal_actions`` and ``apply``.

A play taken from the legal list of the position (the very object: found by a pointer scan of the list) has
passed every check that ``apply`` makes — held, a reading of its cards, beating the play to beat — so it is
applied at once, the trick and turn bookkeeping of ``GuanDanState._play`` done with C integers. Anything
else (gifts, plays built elsewhere, wrong seats, a finished game) goes to the reference methods, which check
and refuse with their messages.
"""

cimport cython
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.object cimport PyObject

from paiju.games.guandan.combos import PASS
from paiju.games.guandan.legal import legal_plays
from paiju.games.guandan.state import PLAY_PHASE, reference_apply, reference_legal_actions

cdef object _CARD_BITS = (1 << 112) - 1


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules', for
    ``tests/native/test_constants.py``."""
    return {"CARD_BITS": _CARD_BITS}


def legal_actions(self):
    """``GuanDanState.legal_actions``: in the play phase ``legal.legal_plays`` of the seat to move, made once
    per position."""
    legal = self._legal
    if legal is None:
        if self._phase != PLAY_PHASE:
            return reference_legal_actions(self)
        legal = self._legal = legal_plays(self.hands[self._to_move], self.standing.level, self._greater)
    return legal


cdef bint _listed(list legal, object action) noexcept:
    """Whether ``action`` is one of the objects in ``legal``."""
    cdef Py_ssize_t i
    for i in range(PyList_GET_SIZE(legal)):
        if PyList_GET_ITEM(legal, i) == <PyObject *>action:
            return True
    return False


@cython.boundscheck(True)
@cython.wraparound(True)
def apply(self, action, seat=None):
    """``GuanDanState.apply``: a play from this position's legal list is applied directly (``_play``), anything
    else by the reference, which checks it."""
    legal = self._legal
    player = self._to_move
    if (type(legal) is not list or not _listed(<list>legal, action) or self._phase != PLAY_PHASE
            or (seat is not None and seat != player)):
        return reference_apply(self, action, seat)
    cdef int seat_to_move = player
    cdef list hands = self.hands
    packed = action >> 8 & _CARD_BITS
    if packed == hands[seat_to_move] and not hands[seat_to_move ^ 2]:
        self._prepare_next_round(seat_to_move)
    self.actions.append((player, action))
    self._legal = None
    _play(self, hands, seat_to_move, player, action, packed)


@cython.boundscheck(True)
@cython.wraparound(True)
cdef int _play(self, list hands, int seat, object player, object play, object packed) except -1:
    """``GuanDanState._play``: a pass ends the trick when every other seat holding cards has passed in a row
    (the last player leads, or its partner if it has finished); a play takes the trick, and a seat that empties
    its hand finishes (both of a team: the round ends)."""
    cdef int top, active, passes
    self.history.append((player, play))
    if play == PASS:
        passes = self._passes + 1
        self._passes = passes
        top = self._greater_seat
        active = 0
        for hand in hands:
            active += bool(hand)
        if passes >= (active - 1 if hands[top] else active):
            self._greater = None
            self._passes = 0
            self._to_move = top if hands[top] else top ^ 2
        else:
            self._to_move = _next_active(hands, seat)
        return 0
    hands[seat] -= packed
    self._greater = play
    self._greater_seat = player
    self._passes = 0
    if not hands[seat]:
        self.finished.append(player)
        if not hands[seat ^ 2]:
            self._end_round()
            return 0
    self._to_move = _next_active(hands, seat)
    return 0


cdef int _next_active(list hands, int seat) except -1:
    """The next seat after ``seat`` in turn order that still holds cards."""
    cdef int step, other
    for step in range(1, 4):
        other = (seat + step) & 3
        if hands[other]:
            return other
    raise AssertionError("no seat holds cards in a round that is not over")
