# C-level interface of the compiled minimum-steps oracle (``_min_steps_fast.pyx``), for the rule bot's
# compiled scoring.

ctypedef unsigned long long Hand  # a hand or play: the count of rank r (0..4) in bits 3r .. 3r+2


cdef struct Shape:
    # A shape table entry: the steps (+ 1; 0: not yet known) and the first play (``min_steps.ShapeStep``):
    # ``takes`` times ``amount[i]`` cards from a rank holding ``count[i]``, with ``jokers`` jokers.
    signed char steps
    signed char takes
    signed char count[3]
    signed char amount[3]
    signed char jokers


cdef enum:
    FIRST_SLOTS = 32  # memo slots kept inline, before the table moves to the heap


cdef struct Memo:
    Hand* keys  # 0: empty slot (a memoised hand is never empty)
    Hand* chains
    signed char* steps
    int capacity  # a power of two, or 0 before the first store
    int used
    Hand first_keys[FIRST_SLOTS]
    Hand first_chains[FIRST_SLOTS]
    signed char first_steps[FIRST_SLOTS]


cdef struct Best:
    int steps
    Hand chain


cdef struct Kickers:
    # One plane's kicker choices: ``caps[r]`` units of ``unit`` cards of rank r, never three units of
    # ``near_low`` / ``near_high`` (a trio next to the plane), never both jokers when ``no_rocket``.
    Hand hand
    Hand main
    int ranks[15]
    int caps[15]
    int count
    int unit
    int near_low
    int near_high
    bint no_rocket


cdef class Oracle:
    cdef object solver  # the reference ``min_steps._Solver`` of the ruleset
    cdef Shape* table
    cdef int solo_most, pair_most
    cdef bint rocket_as_kickers, bomb_as_kickers

    cdef int steps(self, Hand hand) except -1
    cdef list plan(self, Hand hand)
    cdef Shape* shape(self, Hand hand) except NULL
    cdef int search(self, Memo* memo, Hand hand, bint planes_only, Hand* chain) except -1
    cdef int consider(self, Memo* memo, Best* best, Hand hand, Hand play, bint planes_only) except -1
    cdef int planes_with_kickers(self, Memo* memo, Best* best, Hand hand, unsigned int trios) except -1
    cdef int kicker_sets(self, Memo* memo, Best* best, Kickers* kickers, int index, int left,
                         Hand chosen) except -1
    cdef bint is_one_chain(self, Hand hand) noexcept
    cdef bint solo_kickers_ok(self, Hand kickers, int low, int length) noexcept
    cdef bint pair_kickers_ok(self, Hand kickers) noexcept


cdef Oracle oracle_for(object rules)
cdef Hand read_hand(object counts) except? 0xFFFFFFFFFFFFFFFF
