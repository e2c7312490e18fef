"""Compiled ``GongzhuState`` methods: ``legal_mask``, ``legal_actions``, ``apply``, ``play`` and ``observation``.

The state keeps its Python attributes (hands and collected cards as masks in lists, plays as (seat, card)
tuples); these functions, bound as the class's methods, read them into 64-bit masks and C integers, decide the
trick in C and build the results from tables made once: the card names, and the (seat, card index) and
(seat, card name) pairs of every seat and card (tuples are immutable, so the state and the observations can
share them).
"""

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint64_t

from paiju.core.errors import IllegalActionError
from paiju.games.gongzhu import state as reference
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES, cards_of
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.scoring import SCORING_MASK

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long)

cdef uint64_t SUIT_BITS = (1 << 13) - 1
cdef uint64_t SCORING = SCORING_MASK
cdef int TRICKS = reference.TRICKS
cdef tuple NAMES = CARD_NAMES
cdef dict INDEX = CARD_INDEX
cdef tuple PLAYS = tuple((seat, card) for seat in range(4) for card in range(52))
"""``PLAYS[52 * seat + card]``: the pair ``(seat, card)`` recorded in ``state.actions``."""
cdef tuple NAMED_PLAYS = tuple((seat, name) for seat in range(4) for name in CARD_NAMES)
"""``NAMED_PLAYS[52 * seat + card]``: the pair ``(seat, card name)`` of observations."""


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``cards.SUIT_BITS``), for
    ``tests/native/test_constants.py``."""
    return {"SUIT_BITS": SUIT_BITS}


cdef uint64_t mask_to_play(state) except? 0:
    """The current player's legal cards: the led suit if it holds any, else its whole hand (not over)."""
    cdef uint64_t hand = state.hands[state.to_move], following
    trick = state.trick
    if trick:
        following = hand & (SUIT_BITS << (13 * (<int>trick[0] // 13)))
        if following:
            return following
    return hand


def legal_mask(state):
    """``GongzhuState.legal_mask``."""
    if state.over:
        return 0
    return mask_to_play(state)


def legal_actions(state):
    """``GongzhuState.legal_actions``: the legal cards' names in card order."""
    if state.over:
        return []
    cdef uint64_t bits = mask_to_play(state)
    cdef list names = []
    while bits:
        names.append(NAMES[ctz64(bits)])
        bits &= bits - 1
    return names


def apply(state, action, seat=None):
    """``GongzhuState.apply``: play card ``action`` (a name, or its JSON form) for ``seat``, checked."""
    if state.over:
        raise IllegalActionError("the game is over; no more cards can be played")
    if seat is not None and seat != state.to_move:
        raise IllegalActionError(f"seat {seat} played out of turn: seat {state.to_move} is to play")
    card = INDEX.get(action) if isinstance(action, str) else None
    if card is None:
        card = INDEX[state.action_from_json(action)]
    if not mask_to_play(state) >> <int>card & 1:
        raise IllegalActionError(state._why_illegal(card))
    play_card(state, card)


def play(state, card):
    """``GongzhuState.play``: play card index ``card`` for the current player without checking it."""
    if not 0 <= card < 52:
        return reference.reference_play(state, card)
    play_card(state, card)


cdef void play_card(state, int card) except *:
    cdef int player = state.to_move, first, best, position, index, other, winner, led
    cdef list hands = state.hands, trick = state.trick, taken
    hands[player] = <uint64_t>hands[player] & ~((<uint64_t>1) << card)
    state.actions.append(PLAYS[52 * player + card])
    trick.append(card)
    if len(trick) < 4:
        state.to_move = (player + 1) & 3
        return
    first = trick[0]
    led = first // 13
    best, position = first, 0
    cdef uint64_t won = (<uint64_t>1) << first
    for index in range(1, 4):
        other = trick[index]
        won |= (<uint64_t>1) << other
        if other > best and other // 13 == led:
            best, position = other, index
    winner = (<int>state.leader + position) & 3
    taken = state.taken
    taken[winner] = <uint64_t>taken[winner] | (won & SCORING)
    winners = state.winners
    winners.append(winner)
    state.trick = []
    state.leader = state.to_move = winner
    state.over = len(winners) == TRICKS


def observation(state, seat):
    """``GongzhuState.observation``: what ``seat`` sees."""
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"a Gongzhu seat is 0-3, got {seat!r}")
    cdef list actions = state.actions
    cdef Py_ssize_t done = 4 * len(state.winners), count = len(actions), index
    cdef tuple history = PyTuple_New(done), trick = PyTuple_New(count - done)
    cdef object pair
    cdef int player, card
    for index in range(count):
        player, card = actions[index]
        pair = NAMED_PLAYS[52 * player + card]
        Py_INCREF(pair)
        if index < done:
            PyTuple_SET_ITEM(history, index, pair)
        else:
            PyTuple_SET_ITEM(trick, index - done, pair)
    return GongzhuObservation(
        seat=seat, phase="over" if state.over else "play", hand=cards_of(state.hands[seat]), leader=state.leader,
        trick=trick, history=history, taken=tuple([cards_of(mask) for mask in state.taken]), rules=state.rules)
