"""Compiled card-mask conversions of ``cards``: ``cards_of`` and ``mask_of``.

``cards_of`` walks the set bits of the mask (count trailing zeros) and fills a tuple of the interned card
names directly, instead of concatenating four per-suit tuples; ``mask_of`` ORs 64-bit card bits in C.
Masks outside the 52 cards go to the reference, which decides what they give.
"""

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport uint64_t

from paiju.games.gongzhu import cards as reference
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES, FULL_MASK

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long)
    int popcount64 "__builtin_popcountll"(unsigned long long)

cdef tuple NAMES = CARD_NAMES
cdef dict INDEX = CARD_INDEX


def cards_of(mask):
    """The card names of a mask, in card order."""
    if not 0 <= mask <= FULL_MASK:
        return reference.reference_cards_of(mask)
    cdef uint64_t bits = mask
    cdef tuple names = PyTuple_New(popcount64(bits))
    cdef Py_ssize_t position = 0
    cdef object name
    while bits:
        name = NAMES[ctz64(bits)]
        Py_INCREF(name)
        PyTuple_SET_ITEM(names, position, name)
        position += 1
        bits &= bits - 1
    return names


cpdef uint64_t mask_of(cards) except? 0:
    """The mask of some canonical card names (bit ``CARD_INDEX[name]`` set for each)."""
    cdef uint64_t mask = 0
    cdef int index
    for card in cards:
        index = INDEX[card]
        mask |= (<uint64_t>1) << index
    return mask
