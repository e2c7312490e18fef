"""Compiled 癞子 minimum steps: the fast path of ``wild_steps.min_steps``.

The same search as the reference (``wild_steps._WildSolver``), in C, for the value only (``decompose`` stays
the reference's):

- A hand's natural cards are one 64-bit word, three bits per rank (``_min_steps_fast.Hand``), so taking a
  play's natural cards off is one subtraction; the wild cards held are two counts, one per wild rank (the
  second 0 with one wild rank, which ``_take`` and the leaf read as the reference reads one count).
- ``search``: the leaf, then every chain, pair chain and plane, plain or with its cheapest kickers, that the
  natural cards make with the help of wild cards (``_plays``, ``_with_kickers``, ``_kickers``, ``_take``),
  each followed by the search of what is left; without wild cards, the compiled classic oracle. The value is
  the minimum over these, so the order of the plays does not matter; a candidate is not searched once the
  best is one play (nothing does better) or, as in the reference, when the best is two plays and it is not
  the whole position.
- Positions are remembered per ruleset and wild ranks in a table of ``wild_steps.CACHE_SIZE`` words (the
  position and its value in one word), four-way associative, the least recently used of a set forgotten
  first; the ``wild_steps.SOLVERS`` rulesets and wild ranks used last keep their tables.
- ``leaf``: the reference's ``_leaf`` values in a dense table per solver (every shape, sorted wild cards and
  pairs made: about 1.6 MB, filled as met); the shapes' steps are the classic oracle's shape table, shared.

Input outside this module's domain (a hand that is not a list or tuple of 15 ints with 0-4 cards per rank and
at most one of each joker; wild ranks that are not a list or tuple of at most two distinct ints 0..12; rules
that are neither ``None`` nor a ``DouDizhuRules``) goes to the reference unchanged.
"""

from cpython.long cimport PyLong_AsLongAndOverflow
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from paiju.games.doudizhu._constants cimport BIG_JOKER, NUM_RANKS, SMALL_JOKER, TOP_CHAIN, TWO
from paiju.games.doudizhu._min_steps_fast cimport Hand, Oracle, Shape, oracle_for

cdef extern from *:
    int __builtin_ctz(unsigned int bits) nogil  # the lowest set bit's index (gcc, clang)

cdef enum:
    MOST_WILD = 2  # wild ranks handled here (more go to the reference)
    WAYS = 4  # positions per set of the position table
    SHAPE_COUNTS = 2380  # (solos, pairs, trios, fours) of at most 13 ranks
    LEAF_SIZE = SHAPE_COUNTS * 3 * 25 * 9  # shape, jokers (0..2), wild cards (0..4 each, sorted), pairs made (0..8)

# Chains of 1, 2, 3 cards per rank: shortest and longest (``moves.CHAIN_SHAPES``); planes with solo kickers and
# with pair kickers: most trios (``moves.PLANE_KICKER_SHAPES``).
cdef int[4] MIN_LENGTH = [0, 5, 3, 2]
cdef int[4] MAX_LENGTH = [0, 12, 10, 6]
cdef int PLANE_SOLOS_MOST = 5, PLANE_PAIRS_MOST = 4
cdef int[4] JOINS = [1, 2, 3, 0]  # what a wild card joins in the leaf: a solo, pair, trio; 0: a pair it made

cdef Hand KEY_BITS = (<Hand>1 << 52) - 1  # a position: natural cards (bits 0..44), wild cards (45..50), planes only
cdef int WILDS_SHIFT = 45, PLANES_ONLY_SHIFT = 51, VALUE_SHIFT = 56  # the steps + 1 above the position

