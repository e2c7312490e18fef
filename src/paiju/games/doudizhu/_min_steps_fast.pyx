"""Compiled minimum-steps oracle: ``min_steps.min_steps`` and ``min_steps.decompose``.

A hand (or play) is one 64-bit word, three bits per rank (``Hand``), so taking a play off a hand is one
subtraction. The chain search (PerfectDou Algorithm 1, ``_Solver._search_uncached``) runs in C: the chains
of the hand's rank masks, then the planes with every kicker set, each followed by the search of what is
left, memoised for the one call in an open-addressing table. The shape table is a C array per ruleset
holding the reference solver's values (``_Solver._shape``), each filled the first time its shape is met.
Candidates are tried in the reference's order and replace the best only when strictly better, so every
node chooses the same first chain and ``decompose`` gives the same plays.
"""

from cpython.long cimport PyLong_AsLongAndOverflow
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from paiju.games.doudizhu.rules import DouDizhuRules

from paiju.games.doudizhu._constants cimport BIG_JOKER, NUM_RANKS, SMALL_JOKER, TOP_CHAIN

cdef enum:
    SHAPES = 14 * 14 * 14 * 14 * 3  # ranks holding 1, 2, 3, 4 cards (0..13 each), jokers (0..2)

cdef extern from *:
    int __builtin_ctz(unsigned int bits) nogil  # the lowest set bit's index (gcc, clang)

cdef Hand PLANES_ONLY = <Hand>1 << 45  # memo key bit above the 15 ranks' counts

# Chains of 1, 2, 3 cards per rank: shortest and longest (``moves.CHAIN_SHAPES``).
cdef int[4] MIN_LENGTH = [0, 5, 3, 2]
cdef int[4] MAX_LENGTH = [0, 12, 10, 6]
cdef int PLANE_SOLOS_MOST = 5, PLANE_PAIRS_MOST = 4  # ``moves.PLANE_KICKER_SHAPES``


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (ranks, chain lengths by copies
    per rank, plane kicker limits), for ``tests/native/test_constants.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "SMALL_JOKER": SMALL_JOKER, "BIG_JOKER": BIG_JOKER, "TOP_CHAIN": TOP_CHAIN,
        "MIN_LENGTH": [MIN_LENGTH[i] for i in range(4)], "MAX_LENGTH": [MAX_LENGTH[i] for i in range(4)],
        "PLANE_SOLOS_MOST": PLANE_SOLOS_MOST, "PLANE_PAIRS_MOST": PLANE_PAIRS_MOST,
    }


cdef inline int count_of(Hand hand, int rank) noexcept nogil:
    return (hand >> (3 * rank)) & 7


