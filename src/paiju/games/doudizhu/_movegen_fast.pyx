"""Compiled DouDizhu legal-move generation: the fast path of ``movegen.legal_moves``.

The hand is read once into 15 C counts and four 15-bit rank masks (``held[n]``: the ranks holding at least
n cards); every category is then enumerated with C ints in exactly the reference's order. The interned
``Move`` objects (the very objects ``moves.move_from_packed`` returns) sit in C arrays of pointers, filled
on the first call: solos to bombs by rank, chains by kind, length and lowest rank, trio+kicker by both
ranks; four+two by the four and its two kicker ranks, each entry filled on first use. Planes with kickers
are looked up in a dict keyed by a 64-bit code of the plane and its kickers (3 bits per rank).
The list is collected as borrowed pointers in a C buffer and built once at the end.

Only the reference's one possible repeat is skipped explicitly: with ``bomb_as_kickers`` two fours can be
each other's two pairs (``44445555``), and that play keeps its higher four. Every other kicker play is
distinct from all the others (a plane's trios hold exactly three cards; solo kickers never hold three cards
next to their plane), so no set of seen plays is needed.

Input the tables do not cover (a hand that is not a list or tuple of 15 ints with 0-4 cards per rank and at
most one of each joker, or a follow that is not a ``Move``) goes to the reference unchanged.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from paiju.games.doudizhu._constants cimport *


cdef extern from "Python.h":
    ctypedef struct PyObject
    PyObject* PyList_New(Py_ssize_t size)
    void PyList_SET_ITEM(PyObject* list, Py_ssize_t index, PyObject* item)
    PyObject* PyDict_GetItem(PyObject* dict, PyObject* key)
    long PyLong_AsLongAndOverflow(PyObject* o, int* overflow) except? -1
    void Py_INCREF(PyObject* o)
    void Py_DECREF(PyObject* o)


cdef enum:
    CHAIN_RANKS = 0xFFF      # ranks 3..A
    LOCAL_ITEMS = 256        # plays collected on the C stack before the buffer moves to the heap

# Chain kinds (solo chain, pair chain, plane): copies per rank, shortest and longest length.
cdef int CHAIN_MIN[3]
cdef int CHAIN_MAX[3]
CHAIN_MIN[:] = [5, 3, 2]
CHAIN_MAX[:] = [12, 10, 6]


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``_constants.pxd``'s ranks and
    categories, the chain lengths of ``moves.CHAIN_SHAPES``), for ``tests/native/test_constants.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "TWO": TWO, "SMALL_JOKER": SMALL_JOKER, "BIG_JOKER": BIG_JOKER, "TOP_CHAIN": TOP_CHAIN,
        "PASS_CATEGORY": PASS_CATEGORY, "SOLO": SOLO, "PAIR": PAIR, "TRIO": TRIO, "TRIO_SOLO": TRIO_SOLO,
        "TRIO_PAIR": TRIO_PAIR, "SOLO_CHAIN": SOLO_CHAIN, "PAIR_CHAIN": PAIR_CHAIN, "PLANE": PLANE,
        "PLANE_SOLOS": PLANE_SOLOS, "PLANE_PAIRS": PLANE_PAIRS, "FOUR_TWO_SOLOS": FOUR_TWO_SOLOS,
        "FOUR_TWO_PAIRS": FOUR_TWO_PAIRS, "BOMB": BOMB, "ROCKET": ROCKET,
        "CHAIN_RANKS": CHAIN_RANKS, "CHAIN_MIN": [CHAIN_MIN[i] for i in range(3)],
        "CHAIN_MAX": [CHAIN_MAX[i] for i in range(3)],
    }


cdef struct Hand:
    int count[NUM_RANKS]
    int held[5]              # held[n]: bit r set when rank r holds at least n cards (n = 1..4)


cdef struct Out:
    PyObject** items         # borrowed: every play is owned by the tables below
    Py_ssize_t n
    Py_ssize_t cap
    bint heap


cdef struct Kickers:
    int category             # FOUR_TWO_SOLOS, FOUR_TWO_PAIRS, PLANE_SOLOS or PLANE_PAIRS
    int rank                 # the four's rank, or the plane's lowest rank
    int length               # trios in the plane (1 for a four)
    int count                # kicker units to choose
    int size                 # cards per unit: 1 (solos) or 2 (pairs)
    bint no_rocket           # solo kickers may not be both jokers
    int cap[NUM_RANKS]       # units available per rank
    int below[NUM_RANKS + 1] # below[r]: units available in ranks 0..r-1


# -- the tables: interned plays by C index ---------------------------------------------------------------

cdef bint _ready = False
cdef list _owned = []        # keeps every play the pointer tables hold alive
cdef object _reference, _move_from_packed, _move_type, _pass, _categories
cdef dict _plane_plays = {}  # code of plane + kickers -> Move
cdef PyObject* PASS_MOVE
cdef PyObject* ROCKET_MOVE
cdef PyObject* SIMPLE[5][NUM_RANKS]                     # [copies][rank]
cdef PyObject* CHAIN[3][13][TOP_CHAIN + 1]     # [kind][length][lowest rank]
cdef PyObject* TRIO_WITH[2][NUM_RANKS][NUM_RANKS]       # [pair kicker][trio][kicker]
cdef PyObject* FOUR_TWO[2][TWO + 1][NUM_RANKS][NUM_RANKS]  # [pairs][four][lower kicker][higher kicker]


cdef PyObject* _own(object move):
    _owned.append(move)
    return <PyObject*>move


cdef object _packed(int[NUM_RANKS] counts):
    """The packed form (``cards.pack``) of C counts."""
    return int.from_bytes(bytes([counts[r] for r in range(NUM_RANKS)]), "little")


cdef object _play(int category, int rank, int length, int copies, int[NUM_RANKS] extra):
    """The interned play of ``copies`` cards of ranks ``rank .. rank+length-1`` plus ``extra``."""
    cdef int counts[NUM_RANKS]
    cdef int r
    for r in range(NUM_RANKS):
        counts[r] = extra[r] + (copies if rank <= r < rank + length else 0)
    return _move_from_packed(_packed(counts), _categories[category], rank, length)


cdef int _init() except -1:
    """Fill the tables from ``moves.move_from_packed`` (the reference's interning), once per process."""
    global _ready, _reference, _move_from_packed, _move_type, _pass, _categories, PASS_MOVE, ROCKET_MOVE
    from paiju.games.doudizhu.movegen import reference_legal_moves
    from paiju.games.doudizhu.moves import PASS, Category, Move, move_from_packed

    _reference, _move_from_packed, _move_type, _pass = reference_legal_moves, move_from_packed, Move, PASS
    _categories = list(Category)
    cdef int none[NUM_RANKS]
    cdef int kicker[NUM_RANKS]
    cdef int r, t, k, n, kind, length, low
    for r in range(NUM_RANKS):
        none[r] = 0
    PASS_MOVE = _own(PASS)
    none[SMALL_JOKER] = none[BIG_JOKER] = 1
    ROCKET_MOVE = _own(_play(ROCKET, SMALL_JOKER, 1, 0, none))
    none[SMALL_JOKER] = none[BIG_JOKER] = 0
    for n in range(1, 5):
        for r in range(NUM_RANKS):
            SIMPLE[n][r] = _own(_play(SOLO + n - 1 if n < 4 else BOMB, r, 1, n, none))
    for kind in range(3):
        for length in range(CHAIN_MIN[kind], CHAIN_MAX[kind] + 1):
            for low in range(TOP_CHAIN - length + 2):
                CHAIN[kind][length][low] = _own(_play(SOLO_CHAIN + kind, low, length, kind + 1, none))
    for n in range(2):
        for t in range(SMALL_JOKER):
            for k in range(NUM_RANKS):
                if k != t:
                    kicker[:] = none
                    kicker[k] = n + 1
                    TRIO_WITH[n][t][k] = _own(_play(TRIO_SOLO + n, t, 1, 3, kicker))
    _ready = True
    return 0


# -- collecting the list ---------------------------------------------------------------------------------

cdef int _grow(Out* out) except -1:
    cdef PyObject** items = <PyObject**>malloc(2 * out.cap * sizeof(PyObject*))
    if items == NULL:
        raise MemoryError()
    memcpy(items, out.items, out.n * sizeof(PyObject*))
    if out.heap:
        free(out.items)
    out.items, out.cap, out.heap = items, 2 * out.cap, True
    return 0


cdef inline int _emit(Out* out, PyObject* move) except -1:
    if out.n == out.cap:
        _grow(out)
    out.items[out.n] = move
    out.n += 1
    return 0


cdef object _as_list(Out* out):
    cdef PyObject* result = PyList_New(out.n)
    cdef Py_ssize_t i
    if result == NULL:
        raise MemoryError()
    for i in range(out.n):
        Py_INCREF(out.items[i])
        PyList_SET_ITEM(result, i, out.items[i])
    plays = <object>result
    Py_DECREF(result)
    return plays


# -- the categories --------------------------------------------------------------------------------------

cdef int _above(Out* out, Hand* hand, int copies, int rank) except -1:
    """The solos, pairs, trios or bombs (``copies``) of every rank above ``rank`` holding enough cards."""
    cdef int r
    for r in range(rank + 1, NUM_RANKS):
        if hand.count[r] >= copies:
            _emit(out, SIMPLE[copies][r])
    return 0


cdef int _chains(Out* out, Hand* hand, int kind, int length, int above) except -1:
    """Chains of kind ``kind`` and this length whose lowest rank is above ``above``, lowest first."""
    cdef int low
    cdef int need = (1 << length) - 1
    cdef int held = hand.held[kind + 1] & CHAIN_RANKS
    if length < CHAIN_MIN[kind] or length > CHAIN_MAX[kind]:
        return 0
    for low in range(above + 1, TOP_CHAIN - length + 2):
        if (held >> low) & need == need:
            _emit(out, CHAIN[kind][length][low])
    return 0


cdef int _trio_with(Out* out, Hand* hand, int pair, int trios) except -1:
    """Trio + solo (``pair`` 0) or trio + pair (1) for each trio in the mask ``trios``, low to high, the
    kicker any other rank holding enough cards, low to high."""
    cdef int t, k
    for t in range(SMALL_JOKER):
        if (trios >> t) & 1:
            for k in range(NUM_RANKS):
                if k != t and hand.count[k] > pair:
                    _emit(out, TRIO_WITH[pair][t][k])
    return 0


cdef int _emit_kicked(Out* out, Kickers* spec, int low_kicker, int high_kicker, int[NUM_RANKS] taken) except -1:
    """Emit the play of ``spec``'s main part with the kicker cards ``taken`` (a four's two kicker ranks
    are also given, to index its table; ``-1`` for planes)."""
    cdef PyObject** slot
    cdef PyObject* found
    cdef uint64_t code = 0
    cdef int r
    if spec.category == FOUR_TWO_SOLOS or spec.category == FOUR_TWO_PAIRS:
        slot = &FOUR_TWO[spec.category - FOUR_TWO_SOLOS][spec.rank][low_kicker][high_kicker]
        if slot[0] == NULL:
            slot[0] = _own(_play(spec.category, spec.rank, 1, 4, taken))
        return _emit(out, slot[0])
    for r in range(NUM_RANKS):
        code |= (<uint64_t>taken[r]) << (3 * r)
    code |= (<uint64_t>(spec.category - PLANE_SOLOS) << 45) | (<uint64_t>spec.rank << 46) | (
        <uint64_t>spec.length << 50)
    cdef object key = code
    found = PyDict_GetItem(<PyObject*>_plane_plays, <PyObject*>key)
    if found == NULL:
        move = _play(spec.category, spec.rank, spec.length, 3, taken)
        _plane_plays[key] = move
        found = <PyObject*>move
    return _emit(out, found)


cdef int _multisets(Out* out, Kickers* spec, int rank, int left, int[NUM_RANKS] taken) except -1:
    """Kicker multisets of ``left`` more units from ranks ``0..rank``, in the reference's knapsack order:
    ascending by the count of the highest rank, then of the next lower one, and so on."""
    cdef int m
    if rank < 0:
        if left == 0 and not (spec.no_rocket and taken[SMALL_JOKER] and taken[BIG_JOKER]):
            _emit_kicked(out, spec, -1, -1, taken)
        return 0
    if left > spec.below[rank + 1]:
        return 0
    for m in range(min(spec.cap[rank], left) + 1):
        taken[rank] = m * spec.size
        _multisets(out, spec, rank - 1, left - m, taken)
    taken[rank] = 0
    return 0


cdef int _kickers(Out* out, Kickers* spec, int[NUM_RANKS] available, int most) except -1:
    """Every kicker multiset of ``spec.count`` units, at most ``min(available[r], most)`` of rank r (the
    reference's ``_multisets``); two units: distinct ranks pairwise low-first, then one rank twice."""
    cdef int taken[NUM_RANKS]
    cdef int r, i, j
    for r in range(NUM_RANKS):
        taken[r] = 0
    if spec.count == 2:
        for i in range(NUM_RANKS):
            if available[i]:
                for j in range(i + 1, NUM_RANKS):
                    if available[j] and not (spec.no_rocket and i == SMALL_JOKER and j == BIG_JOKER):
                        taken[i] = taken[j] = spec.size
                        _emit_kicked(out, spec, i, j, taken)
                        taken[i] = taken[j] = 0
        for r in range(NUM_RANKS):
            # A four's double pair of a higher four was already played as that four with this one's pairs.
            if min(available[r], most) >= 2 and not (spec.category == FOUR_TWO_PAIRS and r > spec.rank):
                taken[r] = 2 * spec.size
                _emit_kicked(out, spec, r, r, taken)
                taken[r] = 0
        return 0
    spec.below[0] = 0
    for r in range(NUM_RANKS):
        spec.cap[r] = min(available[r], most, spec.count)
        spec.below[r + 1] = spec.below[r] + spec.cap[r]
    return _multisets(out, spec, NUM_RANKS - 1, spec.count, taken)


cdef int _with_kickers(Out* out, Hand* hand, int category, int rank, int length, object rules) except -1:
    """One four (``rank``) or plane (``rank .. rank+length-1``) with its two / ``length`` kickers of the
    category: never of the main part's ranks; solo kickers never hold three cards next to a plane, never
    four equal cards nor both jokers unless the ruleset allows; pairs are of distinct ranks, no jokers,
    unless ``bomb_as_kickers`` lets four equal cards be two pairs."""
    cdef Kickers spec
    cdef int available[NUM_RANKS]
    cdef int r
    cdef bint bombs = rules.bomb_as_kickers
    cdef bint four = category == FOUR_TWO_SOLOS or category == FOUR_TWO_PAIRS
    spec.category, spec.rank, spec.length = category, rank, length
    spec.count = 2 if four else length
    for r in range(NUM_RANKS):
        available[r] = 0 if rank <= r < rank + length else hand.count[r]
    if category == FOUR_TWO_SOLOS or category == PLANE_SOLOS:
        if category == PLANE_SOLOS:
            for r in range(rank - 1, rank + length + 1, length + 1):  # the ranks either side of the plane
                if 0 <= r <= TOP_CHAIN and available[r] > 2:
                    available[r] = 2
        spec.size = 1
        spec.no_rocket = not rules.rocket_as_kickers
        return _kickers(out, &spec, available, 4 if bombs else 3)
    for r in range(NUM_RANKS):
        available[r] = available[r] // 2 if r < SMALL_JOKER else 0
    spec.size = 2
    spec.no_rocket = False
    return _kickers(out, &spec, available, 2 if bombs else 1)


cdef int _fours_with_two(Out* out, Hand* hand, int category, int above, object rules) except -1:
    """Four + two solos or four + two pairs, the four ranked above ``above``, highest first."""
    cdef int four
    if rules.no_four_with_two:
        return 0
    for four in range(TWO, above, -1):
        if hand.count[four] == 4:
            _with_kickers(out, hand, category, four, 1, rules)
    return 0


cdef int _planes_with(Out* out, Hand* hand, int category, int length, int above, object rules) except -1:
    """Planes of this length above ``above`` with their kickers, highest plane first."""
    cdef int low
    cdef int need = (1 << length) - 1
    cdef int trios = hand.held[3] & CHAIN_RANKS
    if length < CHAIN_MIN[2] or length > CHAIN_MAX[2]:
        return 0
    for low in range(TOP_CHAIN - length + 1, above, -1):
        if (trios >> low) & need == need:
            _with_kickers(out, hand, category, low, length, rules)
    return 0


cdef int _leads(Out* out, Hand* hand, object rules) except -1:
    """All plays of the hand in the reference's order: by rank its solo, pair, trio and bomb, the rocket,
    the chains of each kind (by highest rank, then length), trio+solos, trio+pairs; then, if it holds a
    plane or a bomb, four+two solos, four+two pairs (highest four first), planes with solos, with pairs
    (highest plane first, longest first)."""
    cdef int r, n, kind, end, length, run, category, longest
    cdef int runs[TOP_CHAIN + 1]    # consecutive plane ranks ending at each rank
    for r in range(NUM_RANKS):
        for n in range(1, hand.count[r] + 1):
            _emit(out, SIMPLE[n][r])
    if hand.count[SMALL_JOKER] and hand.count[BIG_JOKER]:
        _emit(out, ROCKET_MOVE)
    for kind in range(3):
        run = 0
        for end in range(TOP_CHAIN + 1):
            run = run + 1 if (hand.held[kind + 1] >> end) & 1 else 0
            runs[end] = run
            for length in range(CHAIN_MIN[kind], min(run, CHAIN_MAX[kind]) + 1):
                _emit(out, CHAIN[kind][length][end - length + 1])
    if not hand.held[3]:
        return 0
    _trio_with(out, hand, 0, hand.held[3])
    _trio_with(out, hand, 1, hand.held[3])
    cdef int planes = hand.held[3] & CHAIN_RANKS
    if not (planes & (planes >> 1) or hand.held[4]):
        return 0
    _fours_with_two(out, hand, FOUR_TWO_SOLOS, -1, rules)
    _fours_with_two(out, hand, FOUR_TWO_PAIRS, -1, rules)
    for category in range(PLANE_SOLOS, PLANE_PAIRS + 1):
        longest = 5 if category == PLANE_SOLOS else 4  # trios with solos / pairs in 20 cards
        for end in range(TOP_CHAIN, 0, -1):
            for length in range(min(runs[end], longest), 1, -1):
                _with_kickers(out, hand, category, end - length + 1, length, rules)
    return 0


cdef int _follows(Out* out, Hand* hand, int category, int rank, int length, object rules) except -1:
    """Plays beating a play of ``category``: pass, the same category and length ranked higher, the bombs
    (above it when it is a bomb), the rocket."""
    cdef int bomb_floor = -1
    _emit(out, PASS_MOVE)
    if category == BOMB or category == ROCKET:
        bomb_floor = rank
    elif category <= TRIO:
        _above(out, hand, category, rank)
    elif category == TRIO_SOLO or category == TRIO_PAIR:
        _trio_with(out, hand, category - TRIO_SOLO, hand.held[3] & ~((2 << rank) - 1))
    elif category <= PLANE:
        _chains(out, hand, category - SOLO_CHAIN, length, rank)
    elif category == FOUR_TWO_SOLOS or category == FOUR_TWO_PAIRS:
        _fours_with_two(out, hand, category, rank, rules)
    else:
        _planes_with(out, hand, category, length, rank, rules)
    if hand.held[4]:
        _above(out, hand, 4, bomb_floor)
    if hand.count[SMALL_JOKER] and hand.count[BIG_JOKER] and category != ROCKET:
        _emit(out, ROCKET_MOVE)
    return 0


cdef int _read_hand(object hand, Hand* into) except -1:
    """Counts and masks of a list or tuple of 15 ints; False for anything else or impossible counts."""
    cdef Py_ssize_t size
    cdef int r, n, overflow
    cdef long c
    cdef object item
    if type(hand) is list:
        size = len(<list>hand)
    elif type(hand) is tuple:
        size = len(<tuple>hand)
    else:
        return False
    if size != NUM_RANKS:
        return False
    for n in range(5):
        into.held[n] = 0
    for r in range(NUM_RANKS):
        item = (<list>hand)[r] if type(hand) is list else (<tuple>hand)[r]
        if not isinstance(item, int):
            return False
        c = PyLong_AsLongAndOverflow(<PyObject*>item, &overflow)
        if overflow or not 0 <= c <= (1 if r >= SMALL_JOKER else 4):
            return False
        into.count[r] = c
        for n in range(1, c + 1):
            into.held[n] |= 1 << r
    return True


def legal_moves(hand, follow, rules):
    """Every distinct legal play of ``hand`` (15 counts): leading when ``follow`` is ``None`` or a pass,
    else following ``follow`` (pass first, then same-category plays by rank, then bombs, then the
    rocket); the same ``Move`` objects in the same order as ``movegen.reference_legal_moves``."""
    cdef Hand counts
    cdef Out out
    cdef PyObject* local[LOCAL_ITEMS]
    cdef int category = PASS_CATEGORY
    if not _ready:
        _init()
    if not _read_hand(hand, &counts) or not (follow is None or type(follow) is _move_type):
        return _reference(hand, follow, rules)
    if follow is not None and follow is not _pass:
        category = follow.category
        if category == PASS_CATEGORY:
            return _reference(hand, follow, rules)
    out.items, out.n, out.cap, out.heap = local, 0, LOCAL_ITEMS, False
    try:
        if follow is None or follow is _pass:
            _leads(&out, &counts, rules)
        else:
            _follows(&out, &counts, category, follow.rank, follow.length, rules)
        return _as_list(&out)
    finally:
        if out.heap:
            free(out.items)