cdef int SHAPE_INDEX[14][14][14][14]  # (solos, pairs, trios, fours) -> 0 .. SHAPE_COUNTS - 1
cdef int _a, _b, _c, _d, _n = 0
for _a in range(14):
    for _b in range(14 - _a):
        for _c in range(14 - _a - _b):
            for _d in range(14 - _a - _b - _c):
                SHAPE_INDEX[_a][_b][_c][_d] = _n
                _n += 1


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (ranks, chain lengths by copies per
    rank, plane kicker limits), for ``tests/native/test_wild_steps_fast.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "TWO": TWO, "SMALL_JOKER": SMALL_JOKER, "BIG_JOKER": BIG_JOKER,
        "TOP_CHAIN": TOP_CHAIN, "MIN_LENGTH": [MIN_LENGTH[i] for i in range(4)],
        "MAX_LENGTH": [MAX_LENGTH[i] for i in range(4)], "PLANE_SOLOS_MOST": PLANE_SOLOS_MOST,
        "PLANE_PAIRS_MOST": PLANE_PAIRS_MOST,
    }


cdef inline int count_of(Hand hand, int rank) noexcept nogil:
    return (hand >> (3 * rank)) & 7


cdef struct Best:
    # One position's search: its natural cards (``naturals``, by rank in ``natural``), the wild cards held per
    # wild rank, and the fewest plays found so far.
    Hand naturals
    int natural[NUM_RANKS]
    int wilds[MOST_WILD]
    int steps


