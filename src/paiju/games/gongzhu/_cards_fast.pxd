# C-level interface of ``_cards_fast.pyx``, for the other compiled Gongzhu modules.

from libc.stdint cimport uint64_t

cpdef uint64_t mask_of(cards) except? 0
