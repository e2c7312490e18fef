# The DouDizhu constants as C enums, for the compiled modules (``cimport``): the ranks of ``cards`` and the
# play categories of ``moves.Category`` (their values must stay those of the Python modules).

cdef enum:
    NUM_RANKS = 15
    TWO = 12
    SMALL_JOKER = 13
    BIG_JOKER = 14
    TOP_CHAIN = 11  # ``moves.HIGHEST_CHAIN_RANK``: chains run from the 3 (rank 0) up to the ace

cdef enum:
    PASS_CATEGORY = 0
    SOLO = 1
    PAIR = 2
    TRIO = 3
    TRIO_SOLO = 4
    TRIO_PAIR = 5
    SOLO_CHAIN = 6
    PAIR_CHAIN = 7
    PLANE = 8
    PLANE_SOLOS = 9
    PLANE_PAIRS = 10
    FOUR_TWO_SOLOS = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14