cdef class WildSolver:
    """Minimum steps with wild ranks ``wild`` under one ruleset (``wild_steps._WildSolver``): the position table
    and the leaf table (see the module docstring)."""

    cdef Oracle oracle  # the classic oracle of the ruleset: its shape table, and the positions without wild cards
    cdef int nw
    cdef int wild[MOST_WILD]
    cdef int wild_bits  # bit r: rank r is wild
    cdef int solo_most, pair_most  # kickers of one rank at most (``_kickers``)
    cdef bint rocket_as_kickers
    cdef Hand* positions
    cdef int sets  # a power of two
    cdef signed char* leaves  # the leaf's steps + 1; 0: not yet known

    def __cinit__(self, rules, tuple wild, int cache_size):
        cdef int i
        self.oracle = oracle_for(rules)
        self.nw, self.wild_bits = len(wild), 0
        for i in range(self.nw):
            self.wild[i] = wild[i]
            self.wild_bits |= 1 << self.wild[i]
        self.solo_most, self.pair_most = (4, 2) if rules.bomb_as_kickers else (3, 1)
        self.rocket_as_kickers = rules.rocket_as_kickers
        self.sets = 1
        while self.sets * 2 * WAYS <= cache_size:
            self.sets *= 2
        self.positions = <Hand*>calloc(self.sets * WAYS, sizeof(Hand))
        self.leaves = <signed char*>calloc(LEAF_SIZE, sizeof(signed char))
        if not self.positions or not self.leaves:
            raise MemoryError()

    def __dealloc__(self):
        free(self.positions)
        free(self.leaves)

    cdef int search(self, Hand naturals, int* wilds, bint planes_only) except -1:
        """``_search``: the fewest plays that empty the position (a chain or plane first, or the leaf; plays
        with kickers come last: after one, ``planes_only``)."""
        cdef Best best
        cdef Hand key = naturals | (<Hand>wilds[0] << WILDS_SHIFT) | (<Hand>wilds[1] << (WILDS_SHIFT + 3))
        cdef Hand* ways
        cdef int rank, way
        cdef int shape[5]
        if not wilds[0] and not wilds[1]:
            planes_only = False  # the classic oracle's value does not depend on it
        key |= <Hand>planes_only << PLANES_ONLY_SHIFT
        ways = &self.positions[(<int>((key * <Hand>0x9E3779B97F4A7C15) >> 40) & (self.sets - 1)) * WAYS]
        for way in range(WAYS):
            if ways[way] and ways[way] & KEY_BITS == key:
                best.steps = <int>(ways[way] >> VALUE_SHIFT) - 1
                while way:  # the most recently used first
                    ways[way] = ways[way - 1]
                    way -= 1
                ways[0] = key | (<Hand>(best.steps + 1) << VALUE_SHIFT)
                return best.steps
        if not wilds[0] and not wilds[1]:
            best.steps = self.oracle.steps(naturals)
        else:
            best.naturals, best.wilds[0], best.wilds[1] = naturals, wilds[0], wilds[1]
            for rank in range(NUM_RANKS):
                best.natural[rank] = count_of(naturals, rank)
            shape_of(best.natural, shape)
            best.steps = self.leaf(shape, min(wilds[0], wilds[1]), max(wilds[0], wilds[1]), 0)
            if best.steps > 1:
                self.plays(&best, planes_only)
        for way in range(WAYS - 1, 0, -1):
            ways[way] = ways[way - 1]
        ways[0] = key | (<Hand>(best.steps + 1) << VALUE_SHIFT)
        return best.steps

    cdef int consider(self, Best* best, Hand taken, int* used, bint kicked) except -1:
        """A play of ``taken`` natural cards and ``used`` wild cards, followed by the search of what is left."""
        cdef int left[MOST_WILD]
        cdef int steps
        left[0], left[1] = best.wilds[0] - used[0], best.wilds[1] - used[1]
        if best.steps <= 1 or (best.steps == 2 and (taken != best.naturals or left[0] or left[1])):
            return 0  # nothing beats one play; two plays: only a play of the whole position does better
        steps = 1 + self.search(best.naturals - taken, left, kicked)
        if steps < best.steps:
            best.steps = steps
        return 0

    cdef int plays(self, Best* best, bint planes_only) except -1:
        """``_plays``: the chains and planes, and planes with kickers (only these when ``planes_only``), that the
        natural cards make with the help of wild cards (``_take``)."""
        cdef int spare = best.wilds[0] + best.wilds[1]
        cdef int copies, low, high, held, need
        cdef int used[MOST_WILD]
        cdef Hand took
        for copies in range(3 if planes_only else 1, 4):
            for low in range(TOP_CHAIN + 1):
                need, took = 0, 0
                for high in range(low, min(low + MAX_LENGTH[copies], TOP_CHAIN + 1)):
                    held = best.natural[high]
                    if held < copies:
                        need += copies - held
                        if need > spare:
                            break
                    else:
                        held = copies
                    took += <Hand>held << (3 * high)
                    if high - low + 1 < MIN_LENGTH[copies] or not took:  # cards all wild stand for their own rank
                        continue
                    take(need, best.wilds, used)
                    if not planes_only:
                        self.consider(best, took, used, False)
                    if copies == 3 and high - low < PLANE_SOLOS_MOST:
                        self.with_kickers(best, took, used, low, high - low + 1)
        return 0

    cdef int with_kickers(self, Best* best, Hand took, int* used, int low, int length) except -1:
        """``_with_kickers``: the plane with its cheapest solo kickers and its cheapest pair kickers from the rest
        (``kickers``; wild cards there stand for their own rank)."""
        cdef int rest[NUM_RANKS]
        cdef int spent[MOST_WILD]
        cdef int rank, i, size
        cdef Hand kicker
        for rank in range(NUM_RANKS):
            rest[rank] = best.natural[rank] - count_of(took, rank)
        for i in range(self.nw):
            rest[self.wild[i]] += best.wilds[i] - used[i]
        for rank in range(low, low + length):
            rest[rank] = 0
        for size in range(1, 3):
            if length > (PLANE_SOLOS_MOST if size == 1 else PLANE_PAIRS_MOST):
                continue
            kicker = self.kickers(rest, length, size, low - 1, low + length)
            if kicker:
                spent[0], spent[1] = used[0], used[1]
                for i in range(self.nw):
                    spent[i] += count_of(kicker, self.wild[i])
                    kicker &= ~(<Hand>7 << (3 * self.wild[i]))
                self.consider(best, took + kicker, spent, True)
        return 0

    cdef Hand kickers(self, int* rest, int units, int size, int below, int above) noexcept:
        """``_kickers``: ``units`` kickers of ``size`` cards (1: solos, 2: pairs) from ``rest``, or 0 if there are
        not enough: natural cards before wild cards, from the ranks holding the fewest cards first, then the lowest;
        as ``moves`` allows (pairs never jokers, solos never both jokers nor three of a rank ``below`` or ``above``
        the plane, four equal cards only under ``bomb_as_kickers``)."""
        cdef unsigned int order[8]  # [wild * 4 + held - 1], bit r: rank r holds ``held`` cards
        cdef unsigned int ranks
        cdef int rank, group, most, amount
        cdef Hand kicker = 0
        memset(order, 0, sizeof(order))
        for rank in range(NUM_RANKS if size == 1 else SMALL_JOKER):
            if rest[rank] >= size:
                order[((self.wild_bits >> rank) & 1) * 4 + rest[rank] - 1] |= 1u << rank
        for group in range(8):
            ranks = order[group]
            while ranks:
                rank = __builtin_ctz(ranks)
                ranks &= ranks - 1
                most = rest[rank] // size
                if size == 1:
                    most = min(most, self.solo_most)
                    if (rank == below or rank == above) and rank <= TOP_CHAIN:
                        most = min(most, 2)
                    if rank == BIG_JOKER and count_of(kicker, SMALL_JOKER) and not self.rocket_as_kickers:
                        continue
                else:
                    most = min(most, self.pair_most)
                amount = min(most, units)
                kicker += <Hand>(amount * size) << (3 * rank)
                units -= amount
                if not units:
                    return kicker
        return 0

    cdef int leaf(self, int* shape, int low, int high, int pairs) except -1:
        """``_leaf``: the steps with no more chains, the wild cards held ``low`` <= ``high`` (``low`` 0 with one
        wild rank): each wild card stays as its own rank or joins a natural rank holding 1..3 cards. A solo made a
        pair is played alone (``pairs``): a substituted card is never a kicker."""
        cdef int index = ((((SHAPE_INDEX[shape[0]][shape[1]][shape[2]][shape[3]] * 3 + shape[4]) * 5 + low) * 5
                           + high) * 9 + pairs)
        cdef int own[5]
        cdef int raised[5]
        cdef int held[MOST_WILD]
        cdef int best, which, join, count, made, steps, other
        if self.leaves[index]:
            return self.leaves[index] - 1
        own[:] = [shape[0], shape[1], shape[2], shape[3], shape[4]]
        held[0], held[1] = low, high
        for which in range(MOST_WILD):
            if held[which]:
                own[held[which] - 1] += 1
        best = self.shape_steps(own) + pairs
        for which in range(MOST_WILD):
            if not held[which] or (which and held[0] == held[1]):
                continue
            other = held[1 - which]
            for join in range(4):
                count = JOINS[join]
                raised[:] = [shape[0], shape[1], shape[2], shape[3], shape[4]]
                made = pairs
                if count == 1 and shape[0]:  # a solo becomes a pair
                    raised[0] -= 1
                    made += 1
                elif count > 1 and shape[count - 1]:  # a pair or trio grows by one
                    raised[count - 1] -= 1
                    raised[count] += 1
                elif count == 0 and pairs:  # a pair made of a solo becomes a trio
                    raised[2] += 1
                    made -= 1
                else:
                    continue
                steps = self.leaf(raised, min(held[which] - 1, other), max(held[which] - 1, other), made)
                if steps < best:
                    best = steps
        self.leaves[index] = best + 1
        return best

    cdef int shape_steps(self, int* shape) except -1:
        """The classic oracle's steps for a shape (``min_steps._Solver._shape``), from its shared table."""
        cdef Shape* entry = &self.oracle.table[(((shape[0] * 14 + shape[1]) * 14 + shape[2]) * 14 + shape[3]) * 3
                                               + shape[4]]
        cdef Hand hand = 0
        cdef int rank = 0, held, ranks
        if not entry.steps:  # a hand of that shape fills it
            for held in range(1, 5):
                for ranks in range(shape[held - 1]):
                    hand |= <Hand>held << (3 * rank)
                    rank += 1
            for rank in range(shape[4]):
                hand |= <Hand>1 << (3 * (SMALL_JOKER + rank))
            entry = self.oracle.shape(hand)
        return entry.steps - 1