cdef inline Hand run(int copies, int low, int length) noexcept nogil:
    """``copies`` cards of each rank ``low`` .. ``low + length - 1``."""
    return (<Hand>copies * (((<Hand>1 << (3 * length)) - 1) // 7)) << (3 * low)


cdef inline unsigned int window_lows(unsigned int mask, int length) noexcept nogil:
    """The ranks ``low`` whose ``length`` ranks from ``low`` on are all in ``mask``, as a bit mask."""
    cdef unsigned int lows = mask
    cdef int shift
    for shift in range(1, length):
        lows &= mask >> shift
    return lows


cdef object packed_of(Hand hand):
    """The hand in ``cards.pack`` form (one byte per rank)."""
    cdef unsigned long long low = 0, high = 0
    cdef int rank
    for rank in range(8):
        low |= <unsigned long long>count_of(hand, rank) << (8 * rank)
    for rank in range(8, NUM_RANKS):
        high |= <unsigned long long>count_of(hand, rank) << (8 * (rank - 8))
    return (<object>high << 64) | low


cdef Hand hand_of_packed(object packed):
    cdef bytes raw = packed.to_bytes(NUM_RANKS, "little")
    cdef Hand hand = 0
    cdef int rank
    for rank in range(NUM_RANKS):
        hand |= <Hand>raw[rank] << (3 * rank)
    return hand


cdef Hand read_hand(object counts) except? 0xFFFFFFFFFFFFFFFF:
    """The hand of 15 rank counts; anything but a list or tuple of 15 in-range ints goes through the
    reference's ``_checked_pack`` (its ``CardError``s)."""
    cdef Hand hand = 0
    cdef long count
    cdef int rank, overflow
    if (type(counts) is tuple or type(counts) is list) and len(counts) == NUM_RANKS:
        for rank in range(NUM_RANKS):
            item = counts[rank]
            if type(item) is not int:
                break
            count = PyLong_AsLongAndOverflow(item, &overflow)
            if overflow or not 0 <= count <= (4 if rank < SMALL_JOKER else 1):
                break
            hand |= <Hand>count << (3 * rank)
        else:
            return hand
    from paiju.games.doudizhu.min_steps import _checked_pack
    return hand_of_packed(_checked_pack(counts))


# -- the per-call memo: (hand, planes only) -> (steps, first chain) ----------------------------------------

cdef inline int memo_slot(Memo* memo, Hand key) noexcept nogil:
    cdef int mask = memo.capacity - 1
    cdef int slot = <int>((key * <Hand>0x9E3779B97F4A7C15) >> 40) & mask
    while memo.keys[slot] and memo.keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


cdef int memo_store(Memo* memo, Hand key, int steps, Hand chain) except -1:
    cdef Memo old
    cdef int slot, i
    if not memo.capacity:
        memo.keys, memo.chains, memo.steps = memo.first_keys, memo.first_chains, memo.first_steps
        memo.capacity = FIRST_SLOTS
        memset(memo.keys, 0, FIRST_SLOTS * sizeof(Hand))
    elif 2 * (memo.used + 1) > memo.capacity:
        old = memo[0]
        memo.capacity *= 2
        memo.keys = <Hand*>calloc(memo.capacity, sizeof(Hand))
        memo.chains = <Hand*>calloc(memo.capacity, sizeof(Hand))
        memo.steps = <signed char*>calloc(memo.capacity, sizeof(signed char))
        if not memo.keys or not memo.chains or not memo.steps:
            raise MemoryError()
        memo.used = 0
        for i in range(old.capacity):
            if old.keys[i]:
                memo_store(memo, old.keys[i], old.steps[i], old.chains[i])
        if old.capacity > FIRST_SLOTS:
            memo_free(&old)
    slot = memo_slot(memo, key)
    memo.keys[slot], memo.chains[slot], memo.steps[slot] = key, chain, steps
    memo.used += 1
    return 0


cdef void memo_free(Memo* memo) noexcept:
    """Frees a table that moved to the heap."""
    if memo.capacity > FIRST_SLOTS:
        free(memo.keys)
        free(memo.chains)
        free(memo.steps)


cdef class Oracle:
    """Minimum steps under one ruleset (see the module docstring)."""

    def __cinit__(self, rules, solver):
        self.solver = solver
        self.table = <Shape*>calloc(SHAPES, sizeof(Shape))
        if not self.table:
            raise MemoryError()
        self.bomb_as_kickers = rules.bomb_as_kickers
        self.rocket_as_kickers = rules.rocket_as_kickers
        self.solo_most, self.pair_most = (4, 2) if self.bomb_as_kickers else (3, 1)

    def __dealloc__(self):
        free(self.table)

    cdef int steps(self, Hand hand) except -1:
        cdef Memo memo
        cdef Hand chain
        memo.capacity = memo.used = 0
        try:
            return self.search(&memo, hand, False, &chain)
        finally:
            memo_free(&memo)

    cdef list plan(self, Hand hand):
        """``_Solver.plan``: the search's chains (a plane with kickers leaves planes only), then the shape
        table's plays realised on ranks."""
        cdef Memo memo
        cdef Hand chain
        cdef bint planes_only = False
        cdef list plays = []
        memo.capacity = memo.used = 0
        try:
            while hand:
                self.search(&memo, hand, planes_only, &chain)
                if not chain:
                    break
                planes_only = planes_only or not is_plain_chain(chain)
                plays.append(self.solver._lead_move(packed_of(chain)))
                hand -= chain
        finally:
            memo_free(&memo)
        while hand:
            chain = realise(self.shape(hand), hand)
            plays.append(self.solver._lead_move(packed_of(chain)))
            hand -= chain
        return plays

    cdef Shape* shape(self, Hand hand) except NULL:
        """The shape table's entry for the hand's shape."""
        cdef int held[5]
        cdef int rank, index, jokers, take
        cdef Shape* entry
        memset(held, 0, sizeof(held))
        for rank in range(SMALL_JOKER):
            held[count_of(hand, rank)] += 1
        jokers = count_of(hand, SMALL_JOKER) + count_of(hand, BIG_JOKER)
        index = (((held[1] * 14 + held[2]) * 14 + held[3]) * 14 + held[4]) * 3 + jokers
        entry = &self.table[index]
        if not entry.steps:
            steps, step = self.solver._shape((held[1], held[2], held[3], held[4], jokers))
            if step is not None:
                entry.takes, entry.jokers = len(step.takes), step.jokers
                for take in range(entry.takes):
                    entry.count[take], entry.amount[take] = step.takes[take]
            entry.steps = 1 + steps
        return entry

    cdef int search(self, Memo* memo, Hand hand, bint planes_only, Hand* chain) except -1:
        """``_Solver._search_uncached``: the fewest plays, and in ``chain`` the first chain of a best way
        (0 when the shape table's plays alone are best)."""
        cdef Best best
        cdef Hand key = hand | (PLANES_ONLY if planes_only else 0)
        cdef unsigned int held[3]
        cdef unsigned int lows
        cdef int copies, length, low, rank, count, slot
        best.steps, best.chain = self.shape(hand).steps - 1, 0
        chain[0] = 0
        if best.steps <= 1:
            return best.steps
        if best.steps == 2:  # a chain can only do better by being the whole hand
            if self.is_one_chain(hand):
                chain[0] = hand
                return 1
            return 2
        if memo.capacity:
            slot = memo_slot(memo, key)
            if memo.keys[slot]:
                chain[0] = memo.chains[slot]
                return memo.steps[slot]
        held[0] = held[1] = held[2] = 0
        for rank in range(TOP_CHAIN + 1):
            count = count_of(hand, rank)
            for copies in range(min(count, 3)):
                held[copies] |= 1u << rank
        if not planes_only:
            for copies in range(1, 4):
                for length in range(MIN_LENGTH[copies], MAX_LENGTH[copies] + 1):
                    lows = window_lows(held[copies - 1], length)
                    if not lows:  # nor any longer chain
                        break
                    while lows:
                        low = __builtin_ctz(lows)
                        lows &= lows - 1
                        self.consider(memo, &best, hand, run(copies, low, length), False)
        self.planes_with_kickers(memo, &best, hand, held[2])
        memo_store(memo, key, best.steps, best.chain)
        chain[0] = best.chain
        return best.steps

    cdef int consider(self, Memo* memo, Best* best, Hand hand, Hand play, bint planes_only) except -1:
        cdef Hand ignored
        cdef int steps = 1 + self.search(memo, hand - play, planes_only, &ignored)
        if steps < best.steps:
            best.steps, best.chain = steps, play
        return 0

    cdef int planes_with_kickers(self, Memo* memo, Best* best, Hand hand, unsigned int trios) except -1:
        """``_Solver._plane_kicker_plays``, each followed by the search: planes in ``_chains_within``
        order, solo kickers then pair kickers (``_kicker_sets`` order)."""
        cdef Kickers kickers
        cdef Hand rest
        cdef unsigned int lows
        cdef int length, low, rank, count
        kickers.hand = hand
        for length in range(MIN_LENGTH[3], MAX_LENGTH[3] + 1):
            lows = window_lows(trios, length)
            if not lows:  # nor any longer plane
                break
            while lows:
                low = __builtin_ctz(lows)
                lows &= lows - 1
                kickers.main = run(3, low, length)
                rest = (hand - kickers.main) & ~run(7, low, length)
                if length <= PLANE_SOLOS_MOST:
                    kickers.count = 0
                    for rank in range(NUM_RANKS):
                        count = min(count_of(rest, rank), self.solo_most)
                        kickers.caps[rank] = count
                        if count:
                            kickers.ranks[kickers.count] = rank
                            kickers.count += 1
                    kickers.unit, kickers.near_low, kickers.near_high = 1, low - 1, low + length
                    kickers.no_rocket = (not self.rocket_as_kickers and kickers.caps[SMALL_JOKER]
                                         and kickers.caps[BIG_JOKER])
                    self.kicker_sets(memo, best, &kickers, 0, length, 0)
                if length <= PLANE_PAIRS_MOST:
                    kickers.count = 0
                    for rank in range(SMALL_JOKER):
                        count = min(count_of(rest, rank) // 2, self.pair_most)
                        kickers.caps[rank] = count
                        if count:
                            kickers.ranks[kickers.count] = rank
                            kickers.count += 1
                    kickers.unit, kickers.near_low, kickers.near_high, kickers.no_rocket = 2, -1, -1, False
                    self.kicker_sets(memo, best, &kickers, 0, length, 0)
        return 0

    cdef int kicker_sets(self, Memo* memo, Best* best, Kickers* kickers, int index, int left,
                         Hand chosen) except -1:
        """Every kicker set of ``left`` more units from the ranks from ``index`` on, most units first."""
        cdef int i, rank, units
        if left == 0:
            if kickers.no_rocket and count_of(chosen, SMALL_JOKER) and count_of(chosen, BIG_JOKER):
                return 0
            return self.consider(memo, best, kickers.hand, kickers.main + chosen, True)
        for i in range(index, kickers.count):
            rank = kickers.ranks[i]
            for units in range(min(kickers.caps[rank], left), 0, -1):
                if units == 3 and rank <= TOP_CHAIN and (rank == kickers.near_low or rank == kickers.near_high):
                    continue
                self.kicker_sets(memo, best, kickers, i + 1, left - units,
                                 chosen + (<Hand>(units * kickers.unit) << (3 * rank)))
        return 0

    cdef bint is_one_chain(self, Hand hand) noexcept:
        """Whether the whole hand is a chain, a plane, or a plane with kickers (``interpretations``)."""
        cdef int counts[NUM_RANKS]
        cdef int size = 0, present = 0, lowest = -1, highest = -1, copies, most, rank, length, low
        cdef Hand plane
        for rank in range(NUM_RANKS):
            counts[rank] = count_of(hand, rank)
            size += counts[rank]
            if counts[rank]:
                present += 1
                highest = rank
                if lowest < 0:
                    lowest = rank
        if highest <= TOP_CHAIN and highest - lowest == present - 1:
            for copies in range(1, 4):
                if present >= MIN_LENGTH[copies] and all_equal(counts, copies):
                    return True
        for copies in range(1, 3):  # planes with solos, with pairs
            most = PLANE_SOLOS_MOST if copies == 1 else PLANE_PAIRS_MOST
            length = size // (3 + copies)
            if size % (3 + copies) or not 2 <= length <= most:
                continue
            for low in range(TOP_CHAIN - length + 2):
                plane = run(3, low, length)
                if plane & hand == plane and (self.solo_kickers_ok(hand - plane, low, length) if copies == 1
                                              else self.pair_kickers_ok(hand - plane)):
                    return True
        return False

    cdef bint solo_kickers_ok(self, Hand kickers, int low, int length) noexcept:
        """``_solo_kickers_ok`` and not ``extends_plane``."""
        cdef int rank
        if count_of(kickers, SMALL_JOKER) and count_of(kickers, BIG_JOKER) and not self.rocket_as_kickers:
            return False
        for rank in range(NUM_RANKS):
            if count_of(kickers, rank) == 4 and not self.bomb_as_kickers:
                return False
        if low >= 1 and count_of(kickers, low - 1) == 3:
            return False
        return not (low + length <= TOP_CHAIN and count_of(kickers, low + length) == 3)

    cdef bint pair_kickers_ok(self, Hand kickers) noexcept:
        """``_pair_kickers_ok``: no jokers, every rank two cards (or four as an option); the count fits."""
        cdef int rank, count
        for rank in range(NUM_RANKS):
            count = count_of(kickers, rank)
            if count and (rank >= SMALL_JOKER or not (count == 2 or (count == 4 and self.bomb_as_kickers))):
                return False
        return True


cdef Hand realise(Shape* step, Hand hand) noexcept:
    """``_realise``: a shape play's cards, the main part from the highest rank holding its count (of those
    not yet used), kickers from the lowest, jokers small first."""
    cdef Hand played = 0
    cdef int take, rank, chosen, wanted = step.jokers
    cdef int held[2]  # the lowest and highest rank holding the count
    cdef int fresh[2]  # the same among the ranks not yet used
    for take in range(step.takes):
        held[0] = held[1] = fresh[0] = fresh[1] = -1
        for rank in range(SMALL_JOKER):
            if count_of(hand, rank) == step.count[take]:
                held[0], held[1] = rank if held[0] < 0 else held[0], rank
                if not count_of(played, rank):
                    fresh[0], fresh[1] = rank if fresh[0] < 0 else fresh[0], rank
        chosen = fresh[take == 0] if fresh[0] >= 0 else held[take == 0]
        played += <Hand>step.amount[take] << (3 * chosen)
        hand -= <Hand>step.amount[take] << (3 * chosen)
    for rank in range(SMALL_JOKER, NUM_RANKS):
        if wanted and count_of(hand, rank):
            played += <Hand>1 << (3 * rank)
            wanted -= 1
    return played


cdef bint all_equal(int* counts, int copies) noexcept:
    cdef int rank
    for rank in range(NUM_RANKS):
        if counts[rank] and counts[rank] != copies:
            return False
    return True


cdef bint is_plain_chain(Hand play) noexcept:
    """Whether a play is a chain or plane without kickers (not ``_Solver._has_kickers``)."""
    cdef int copies, length, low
    for copies in range(1, 4):
        for length in range(MIN_LENGTH[copies], MAX_LENGTH[copies] + 1):
            for low in range(TOP_CHAIN - length + 2):
                if play == run(copies, low, length):
                    return True
    return False


cdef dict _oracles = {}


cdef Oracle oracle_for(object rules):
    """The oracle of a ruleset (one per ruleset, sharing the reference solver's shape table)."""
    oracle = _oracles.get(rules)
    if oracle is None:
        from paiju.games.doudizhu.min_steps import _solver
        oracle = _oracles[rules] = Oracle(rules, _solver(rules))
    return oracle


def min_steps(counts, rules=None):
    """The fewest plays that empty the hand ``counts`` (15 rank counts) when no one else plays."""
    return oracle_for(rules or DouDizhuRules()).steps(read_hand(counts))


def decompose(counts, rules=None):
    """One way to play the hand out in ``min_steps`` plays: the plays (each in its lead interpretation)."""
    return oracle_for(rules or DouDizhuRules()).plan(read_hand(counts))