cdef inline void shape_of(int* natural, int* shape) noexcept:
    """``_shape``: ranks 3..2 holding exactly 1..4 natural cards, then the jokers."""
    cdef int rank
    shape[0] = shape[1] = shape[2] = shape[3] = 0
    for rank in range(SMALL_JOKER):
        if natural[rank]:
            shape[natural[rank] - 1] += 1
    shape[4] = natural[SMALL_JOKER] + natural[BIG_JOKER]


cdef inline void take(int need, int* wilds, int* used) noexcept:
    """``_take``: how many of ``need`` wild cards to take from each wild rank: from the rank holding fewer first,
    so that the larger group left stays whole (with one wild rank, the second holds none: all from the first)."""
    if wilds[0] <= wilds[1]:
        used[0] = min(need, wilds[0])
        used[1] = need - used[0]
    else:
        used[1] = min(need, wilds[1])
        used[0] = need - used[1]


# -- the entry point ---------------------------------------------------------------------------------------

cdef object _reference = None, _rules_type, _default_rules
cdef int _cache_size, _solver_count
cdef dict _solvers = {}  # (rules, wild ranks) -> WildSolver, the least recently used first
cdef WildSolver _last = None  # the solver used last, and its key
cdef object _last_rules = None
cdef tuple _last_wild = None


cdef int _init() except -1:
    global _reference, _rules_type, _default_rules, _cache_size, _solver_count
    from paiju.games.doudizhu import wild_steps
    from paiju.games.doudizhu.rules import DouDizhuRules

    _cache_size, _solver_count = wild_steps.CACHE_SIZE, wild_steps.SOLVERS
    _rules_type, _default_rules = DouDizhuRules, DouDizhuRules()
    _reference = wild_steps.reference_min_steps
    return 0


cdef WildSolver _solver(object rules, tuple wild):
    """The solver of ``rules`` and ``wild`` (``wild_steps._wild_solver``: the ``SOLVERS`` used last are kept)."""
    global _last, _last_rules, _last_wild
    cdef object key
    if rules is _last_rules and wild == _last_wild:
        return _last
    key = (rules, wild)
    solver = _solvers.pop(key, None)
    if solver is None:
        solver = WildSolver(rules, wild, _cache_size)
        while _solvers and len(_solvers) >= _solver_count:
            del _solvers[next(iter(_solvers))]
    _solvers[key] = solver
    _last, _last_rules, _last_wild = solver, rules, wild
    return solver


cdef inline int _small_int(object item, int highest):
    """The value of an int (exactly) in ``0 .. highest``, else -1."""
    cdef int overflow
    cdef long number
    if type(item) is not int:
        return -1
    number = PyLong_AsLongAndOverflow(item, &overflow)
    return number if not overflow and 0 <= number <= highest else -1


def min_steps(counts, wild, rules=None):
    """The fewest plays that empty ``counts`` (15 rank counts) with wild ranks ``wild`` when no one else plays: the
    value of ``wild_steps.reference_min_steps``."""
    cdef Hand naturals = 0
    cdef int held[MOST_WILD]
    cdef int rank, i, value, seen = 0
    if _reference is None:
        _init()
    if rules is None:
        rules = _default_rules
    if (type(rules) is not _rules_type or not (type(counts) is tuple or type(counts) is list)
            or not (type(wild) is tuple or type(wild) is list) or len(counts) != NUM_RANKS or len(wild) > MOST_WILD):
        return _reference(counts, wild, rules)
    for rank in range(NUM_RANKS):
        value = _small_int(counts[rank], 1 if rank >= SMALL_JOKER else 4)
        if value < 0:
            return _reference(counts, wild, rules)
        naturals |= <Hand>value << (3 * rank)
    held[0] = held[1] = 0
    for i in range(len(wild)):
        rank = _small_int(wild[i], TWO)
        if rank < 0 or (seen >> rank) & 1:
            return _reference(counts, wild, rules)
        seen |= 1 << rank
        held[i] = count_of(naturals, rank)
        naturals &= ~(<Hand>7 << (3 * rank))
    return _solver(rules, tuple(wild)).search(naturals, held, False)
