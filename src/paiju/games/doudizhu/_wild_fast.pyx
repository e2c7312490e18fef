"""Compiled 癞子 legal-move generation: the fast path of ``wild.legal_moves``.

The same plays in the same order as the reference (``wild.reference_legal_moves``), built in C:

- A set of cards is one 64-bit word, four bits per rank (``UNIT[r]``), so sets add as integers and compare as
  the reference's packed ints do (a higher rank weighs more).
- Main parts: for one rank (``_fills_one``) or a chain window (``_fills``) and its copies per rank, every way of
  taking natural cards and filling the rest with wild cards of any wild rank, in ascending order (the window's
  search goes over the ranks from the highest down, each count from the smallest up). Which ranks and windows
  can be filled at all is known from the counts before any search (``Ctx.can``, the wild cards each rank needs).
- Kickers: from what the main part leaves (wild cards as their own rank), never of a main rank, the classic
  rules (``movegen._solo_kickers`` / ``_pair_kickers``), in ascending order (``_kickers`` over the ranks that can
  give one; ``_two_kickers`` for two units, the four+two plays and two-trio planes); each main part's plays are
  then one ascending run, and the runs of a reading are merged (``_merge``). Leading, a plane window's main
  parts are searched once for its plane and both its planes with kickers (``_keep_plane``).
- The plays are produced reading by reading in the reference's order (``wild._order``: category, bomb tier,
  rank, length, then the cards), so no sort is needed; within a reading, one play per P, standing for the
  smallest E (equal P meet after the merge, the smallest E first).
- The context rule: one (P, E) pair has exactly one reading, except a four with the four cards of another rank
  as its two pairs (``bomb_as_kickers``, ``44445555``) and no substitution, which is read as the higher four
  (leading: the canonical reading; following four+two pairs: the higher four beats whenever the lower does),
  so that reading of the lower four is skipped. Following, only readings that beat the play are produced.
- Moves are the reference's objects (``wild._move``, which interns through ``moves.move_from_packed``): plays
  that stand for themselves sit in C arrays (solos to bombs by rank, chains, trio+kicker, wild bombs, the
  rocket), the others in a C hash table keyed by (P, E, category, rank, length, tier); a play met before costs
  an array read or one probe. The probes are made once the list is laid out (``_resolve``), the slots of the
  next few prefetched, as are the moves while the Python list is built: the table and the moves of a long
  game outgrow the caches. Two smaller tables keep what is met often close together, as the classic
  generator's tables do (keyed by parts of the hand, never by whole hands):

  - a main part's plays with two kicker units by kicker set (``_block``: one probe per main part, then an
    array read per play; the places are filled as the moves are found);
  - whole lists of plays that depend on a part of the hand only (``_kept``: one probe and a copy per list):
    leading, all of one chain kind's plays, which depend on the natural cards of the ranks 3..A up to the
    chain's copies and on the wild cards held (``_chain_key``); leading and following, each reading with
    kickers (trio+solo or +pair of one trio, four+two of one four, a plane with kickers of one window), whose
    plays depend on the cards of its main ranks up to its copies, every other rank's cards up to the most its
    kickers can take of one rank, and the wild cards held (``_reading_key``). Readings with kickers are most of
    a long lead's plays, and a reading's list serves every hand that agrees on those counts.

  Both are bounded (dropped whole when full, never while a call still reads them; ``keep_at_most``) and
  dropped with the hash table by ``forget``.

Input outside this module's domain (a hand that is not a list or tuple of 15 ints with 0-4 cards per rank and
at most one of each joker; wild ranks that are not a list or tuple of at most two distinct ints 0..12; a follow
that is not a ``Move``; rules that are not a ``DouDizhuRules``) goes to the reference unchanged.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from paiju.games.doudizhu._constants cimport *

ctypedef uint64_t u64


cdef extern from "Python.h":
    ctypedef struct PyObject
    PyObject* PyList_New(Py_ssize_t size)
    void PyList_SET_ITEM(PyObject* list, Py_ssize_t index, PyObject* item)
    long PyLong_AsLongAndOverflow(PyObject* o, int* overflow) except? -1
    bint PyLong_Check(PyObject* o)
    PyObject* PyList_GET_ITEM(PyObject* list, Py_ssize_t index)
    PyObject* PyTuple_GET_ITEM(PyObject* tuple, Py_ssize_t index)
    Py_ssize_t PyList_GET_SIZE(PyObject* list)
    Py_ssize_t PyTuple_GET_SIZE(PyObject* tuple)
    void* Py_TYPE(PyObject* o)
    void Py_INCREF(PyObject* o)
    void Py_DECREF(PyObject* o)


cdef extern from *:
    int __builtin_ctz(unsigned int bits) nogil       # the lowest set bit's index (gcc, clang)
    int __builtin_ctzll(unsigned long long bits) nogil
    int __builtin_popcount(unsigned int bits) nogil
    void __builtin_prefetch(const void* address) nogil


cdef enum:
    SOFT = 0                 # bomb tiers (``moves.SOFT``, ``HARD``, ``WILD``)
    HARD = 1
    WILD = 2
    MOST_WILD = 2            # wild ranks handled here (more go to the reference)
    PLANE_SOLOS_MOST = 5     # ``moves.PLANE_KICKER_SHAPES``: trios in a plane with solos / with pairs
    PLANE_PAIRS_MOST = 4
    LOCAL = 256              # elements of each work buffer on the C stack before it moves to the heap
    MAX_VARS = 16            # ranks a window's search looks at: its natural ranks and the wild ranks
    NOT_RANKS = 0x1FFF       # ranks 3..2 (bits 0..12)
    FOLLOW_SLOTS = 4096      # plays to follow whose reading is remembered
    AHEAD = 16               # hash table slots and moves prefetched ahead
    CHAIN_RANKS = 0xFFF      # ranks 3..A (bits 0..11)
    PLANE_MOST = 6           # trios in a plane at most
    KEPT_LISTS = 1 << 16     # lists kept (``_kept``) before they are all dropped,
    KEPT_MOVES = 1 << 21     # and places in them
    BLOCKS_KEPT = 1 << 14    # main parts whose plays with two kicker units are kept by kicker (``_block``)
    TWO_SETS = 120           # sets of two kicker units of ranks 0..14 (``_two_index``)

# Chain kinds (solo chain, pair chain, plane): shortest and longest length (``moves.CHAIN_SHAPES``).
cdef int CHAIN_MIN[3]
cdef int CHAIN_MAX[3]
CHAIN_MIN[:] = [5, 3, 2]
CHAIN_MAX[:] = [12, 10, 6]

cdef u64 UNIT[NUM_RANKS + 1]      # one card of rank r: bits 4r .. 4r+3 hold the count
cdef u64 PAIR_UNIT[NUM_RANKS]
cdef u64 ONES = 0            # one card of every rank
cdef int _r
for _r in range(NUM_RANKS + 1):
    UNIT[_r] = (<u64>1) << (4 * _r)
for _r in range(NUM_RANKS):
    PAIR_UNIT[_r] = 2 * UNIT[_r]
    ONES += UNIT[_r]


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``_constants.pxd``'s ranks and
    categories, the bomb tiers, the chain and plane-kicker lengths), for ``tests/native/test_wild_fast.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "TWO": TWO, "SMALL_JOKER": SMALL_JOKER, "BIG_JOKER": BIG_JOKER,
        "TOP_CHAIN": TOP_CHAIN, "SOLO": SOLO, "PAIR": PAIR, "TRIO": TRIO, "TRIO_SOLO": TRIO_SOLO,
        "TRIO_PAIR": TRIO_PAIR, "SOLO_CHAIN": SOLO_CHAIN, "PAIR_CHAIN": PAIR_CHAIN, "PLANE": PLANE,
        "PLANE_SOLOS": PLANE_SOLOS, "PLANE_PAIRS": PLANE_PAIRS, "FOUR_TWO_SOLOS": FOUR_TWO_SOLOS,
        "FOUR_TWO_PAIRS": FOUR_TWO_PAIRS, "BOMB": BOMB, "ROCKET": ROCKET, "PASS_CATEGORY": PASS_CATEGORY,
        "SOFT": SOFT, "HARD": HARD, "WILD": WILD,
        "CHAIN_MIN": [CHAIN_MIN[i] for i in range(3)], "CHAIN_MAX": [CHAIN_MAX[i] for i in range(3)],
        "PLANE_SOLOS_MOST": PLANE_SOLOS_MOST, "PLANE_PAIRS_MOST": PLANE_PAIRS_MOST,
    }


# -- work buffers: on the C stack, moved to the heap when they fill ---------------------------------------

cdef struct Buf:
    char* data
    Py_ssize_t n             # elements held
    Py_ssize_t cap
    Py_ssize_t size          # bytes per element
    bint heap


cdef struct Item:            # a play of the reading being built: the cards played and what they stand for,
    u64 p
    u64 e
    PyObject** place         # and its move's place in a block (``_block``), or NULL


cdef struct Pending:         # a play of the legal list still to look up in the hash table
    u64 p
    u64 e
    u64 meta
    u64 hash
    Py_ssize_t at            # its place in the list
    PyObject** place         # where the move is kept once found, or NULL


cdef inline void _start(Buf* b, void* local, Py_ssize_t size) noexcept:
    b.data, b.n, b.cap, b.size, b.heap = <char*>local, 0, LOCAL, size, False


cdef int _reserve(Buf* b, Py_ssize_t need) except -1:
    cdef Py_ssize_t cap = b.cap
    cdef char* data
    if need <= cap:
        return 0
    while cap < need:
        cap *= 2
    data = <char*>malloc(cap * b.size)
    if data == NULL:
        raise MemoryError()
    memcpy(data, b.data, b.n * b.size)
    if b.heap:
        free(b.data)
    b.data, b.cap, b.heap = data, cap, True
    return 0


cdef inline void _release(Buf* b) noexcept:
    if b.heap:
        free(b.data)
        b.heap = False


cdef inline int _push_word(Buf* b, u64 word) except -1:
    if b.n == b.cap:
        _reserve(b, b.n + 1)
    (<u64*>b.data)[b.n] = word
    b.n += 1
    return 0


cdef inline int _push_item(Buf* b, u64 p, u64 e, PyObject** place=NULL) except -1:
    cdef Item* item
    if b.n == b.cap:
        _reserve(b, b.n + 1)
    item = (<Item*>b.data) + b.n
    item.p, item.e, item.place = p, e, place
    b.n += 1
    return 0


cdef inline int _push_index(Buf* b, Py_ssize_t index) except -1:
    if b.n == b.cap:
        _reserve(b, b.n + 1)
    (<Py_ssize_t*>b.data)[b.n] = index
    b.n += 1
    return 0


# -- one call's position ------------------------------------------------------------------------------------

cdef struct Ctx:
    int count[NUM_RANKS]     # the hand
    int nat[NUM_RANKS]       # its natural cards (0 for a wild rank)
    int nw                   # wild ranks, ascending, and the cards of each held
    int wild[MOST_WILD]
    int held_wild[MOST_WILD]
    int budget               # wild cards held
    int wild_bits            # bit r: rank r is wild
    u64 natural              # the nibbles of the ranks that are not wild: ``p & natural`` is P's natural cards
    int can[5]               # can[k], bit r: k cards of rank r can be made (natural and wild cards; jokers: solos)
    int have[3]              # have[n], bit r: rank r holds n cards or more (n = 1, 2; pairs never of jokers)
    int most_solo            # solo kickers of one rank at most (4 with ``bomb_as_kickers``)
    int most_pair            # pair kickers of one rank at most (2 with ``bomb_as_kickers``)
    bint no_rocket           # solo kickers may not be both jokers
    bint four_two            # four+two plays exist (not ``no_four_with_two``)
    Buf* mains               # u64: main parts of the reading being built
    Buf* planes              # u64: the main parts of the plane windows, kept while leading (``_plane_mains``)
    int plane_at[TOP_CHAIN + 1][PLANE_MOST + 1]   # a window's first main part in ``planes``; -1: not kept
    int plane_n[TOP_CHAIN + 1][PLANE_MOST + 1]    # and how many it has
    bint keep_planes
    size_t epoch             # ``_blocks_epoch`` when the call began
    u64 hand                 # the counts as ``UNIT``'s nibbles
    u64 capped[5]            # capped[k]: the same, up to k cards of each rank but the wild ranks
    Buf* keeps               # Keep: the lists of ``out`` to keep once resolved (``_kept_or_mark``)
    Buf* items               # Item: its plays
    Buf* spare               # Item: room to merge them
    Buf* runs                # Py_ssize_t: where each ascending run of ``items`` starts
    Buf* out                 # PyObject*: the legal list, borrowed (the tables own the moves)
    Buf* pending             # Pending: its plays to look up


cdef inline void _needs(Ctx* c, int copies, int* needs) noexcept:
    """``needs[r]``: the wild cards needed for ``copies`` cards of each rank 3..A."""
    cdef int r
    for r in range(TOP_CHAIN + 1):
        needs[r] = copies if (c.wild_bits >> r) & 1 else copies - min(copies, c.nat[r])


# -- the moves: the reference's interned objects, by key -----------------------------------------------------

cdef struct Entry:
    u64 p
    u64 e
    u64 meta                 # category | rank << 8 | length << 16 | tier << 24 | 1 << 32; 0: empty slot
    PyObject* move

cdef Entry* _table = NULL
cdef size_t _slots = 0       # a power of two
cdef size_t _filled = 0
cdef list _owned = []        # keeps every move the tables hold alive
cdef bint _ready = False
cdef object _reference, _wild_move, _move_type, _rules_type, _pass, _categories
cdef object _rules_seen = None   # the last rules object read, and its options
cdef int _seen_most_solo, _seen_most_pair
cdef bint _seen_no_rocket, _seen_four_two

# Plays that stand for themselves, filled on first use (the same objects the hash table would give).
cdef PyObject* SIMPLE[5][NUM_RANKS]                     # [copies][rank]: solo, pair, trio, hard bomb
cdef PyObject* WILD_BOMB[TWO + 1]                       # the four cards of a wild rank
cdef PyObject* CHAIN[3][TOP_CHAIN + 2][TOP_CHAIN + 1]   # [kind][length][lowest rank]
cdef PyObject* TRIO_WITH[2][TWO + 1][NUM_RANKS]         # [pair kicker][trio][kicker]
cdef PyObject* ROCKET_MOVE = NULL


cdef struct Seen:            # a play to follow and its reading (``follow.category`` etc., read once)
    PyObject* move           # owned
    int category
    int rank
    int length
    int tier

cdef Seen _seen_follows[FOLLOW_SLOTS]
cdef PyObject* SMALL_INT[5]  # the ints 0..4


cdef inline size_t _hash(u64 p, u64 e, u64 meta) noexcept:
    cdef u64 h = p ^ (e * <u64>0x9E3779B97F4A7C15) ^ (meta * <u64>0xC2B2AE3D27D4EB4F)
    h ^= h >> 33  # MurmurHash3's finaliser: every key bit moves the low bits the table indexes by
    h *= <u64>0xFF51AFD7ED558CCD
    h ^= h >> 33
    h *= <u64>0xC4CEB9FE1A85EC53
    return <size_t>(h ^ (h >> 33))


cdef inline u64 _meta(int category, int rank, int length, int tier) noexcept:
    return <u64>category | (<u64>rank << 8) | (<u64>length << 16) | (<u64>tier << 24) | (<u64>1 << 32)


cdef int _insert(u64 p, u64 e, u64 meta, PyObject* move) except -1:
    """Store a move (the table grows at half full)."""
    global _table, _slots, _filled
    cdef Entry* old = _table
    cdef size_t old_slots = _slots
    cdef size_t i, j
    if 2 * (_filled + 1) > _slots:
        _slots = 4096 if old_slots == 0 else 2 * old_slots
        _table = <Entry*>malloc(_slots * sizeof(Entry))
        if _table == NULL:
            _table, _slots = old, old_slots
            raise MemoryError()
        memset(_table, 0, _slots * sizeof(Entry))
        for i in range(old_slots):
            if old[i].meta:
                j = _hash(old[i].p, old[i].e, old[i].meta) & (_slots - 1)
                while _table[j].meta:
                    j = (j + 1) & (_slots - 1)
                _table[j] = old[i]
        free(old)
    i = _hash(p, e, meta) & (_slots - 1)
    while _table[i].meta:
        if _table[i].meta == meta and _table[i].p == p and _table[i].e == e:
            return 0  # stored meanwhile (the reference ran Python code: another thread may have)
        i = (i + 1) & (_slots - 1)
    _table[i].p, _table[i].e, _table[i].meta, _table[i].move = p, e, meta, move
    _filled += 1
    return 0


cdef object _packed(u64 cards):
    """The reference's packed form (``cards.pack``: one byte per rank) of a set of cards."""
    cdef unsigned char counts[NUM_RANKS]
    cdef int r
    for r in range(NUM_RANKS):
        counts[r] = (cards >> (4 * r)) & 0xF
    return int.from_bytes(counts[:NUM_RANKS], "little")


cdef PyObject* _create(Ctx* c, u64 p, u64 e, int category, int rank, int length, int tier) except NULL:
    """The reference's move (``wild._move``) for a key not in the tables yet; stored in the hash table."""
    cdef int i
    played = _packed(p)
    stands = played if e == p else _packed(e)
    mask = 0
    for i in range(c.nw):  # ``wild._mask``
        mask += <object>0xFF << (8 * c.wild[i])  # a Python int: the wild ranks' bytes lie above 64 bits
    move = _wild_move(played, stands, (_categories[category], rank, length), mask)
    _owned.append(move)
    _insert(p, e, _meta(category, rank, length, tier), <PyObject*>move)
    return <PyObject*>move


cdef inline int _put(Ctx* c, PyObject* move) except -1:
    if c.out.n == c.out.cap:
        _reserve(c.out, c.out.n + 1)
    (<PyObject**>c.out.data)[c.out.n] = move
    c.out.n += 1
    return 0


cdef inline int _emit(Ctx* c, u64 p, u64 e, int category, int rank, int length, int tier,
                      PyObject** place=NULL) except -1:
    """Append the move of the cards ``p`` standing for ``e`` in this reading: a place in the legal list, filled
    from the hash table by ``_resolve`` (which also keeps it at ``place``, when given)."""
    cdef Pending* pending
    if c.pending.n == c.pending.cap:
        _reserve(c.pending, c.pending.n + 1)
    pending = (<Pending*>c.pending.data) + c.pending.n
    pending.p, pending.e, pending.meta, pending.at = p, e, _meta(category, rank, length, tier), c.out.n
    pending.place = place
    pending.hash = _hash(p, e, pending.meta)
    c.pending.n += 1
    return _put(c, NULL)


cdef int _resolve(Ctx* c) except -1:
    """Fill the legal list's places left by ``_emit`` from the hash table (the slots of the next few prefetched:
    the table is larger than the caches), creating the moves not met before."""
    cdef Pending* pending = <Pending*>c.pending.data
    cdef Py_ssize_t n = c.pending.n, j
    cdef size_t i
    cdef PyObject* move
    cdef u64 meta
    for j in range(min(n, AHEAD)):
        if _slots:
            __builtin_prefetch(&_table[pending[j].hash & (_slots - 1)])
    for j in range(n):
        move = NULL
        if _slots:
            if j + AHEAD < n:
                __builtin_prefetch(&_table[pending[j + AHEAD].hash & (_slots - 1)])
            meta = pending[j].meta
            i = pending[j].hash & (_slots - 1)
            while _table[i].meta:
                if _table[i].meta == meta and _table[i].p == pending[j].p and _table[i].e == pending[j].e:
                    move = _table[i].move
                    break
                i = (i + 1) & (_slots - 1)
        if move == NULL:
            meta = pending[j].meta
            move = _create(c, pending[j].p, pending[j].e, meta & 0xFF, (meta >> 8) & 0xFF, (meta >> 16) & 0xFF,
                           (meta >> 24) & 0xFF)
        (<PyObject**>c.out.data)[pending[j].at] = move
        if pending[j].place != NULL and _blocks_epoch == c.epoch:  # the blocks were not dropped meanwhile
            pending[j].place[0] = move
    return 0


cdef inline int _emit_own(Ctx* c, PyObject** slot, u64 p, int category, int rank, int length, int tier) except -1:
    """Append a play that stands for itself, from its array slot (filled on first use)."""
    if slot[0] == NULL:
        slot[0] = _create(c, p, p, category, rank, length, tier)
    return _put(c, slot[0])


# -- kept lists: a chain kind's or a kicker reading's plays depend on a part of the hand only ------------------

cdef struct Kept:
    u64 key                  # what the list depends on (``_chain_key``, ``_reading_key``); 0: empty slot
    u64 what                 # which list (``_chains_what``, ``_reading_what``)
    size_t at                # its moves: ``_kept_pool[at:at + n]``
    size_t n


cdef struct Keep:            # a list of this call's ``out`` to keep once resolved: ``out[start:end]``
    u64 key
    u64 what
    Py_ssize_t start
    Py_ssize_t end

cdef Kept* _kept = NULL
cdef size_t _kept_slots = 0      # a power of two
cdef size_t _kept_filled = 0
cdef PyObject** _kept_pool = NULL    # the kept lists' moves, one after the other (borrowed, as the hash table's)
cdef size_t _kept_moves = 0      # places taken in the pool
cdef size_t _kept_most = KEPT_LISTS        # lists kept before they are all dropped
cdef size_t _kept_moves_most = KEPT_MOVES  # and places


cdef inline u64 _chain_key(Ctx* c, int kind) noexcept:
    """What a hand's leading chains of one kind depend on: for each rank 3..A its natural cards up to the chain's
    copies, and the wild cards held of each wild rank (``Ctx.capped``)."""
    return (c.capped[kind + 1] & c.natural & _run(0, TOP_CHAIN + 1, 15)) | (c.hand & ~c.natural) | <u64>1 << 63


cdef inline u64 _chains_what(Ctx* c, int kind) noexcept:
    """The leading list of every chain of a kind (length 0: no reading has it), under the wild ranks in force."""
    return _meta(SOLO_CHAIN + kind, 0, 0, 0) | <u64>c.wild_bits << 40


cdef inline u64 _reading_what(Ctx* c, int category, int low, int length) noexcept:
    """A reading with kickers, under the wild ranks and the kicker options in force."""
    return (_meta(category, low, length, 0) | <u64>c.wild_bits << 40 | <u64>(c.most_solo == 4) << 56
            | <u64>(c.most_pair == 2) << 57 | <u64>c.no_rocket << 58)


cdef u64 _reading_key(Ctx* c, int category, int low, int length) noexcept:
    """What the plays of a reading with kickers depend on (``_trio_with``, ``_with_kickers``): the cards of its main
    ranks up to its copies (its main parts), every other rank's cards up to the most that its kickers can take of
    it (the kicker sets), and the wild cards held of each wild rank, all of them (``Ctx.capped``)."""
    cdef int copies = 4 if category == FOUR_TWO_SOLOS or category == FOUR_TWO_PAIRS else 3
    cdef int units = length if category == PLANE_SOLOS or category == PLANE_PAIRS else 2
    cdef int most
    cdef u64 window = _run(low, length, 15)
    if category == TRIO_SOLO or category == TRIO_PAIR:
        most = 1 + category - TRIO_SOLO
    elif category == FOUR_TWO_PAIRS or category == PLANE_PAIRS:
        most = 2 * min(c.most_pair, units)
    else:
        most = min(c.most_solo, units)
    return (c.capped[most] & ~window) | (c.capped[copies] & window) | <u64>1 << 63


cdef Kept* _kept_slot(u64 key, u64 what) noexcept:
    """The slot of a list in the kept lists: the list, or the empty slot it would take."""
    cdef size_t i = _hash(key, what, 0) & (_kept_slots - 1)
    while _kept[i].key and (_kept[i].key != key or _kept[i].what != what):
        i = (i + 1) & (_kept_slots - 1)
    return &_kept[i]


cdef void _drop_kept() noexcept:
    global _kept, _kept_slots, _kept_filled, _kept_pool, _kept_moves
    free(_kept)
    free(_kept_pool)
    _kept, _kept_slots, _kept_filled, _kept_pool, _kept_moves = NULL, 0, 0, NULL, 0


cdef int _keep_lists(Ctx* c) except -1:
    """Keep the lists of this call's ``out`` (resolved) marked by ``_kept_or_mark``: from ``_kept_most`` lists or
    ``_kept_moves_most`` places on, all are dropped first (a list longer than that is not kept)."""
    global _kept, _kept_slots, _kept_filled, _kept_pool, _kept_moves
    cdef Keep* keep
    cdef Kept* slot
    cdef size_t n, slots = 2
    cdef Py_ssize_t j
    for j in range(c.keeps.n):
        keep = (<Keep*>c.keeps.data) + j
        n = keep.end - keep.start
        if n > _kept_moves_most:
            continue
        if _kept_filled >= _kept_most or _kept_moves + n > _kept_moves_most:
            memset(_kept, 0, _kept_slots * sizeof(Kept))
            _kept_filled = _kept_moves = 0
        if _kept == NULL:
            while slots < 2 * _kept_most:  # a power of two, at most half full
                slots *= 2
            _kept = <Kept*>calloc(slots, sizeof(Kept))
            _kept_pool = <PyObject**>malloc(max(_kept_moves_most, 1) * sizeof(PyObject*))
            if _kept == NULL or _kept_pool == NULL:
                _drop_kept()
                raise MemoryError()
            _kept_slots = slots
        slot = _kept_slot(keep.key, keep.what)
        if slot.key:
            continue
        memcpy(_kept_pool + _kept_moves, (<PyObject**>c.out.data) + keep.start, n * sizeof(PyObject*))
        slot.key, slot.what, slot.at, slot.n = keep.key, keep.what, _kept_moves, n
        _kept_filled += 1
        _kept_moves += n
    return 0


cdef bint _kept_or_mark(Ctx* c, u64 key, u64 what) except -1:
    """Put the kept list ``(key, what)`` in ``out`` (True), or mark the plays put next to be kept under it (False;
    ``_marked`` ends the mark)."""
    cdef Kept* slot
    cdef Keep* keep
    if _kept_slots:
        slot = _kept_slot(key, what)
        if slot.key:
            _reserve(c.out, c.out.n + slot.n)
            memcpy((<PyObject**>c.out.data) + c.out.n, _kept_pool + slot.at, slot.n * sizeof(PyObject*))
            c.out.n += slot.n
            return True
    if c.keeps.n == c.keeps.cap:
        _reserve(c.keeps, c.keeps.n + 1)
    keep = (<Keep*>c.keeps.data) + c.keeps.n
    keep.key, keep.what, keep.start, keep.end = key, what, c.out.n, -1
    c.keeps.n += 1
    return False


cdef inline void _marked(Ctx* c) noexcept:
    """End the last mark of ``_kept_or_mark``: the plays put since."""
    (<Keep*>c.keeps.data)[c.keeps.n - 1].end = c.out.n


# -- blocks: the moves of a main part with two kicker units, by kicker set ---------------------------------

cdef struct Block:
    u64 p                    # the main part
    u64 meta                 # its reading (``_meta``); 0: empty slot
    PyObject** moves         # TWO_SETS places (``_two_index``), NULL until met; borrowed, as the hash table's

cdef Block* _blocks = NULL   # 2 * BLOCKS_KEPT slots
cdef size_t _blocks_filled = 0
cdef size_t _blocks_epoch = 0    # counts the drops: a place taken before one is not written


cdef inline int _two_index(int low, int high) noexcept:
    """The place of the kicker set of one unit of rank ``low`` and one of ``high`` (``low <= high``) in a block."""
    return high * (high + 1) // 2 + low


cdef PyObject** _block(u64 p, u64 meta) except? NULL:
    """The places of the moves of main part ``p`` in the reading ``meta`` by kicker set; NULL when the blocks are
    full for this call (its plays then go through the hash table alone)."""
    global _blocks, _blocks_filled
    cdef size_t i
    cdef PyObject** moves
    if _blocks == NULL:
        _blocks = <Block*>calloc(2 * BLOCKS_KEPT, sizeof(Block))
        if _blocks == NULL:
            raise MemoryError()
    i = _hash(p, 0, meta) & (2 * BLOCKS_KEPT - 1)
    while _blocks[i].meta:
        if _blocks[i].meta == meta and _blocks[i].p == p:
            return _blocks[i].moves
        i = (i + 1) & (2 * BLOCKS_KEPT - 1)
    if _blocks_filled >= BLOCKS_KEPT + BLOCKS_KEPT // 2:
        return NULL
    moves = <PyObject**>calloc(TWO_SETS, sizeof(PyObject*))
    if moves == NULL:
        raise MemoryError()
    _blocks[i].p, _blocks[i].meta, _blocks[i].moves = p, meta, moves
    _blocks_filled += 1
    return moves


cdef void _drop_blocks() noexcept:
    global _blocks, _blocks_filled, _blocks_epoch
    cdef size_t i
    if _blocks != NULL:
        for i in range(2 * BLOCKS_KEPT):
            if _blocks[i].meta:
                free(_blocks[i].moves)
        free(_blocks)
    _blocks, _blocks_filled = NULL, 0
    _blocks_epoch += 1


# -- main parts: natural cards of each rank, wild cards for the rest ----------------------------------------

cdef int _fills_one(Ctx* c, int rank, int copies) except -1:
    """Into ``c.mains``, ascending: every P of ``copies`` cards of ``rank`` (3..2): ``u`` natural cards and
    ``copies - u`` wild cards of any wild ranks (``wild._fills``)."""
    cdef int u, m, n, lowest, highest
    cdef Py_ssize_t i, j
    cdef u64 p
    cdef u64* mains
    c.mains.n = 0
    if c.nw == 0:
        if c.nat[rank] >= copies:
            _push_word(c.mains, copies * UNIT[rank])
        return 0
    lowest = max(0, copies - c.budget)
    highest = min(copies, c.nat[rank])  # 0 for a wild rank
    if c.nw == 1:  # u natural cards and copies - u of the wild rank: ascending in u when the rank is higher
        if lowest > highest:
            return 0
        if rank > c.wild[0]:
            for u in range(lowest, highest + 1):
                _push_word(c.mains, u * UNIT[rank] + (copies - u) * UNIT[c.wild[0]])
        else:
            for u in range(highest, lowest - 1, -1):
                _push_word(c.mains, u * UNIT[rank] + (copies - u) * UNIT[c.wild[0]])
        return 0
    for u in range(lowest, highest + 1):
        m = copies - u
        for n in range(max(0, m - c.held_wild[1]), min(c.held_wild[0], m) + 1):
            _push_word(c.mains, u * UNIT[rank] + n * UNIT[c.wild[0]] + (m - n) * UNIT[c.wild[1]])
    mains = <u64*>c.mains.data
    for i in range(1, c.mains.n):  # a few: insertion sort
        p = mains[i]
        j = i - 1
        while j >= 0 and mains[j] > p:
            mains[j + 1] = mains[j]
            j -= 1
        mains[j + 1] = p
    return 0


cdef struct Fill:
    int copies
    int vars                 # the ranks searched, highest first: the window's natural ranks and the wild ranks
    int rank[MAX_VARS]
    int most[MAX_VARS]       # the most cards of the rank P may hold
    bint natural[MAX_VARS]   # a natural rank of the window (its missing cards are wanted) or a wild rank (gives)
    int need_min[MAX_VARS + 1]   # suffix sums over the ranks still to choose: wild cards wanted at least,
    int need_max[MAX_VARS + 1]   # at most,
    int give_max[MAX_VARS + 1]   # and wild cards that can give
    Buf* out


cdef int _search(Fill* f, int i, int wanted, int given, u64 p) except -1:
    cdef int v, w, g
    if i == f.vars:
        return _push_word(f.out, p)
    for v in range(f.most[i] + 1):
        if f.natural[i]:
            w, g = wanted + f.copies - v, given
        else:
            w, g = wanted, given + v
        if w + f.need_min[i + 1] <= g + f.give_max[i + 1] and g <= w + f.need_max[i + 1]:
            _search(f, i + 1, w, g, p + v * UNIT[f.rank[i]])
    return 0


cdef int _fills(Ctx* c, int low, int length, int copies) except -1:
    """Into ``c.mains``, ascending: every P of ``copies`` cards of each rank ``low .. low+length-1`` (3..A),
    natural cards of each rank and the rest wild cards of any wild rank (``wild._fills``)."""
    cdef Fill f
    cdef int r, i, n = 0, wanted = 0
    c.mains.n = 0
    f.copies, f.out = copies, c.mains
    for r in range(TWO, -1, -1):
        if (c.wild_bits >> r) & 1:
            f.rank[n], f.natural[n] = r, False
            f.most[n] = c.held_wild[0] if r == c.wild[0] else c.held_wild[1]
            if low <= r < low + length:
                wanted += copies
            n += 1
        elif low <= r < low + length:
            f.rank[n], f.natural[n], f.most[n] = r, True, min(copies, c.nat[r])
            n += 1
    f.vars = n
    f.need_min[n] = f.need_max[n] = f.give_max[n] = 0
    for i in range(n - 1, -1, -1):
        if f.natural[i]:
            f.need_min[i] = f.need_min[i + 1] + copies - f.most[i]
            f.need_max[i] = f.need_max[i + 1] + copies
            f.give_max[i] = f.give_max[i + 1]
        else:
            f.need_min[i], f.need_max[i] = f.need_min[i + 1], f.need_max[i + 1]
            f.give_max[i] = f.give_max[i + 1] + f.most[i]
    if wanted + f.need_min[0] <= f.give_max[0]:
        _search(&f, 0, wanted, 0, 0)
    return 0


cdef inline u64 _run(int low, int length, int copies) noexcept:
    """``copies`` cards of each rank ``low .. low+length-1``."""
    return <u64>copies * ((UNIT[low + length] - UNIT[low]) // 15)


cdef int _keep_plane(Ctx* c, int low, int length) except -1:
    """Keep the main parts ``c.mains`` of a plane window: leading, the planes with kickers have the same."""
    _reserve(c.planes, c.planes.n + c.mains.n)
    memcpy((<u64*>c.planes.data) + c.planes.n, c.mains.data, c.mains.n * sizeof(u64))
    c.plane_at[low][length], c.plane_n[low][length] = <int>c.planes.n, <int>c.mains.n
    c.planes.n += c.mains.n
    return 0


cdef int _plane_mains(Ctx* c, int low, int length) except -1:
    """Into ``c.mains``: the main parts of a plane window, kept (``_keep_plane``) or searched (``_fills``)."""
    cdef int n
    if not c.keep_planes or c.plane_at[low][length] < 0:
        return _fills(c, low, length, 3)
    n = c.plane_n[low][length]
    c.mains.n = 0
    _reserve(c.mains, n)
    memcpy(c.mains.data, (<u64*>c.planes.data) + c.plane_at[low][length], n * sizeof(u64))
    c.mains.n = n
    return 0


# -- plays of one reading ------------------------------------------------------------------------------------

cdef int _plain_one(Ctx* c, int category, int rank, int copies) except -1:
    """The solo, pair or trio of ``rank``: the main parts that stand for themselves or hold a natural card (wild
    cards alone stand for their own rank)."""
    cdef u64 e = copies * UNIT[rank]
    cdef u64 p
    cdef Py_ssize_t i
    if c.budget == 0 or rank >= SMALL_JOKER or (c.wild_bits >> rank) & 1:
        if c.count[rank] >= copies:
            _emit_own(c, &SIMPLE[copies][rank], e, category, rank, 1, HARD)
        return 0
    _fills_one(c, rank, copies)
    for i in range(c.mains.n):
        p = (<u64*>c.mains.data)[i]
        if p == e:
            _emit_own(c, &SIMPLE[copies][rank], e, category, rank, 1, HARD)
        elif p & c.natural:
            _emit(c, p, e, category, rank, 1, HARD)
    return 0


cdef int _chain(Ctx* c, int kind, int low, int length) except -1:
    """The chains or planes of one window the wild cards held can fill (as ``_plain_one``)."""
    cdef int copies = kind + 1
    cdef u64 e = _run(low, length, copies)
    cdef u64 p
    cdef Py_ssize_t i
    if c.budget == 0:
        return _emit_own(c, &CHAIN[kind][length][low], e, SOLO_CHAIN + kind, low, length, HARD)
    _fills(c, low, length, copies)
    if kind == 2 and c.keep_planes:
        _keep_plane(c, low, length)
    for i in range(c.mains.n):
        p = (<u64*>c.mains.data)[i]
        if p == e:
            _emit_own(c, &CHAIN[kind][length][low], e, SOLO_CHAIN + kind, low, length, HARD)
        elif p & c.natural:
            _emit(c, p, e, SOLO_CHAIN + kind, low, length, HARD)
    return 0


cdef int _merge(Ctx* c) except -1:
    """Merge the ascending runs of ``c.items`` into one, by P then E."""
    cdef Py_ssize_t runs = c.runs.n, total = c.items.n, i, j, a, a_end, b, b_end, o
    cdef Py_ssize_t* starts
    cdef Item* src
    cdef Item* dst
    cdef Buf swap
    _push_index(c.runs, total)
    starts = <Py_ssize_t*>c.runs.data
    while runs > 1:
        c.spare.n = 0
        _reserve(c.spare, total)
        src, dst = <Item*>c.items.data, <Item*>c.spare.data
        o = 0
        for i in range(0, runs, 2):
            a, a_end = starts[i], starts[i + 1]
            b, b_end = a_end, (starts[i + 2] if i + 1 < runs else a_end)
            while a < a_end and b < b_end:
                if src[b].p < src[a].p or (src[b].p == src[a].p and src[b].e < src[a].e):
                    dst[o] = src[b]
                    b += 1
                else:
                    dst[o] = src[a]
                    a += 1
                o += 1
            while a < a_end:
                dst[o] = src[a]
                a += 1
                o += 1
            while b < b_end:
                dst[o] = src[b]
                b += 1
                o += 1
        j = (runs + 1) // 2
        for i in range(j):
            starts[i] = starts[2 * i]
        starts[j] = total
        runs = j
        c.spare.n = total
        swap = c.items[0]
        c.items[0] = c.spare[0]
        c.spare[0] = swap
    return 0


cdef int _trio_with(Ctx* c, int pair, int rank) except -1:
    """Trio+solo (``pair`` 0) or trio+pair (1) of the trio ``rank``: each trio with every kicker rank left."""
    cdef int category = TRIO_SOLO + pair
    cdef u64 e = 3 * UNIT[rank]
    cdef u64 p, kicker, last
    cdef int base = c.have[1 + pair] & ~(1 << rank)
    cdef int left, i, w, used, q
    cdef bint valid
    cdef Py_ssize_t j, start
    cdef Item* items
    cdef u64* unit = &PAIR_UNIT[0] if pair else &UNIT[0]
    _fills_one(c, rank, 3)
    c.items.n = c.runs.n = 0
    for j in range(c.mains.n):
        p = (<u64*>c.mains.data)[j]
        valid = p == e or (p & c.natural) != 0
        left = base
        for i in range(c.nw):  # wild cards the trio takes are no kickers
            w = c.wild[i]
            used = (p >> (4 * w)) & 0xF
            if used and c.held_wild[i] - used <= pair:
                left &= ~(1 << w)
        start = c.items.n
        while left:
            q = __builtin_ctz(left)
            left &= left - 1
            kicker = unit[q]
            if valid or (p + kicker) & c.natural:
                _push_item(c.items, p + kicker, e + kicker)
        if c.items.n > start:
            _push_index(c.runs, start)
    if c.runs.n > 1:
        _merge(c)
    items = <Item*>c.items.data
    last = ~(<u64>0)
    for j in range(c.items.n):
        p = items[j].p
        if p != last:
            last = p
            if p == items[j].e:
                q = __builtin_ctzll(p - e) >> 2
                _emit_own(c, &TRIO_WITH[pair][rank][q], p, category, rank, 1, HARD)
            else:
                _emit(c, p, items[j].e, category, rank, 1, HARD)
    return 0


cdef struct Kick:
    int n                    # ranks that can give a kicker, ascending
    int rank[NUM_RANKS]
    int cap[NUM_RANKS]       # kicker units each of them can give
    int below[NUM_RANKS + 1] # below[i]: units the ranks rank[0 .. i-1] can give
    u64* unit                # one unit: one card (solos) or two (pairs)
    bint no_rocket
    int double_above         # a double pair of a rank above this one is skipped
    u64 p                    # the main part: cards played
    u64 e                    # and what they stand for
    bint valid               # every kicker set makes a play (the main part stands for itself or holds a natural)
    u64 natural
    Buf* items
    PyObject** moves         # two kicker units: the main part's block (``_block``), or NULL


cdef inline int _kicked(Kick* k, u64 taken, int index=0) except -1:
    """The play of the main part with the kickers ``taken`` (two units: at ``index`` in its block), unless it would
    be wild cards alone substituting."""
    if k.valid or (k.p + taken) & k.natural:
        return _push_item(k.items, k.p + taken, k.e + taken, k.moves + index if k.moves != NULL else NULL)
    return 0


cdef int _kickers(Kick* k, int i, int left, u64 taken) except -1:
    """Kicker sets of ``left`` more units from the ranks ``k.rank[0 .. i]``, ascending (the highest rank's count
    first)."""
    cdef int m, top, rank
    cdef u64 unit
    if left == 0:
        return _kicked(k, taken)
    if left > k.below[i + 1]:
        return 0
    rank = k.rank[i]
    unit = k.unit[rank]
    top = min(k.cap[i], left)
    for m in range(top + 1):
        if m and rank == SMALL_JOKER and k.no_rocket and (taken >> (4 * BIG_JOKER)):
            break
        if m == 2 and left == 2 and rank > k.double_above:
            break
        _kickers(k, i - 1, left - m, taken + m * unit)
    return 0


cdef int _two_kickers(Kick* k) except -1:
    """``_kickers`` of two units, ascending: by the higher rank, then the lower; a double unit of a rank after the
    pairs of units it tops."""
    cdef int i, j, high
    cdef u64 unit
    for i in range(k.n):
        high = k.rank[i]
        unit = k.unit[high]
        for j in range(i):
            if not (high == BIG_JOKER and k.rank[j] == SMALL_JOKER and k.no_rocket):
                _kicked(k, k.unit[k.rank[j]] + unit, _two_index(k.rank[j], high))
        if k.cap[i] >= 2 and high <= k.double_above:
            _kicked(k, 2 * unit, _two_index(high, high))
    return 0


cdef int _with_kickers(Ctx* c, int category, int low, int length) except -1:
    """A four+two or plane+kickers reading: each main part with every kicker set from what it leaves, the plays
    of each main part one ascending run; merged, each P once with its smallest E."""
    cdef bint four = category == FOUR_TWO_SOLOS or category == FOUR_TWO_PAIRS
    cdef int copies = 4 if four else 3
    cdef int units = 2 if four else length
    cdef bint pairs = category == FOUR_TWO_PAIRS or category == PLANE_PAIRS
    cdef int pool[NUM_RANKS]
    cdef int r, side, cap
    cdef Py_ssize_t i, start
    cdef u64 p, last
    cdef u64 meta = _meta(category, low, length, HARD)
    cdef Item* items
    cdef PyObject** place
    cdef Kick k
    if four:
        _fills_one(c, low, copies)
    else:
        _plane_mains(c, low, length)
    if c.mains.n == 0:
        return 0
    c.items.n = c.runs.n = 0
    k.e, k.natural, k.items = _run(low, length, copies), c.natural, c.items
    k.no_rocket = c.no_rocket and not pairs
    k.unit = &PAIR_UNIT[0] if pairs else &UNIT[0]
    for i in range(c.mains.n):
        p = (<u64*>c.mains.data)[i]
        k.p = p
        k.valid = p == k.e or (p & c.natural) != 0
        # A four with the four cards of a higher rank as its pairs, standing for itself, is that higher four.
        k.double_above = low if category == FOUR_TWO_PAIRS and p == k.e else NUM_RANKS
        for r in range(NUM_RANKS):
            pool[r] = 0 if low <= r < low + length else c.count[r] - <int>((p >> (4 * r)) & 0xF)
        if category == PLANE_SOLOS:  # never three cards next to the plane
            for side in (low - 1, low + length):
                if 0 <= side <= TOP_CHAIN and pool[side] > 2:
                    pool[side] = 2
        k.n = k.below[0] = 0
        for r in range(NUM_RANKS):
            if pairs:
                cap = min(pool[r] // 2, c.most_pair, units) if r < SMALL_JOKER else 0
            else:
                cap = min(pool[r], c.most_solo, units)
            if cap:
                k.rank[k.n], k.cap[k.n] = r, cap
                k.below[k.n + 1] = k.below[k.n] + cap
                k.n += 1
        start = c.items.n
        if units == 2:
            k.moves = _block(p, meta)
            _two_kickers(&k)
        else:
            k.moves = NULL
            _kickers(&k, k.n - 1, units, 0)
        if c.items.n > start:
            _push_index(c.runs, start)
    if c.runs.n > 1:
        _merge(c)
    items = <Item*>c.items.data
    last = ~(<u64>0)
    for i in range(c.items.n):
        if items[i].p != last:
            last = items[i].p
            place = items[i].place
            if place != NULL and place[0] != NULL:
                _put(c, place[0])
            else:
                _emit(c, last, items[i].e, category, low, length, HARD, place)
    return 0


cdef int _kicker_reading(Ctx* c, int category, int low, int length) except -1:
    """The plays of a reading with kickers (trio+solo or +pair of the trio ``low``, four+two, a plane with kickers),
    kept under what they depend on (``_reading_key``)."""
    if _kept_or_mark(c, _reading_key(c, category, low, length), _reading_what(c, category, low, length)):
        return 0
    if category == TRIO_SOLO or category == TRIO_PAIR:
        _trio_with(c, category - TRIO_SOLO, low)
    else:
        _with_kickers(c, category, low, length)
    _marked(c)
    return 0


cdef int _bombs(Ctx* c, int above_tier, int above_rank) except -1:
    """The bombs above (``above_tier``, ``above_rank``) (``-1, -1``: all), by tier then rank: soft (natural cards
    and a substituted wild card), hard (four natural cards), wild (the four cards of a wild rank); the rocket."""
    cdef int r, i, lowest, ranks
    cdef u64 p, e
    cdef Py_ssize_t j
    if above_tier <= SOFT and c.budget:
        lowest = above_rank + 1 if above_tier == SOFT else 0
        ranks = (c.can[4] & ~c.wild_bits & c.have[1]) >> lowest
        while ranks:
            r = __builtin_ctz(ranks) + lowest
            ranks &= ranks - 1
            _fills_one(c, r, 4)
            e = 4 * UNIT[r]
            for j in range(c.mains.n):
                p = (<u64*>c.mains.data)[j]
                if p != e and p & c.natural:
                    _emit(c, p, e, BOMB, r, 1, SOFT)
    if above_tier <= HARD:
        lowest = above_rank + 1 if above_tier == HARD else 0
        for r in range(lowest, TWO + 1):
            if c.nat[r] == 4:
                _emit_own(c, &SIMPLE[4][r], 4 * UNIT[r], BOMB, r, 1, HARD)
    for i in range(c.nw):
        r = c.wild[i]
        if c.held_wild[i] == 4 and (above_tier < WILD or r > above_rank):
            _emit_own(c, &WILD_BOMB[r], 4 * UNIT[r], BOMB, r, 1, WILD)
    if c.count[SMALL_JOKER] and c.count[BIG_JOKER]:
        _emit_own(c, &ROCKET_MOVE, UNIT[SMALL_JOKER] + UNIT[BIG_JOKER], ROCKET, SMALL_JOKER, 1, HARD)
    return 0


# -- the legal list ------------------------------------------------------------------------------------------

cdef int _leads(Ctx* c) except -1:
    """Every play, in the reference's order (``wild._order``)."""
    cdef int r, kind, low, end, need, length, longest, category, ranks, pair, lows
    cdef bint kept
    cdef int needs[TOP_CHAIN + 1]
    cdef int ends[TOP_CHAIN + 1]
    c.keep_planes = True
    memset(c.plane_at, -1, sizeof(c.plane_at))
    for category in range(SOLO, TRIO + 1):
        ranks = c.can[category]
        while ranks:
            r = __builtin_ctz(ranks)
            ranks &= ranks - 1
            _plain_one(c, category, r, category)
    for pair in range(2):
        ranks = c.can[3] & NOT_RANKS
        while ranks:
            r = __builtin_ctz(ranks)
            ranks &= ranks - 1
            _kicker_reading(c, TRIO_SOLO + pair, r, 1)
    for kind in range(3):  # by lowest rank, then length: the windows the wild cards can fill
        lows = c.can[kind + 1] & CHAIN_RANKS  # a window's every rank can be filled alone
        if __builtin_popcount(lows) < CHAIN_MIN[kind]:
            continue
        kept = _kept_or_mark(c, _chain_key(c, kind), _chains_what(c, kind))
        if kept and kind < 2:
            continue
        _needs(c, kind + 1, needs)
        end = need = 0  # the longest window from ``low``: ``low .. end-1``, needing ``need`` wild cards
        while lows:
            low = __builtin_ctz(lows)
            lows &= lows - 1
            if end > low:  # the previous low was low - 1
                need -= needs[low - 1]
            else:
                end, need = low, 0
            while end <= TOP_CHAIN and need + needs[end] <= c.budget:
                need += needs[end]
                end += 1
            ends[low] = end
            if kept:  # the planes' windows are still wanted
                continue
            for length in range(CHAIN_MIN[kind], min(CHAIN_MAX[kind], end - low) + 1):
                _chain(c, kind, low, length)
        if not kept:
            _marked(c)
    lows = c.can[3] & CHAIN_RANKS
    if __builtin_popcount(lows) >= CHAIN_MIN[2]:  # ``ends`` holds the planes' windows
        for category in range(PLANE_SOLOS, PLANE_PAIRS + 1):
            longest = PLANE_SOLOS_MOST if category == PLANE_SOLOS else PLANE_PAIRS_MOST
            ranks = lows
            while ranks:
                low = __builtin_ctz(ranks)
                ranks &= ranks - 1
                for length in range(CHAIN_MIN[2], min(longest, ends[low] - low) + 1):
                    _kicker_reading(c, category, low, length)
    if c.four_two:
        for category in range(FOUR_TWO_SOLOS, FOUR_TWO_PAIRS + 1):
            ranks = c.can[4] & NOT_RANKS
            while ranks:
                r = __builtin_ctz(ranks)
                ranks &= ranks - 1
                _kicker_reading(c, category, r, 1)
    return _bombs(c, -1, -1)


cdef int _follows(Ctx* c, int category, int rank, int length, int tier) except -1:
    """The plays that beat a play of ``category`` (after the pass): higher plays of its category and length,
    then the bombs (above it when it is a bomb), then the rocket."""
    cdef int r, low, end, need, ranks, kind
    cdef int needs[TOP_CHAIN + 1]
    if category == ROCKET:
        return 0
    if category == BOMB:
        return _bombs(c, tier, rank)
    if rank < -1:
        rank = -1
    if length == 1 and category <= TRIO_PAIR or (category >= FOUR_TWO_SOLOS and c.four_two and length == 1):
        ranks = c.can[4 if category >= FOUR_TWO_SOLOS else 3 if category >= TRIO else category]
        ranks = (ranks >> (rank + 1)) if rank < NUM_RANKS - 1 else 0
        if category > SOLO:
            ranks &= NOT_RANKS >> (rank + 1)
        while ranks:
            r = __builtin_ctz(ranks) + rank + 1
            ranks &= ranks - 1
            if category <= TRIO:
                _plain_one(c, category, r, category)
            else:
                _kicker_reading(c, category, r, 1)
    elif SOLO_CHAIN <= category <= PLANE_PAIRS:
        kind = category - SOLO_CHAIN if category <= PLANE else 2
        if CHAIN_MIN[kind] <= length <= (CHAIN_MAX[kind] if category <= PLANE else
                                         PLANE_SOLOS_MOST if category == PLANE_SOLOS else PLANE_PAIRS_MOST):
            _needs(c, kind + 1, needs)
            for low in range(rank + 1, TOP_CHAIN + 2 - length):
                need = 0
                for end in range(low, low + length):
                    need += needs[end]
                if need <= c.budget:
                    if category <= PLANE:
                        _chain(c, kind, low, length)
                    else:
                        _kicker_reading(c, category, low, length)
    return _bombs(c, -1, -1)


# -- input ---------------------------------------------------------------------------------------------------

cdef inline int _small_int(PyObject* item, int highest) except -2:
    """The value of an int in ``0 .. highest``, else -1."""
    cdef int value, overflow
    cdef long number
    for value in range(min(highest, 4) + 1):  # CPython keeps one object of each small int: most counts are these
        if item == SMALL_INT[value]:
            return value
    if not PyLong_Check(item):
        return -1
    number = PyLong_AsLongAndOverflow(item, &overflow)
    return number if not overflow and 0 <= number <= highest else -1


cdef bint _read(object hand, object wild, object rules, Ctx* c) except -1:
    """The hand's counts, the wild ranks and the rules' options; False for input left to the reference."""
    global _rules_seen, _seen_most_solo, _seen_most_pair, _seen_no_rocket, _seen_four_two
    cdef Py_ssize_t size
    cdef int r, i, k, n, value
    cdef int held[5]         # held[n], bit r: rank r holds n cards or more
    cdef u64 at_least
    cdef PyObject* item
    cdef bint listed
    if type(rules) is not _rules_type:
        return False
    if type(hand) is list:
        listed, size = True, PyList_GET_SIZE(<PyObject*>hand)
    elif type(hand) is tuple:
        listed, size = False, PyTuple_GET_SIZE(<PyObject*>hand)
    else:
        return False
    if size != NUM_RANKS:
        return False
    held[1] = held[2] = held[3] = held[4] = 0
    c.hand = 0
    for r in range(NUM_RANKS):
        item = PyList_GET_ITEM(<PyObject*>hand, r) if listed else PyTuple_GET_ITEM(<PyObject*>hand, r)
        value = _small_int(item, 1 if r >= SMALL_JOKER else 4)
        if value < 0:
            return False
        c.count[r] = c.nat[r] = value
        c.hand |= <u64>value << (4 * r)
        for n in range(1, value + 1):
            held[n] |= 1 << r
    if type(wild) is list:
        listed, size = True, PyList_GET_SIZE(<PyObject*>wild)
    elif type(wild) is tuple:
        listed, size = False, PyTuple_GET_SIZE(<PyObject*>wild)
    else:
        return False
    if size > MOST_WILD:
        return False
    c.nw, c.wild_bits, c.budget, c.natural = <int>size, 0, 0, (<u64>1 << (4 * NUM_RANKS)) - 1
    for i in range(c.nw):
        item = PyList_GET_ITEM(<PyObject*>wild, i) if listed else PyTuple_GET_ITEM(<PyObject*>wild, i)
        if Py_TYPE(item) != Py_TYPE(SMALL_INT[0]):  # exactly an int
            return False
        value = _small_int(item, TWO)
        if value < 0 or (c.wild_bits >> value) & 1:
            return False
        c.wild_bits |= 1 << value
    if c.nw == 2 and c.wild_bits >> (__builtin_ctz(c.wild_bits) + 1) == 0:
        return False  # unreachable: two distinct ranks
    i = 0
    r = c.wild_bits
    while r:  # ascending
        k = __builtin_ctz(r)
        r &= r - 1
        c.wild[i], c.held_wild[i], c.nat[k] = k, c.count[k], 0
        c.budget += c.count[k]
        c.natural &= ~(<u64>0xF << (4 * k))
        i += 1
    c.have[1], c.have[2] = held[1], held[2] & NOT_RANKS
    for k in range(1, 5):  # per nibble (counts 0..4): ``count + 8 - k`` has bit 3 set when ``count >= k``
        at_least = ((c.hand + (8 - k) * ONES) >> 3) & ONES
        c.capped[k] = ((c.hand & ~(at_least * 15)) | (k * at_least)) & c.natural | c.hand & ~c.natural
    for k in range(1, 5):  # k cards of a rank 3..2: at least k - budget natural cards
        c.can[k] = NOT_RANKS if k <= c.budget else held[k - c.budget] & ~c.wild_bits & NOT_RANKS
    c.can[1] |= held[1] & ~NOT_RANKS  # the jokers: solos
    if rules is not _rules_seen:
        _seen_most_solo = 4 if rules.bomb_as_kickers else 3
        _seen_most_pair = 2 if rules.bomb_as_kickers else 1
        _seen_no_rocket = not rules.rocket_as_kickers
        _seen_four_two = not rules.no_four_with_two
        _rules_seen = rules
    c.most_solo, c.most_pair, c.no_rocket, c.four_two = (_seen_most_solo, _seen_most_pair, _seen_no_rocket,
                                                         _seen_four_two)
    return True


cdef Seen* _reading(object follow):
    """The category, rank, length and tier of a play to follow, read once per play (moves are interned)."""
    cdef PyObject* move = <PyObject*>follow
    cdef Seen* seen = &_seen_follows[((<size_t>move >> 4) * <size_t>0x9E3779B1 >> 8) % FOLLOW_SLOTS]
    cdef PyObject* old
    cdef int category, rank, length, tier
    if seen.move != move:
        category, rank, length, tier = follow.category, follow.rank, follow.length, follow.tier
        old = seen.move
        Py_INCREF(move)
        seen.move, seen.category, seen.rank, seen.length, seen.tier = move, category, rank, length, tier
        if old != NULL:
            Py_DECREF(old)
    return seen


cdef int _init() except -1:
    cdef object value
    global _ready, _reference, _wild_move, _move_type, _rules_type, _pass, _categories
    from paiju.games.doudizhu import wild
    from paiju.games.doudizhu.moves import PASS, Category, Move, on_forget
    from paiju.games.doudizhu.rules import DouDizhuRules

    _reference, _wild_move = wild.reference_legal_moves, wild._move
    _move_type, _rules_type, _pass, _categories = Move, DouDizhuRules, PASS, list(Category)
    for value in range(5):
        _owned.append(value)
        SMALL_INT[value] = <PyObject*>value
    on_forget(forget)  # whichever path the public name took, the tables forget with the interned plays
    _ready = True
    return 0


def forget():
    """Drop every play from the hash table, the blocks and the kept lists, and the plays whose wild cards stand
    for other ranks from ``_owned`` (``moves.forget_substituted``): plays met again are looked up anew. Call it
    between calls only."""
    global _table, _slots, _filled, _owned
    free(_table)
    _table, _slots, _filled = NULL, 0, 0
    _drop_kept()
    _drop_blocks()
    _owned = list({id(kept): kept for kept in _owned if not getattr(kept, "stands_for", "")}.values())


def keep_at_most(lists, places):
    """Bound the lists kept under what they depend on (``_kept_or_mark``) to ``lists`` lists of ``places`` plays in
    all (by default ``KEPT_LISTS`` and ``KEPT_MOVES``: about 20 MB at most): all are dropped when the next would pass
    either. Drops the lists kept so far; returns the bounds it replaces. Call it between calls only."""
    global _kept_most, _kept_moves_most
    if lists < 1 or places < 0:
        raise ValueError(f"keep_at_most needs at least one list and no fewer than 0 places, not {lists}, {places}")
    old = (_kept_most, _kept_moves_most)
    _drop_kept()
    _kept_most, _kept_moves_most = lists, places
    return old


def legal_moves(hand, follow, wild, rules):
    """Every distinct legal 癞子 play of ``hand`` (15 counts) with wild ranks ``wild``: leading when ``follow`` is
    ``None`` or a pass, else following it (pass first); the same ``Move`` objects in the same order as
    ``wild.reference_legal_moves``."""
    cdef Ctx c
    cdef Buf mains, planes, items, spare, runs, out, pending, keeps
    cdef Pending pending_local[LOCAL]
    cdef u64 mains_local[LOCAL]
    cdef u64 planes_local[LOCAL]
    cdef Item items_local[LOCAL]
    cdef Item spare_local[LOCAL]
    cdef Py_ssize_t runs_local[LOCAL]
    cdef PyObject* out_local[LOCAL]
    cdef Keep keeps_local[LOCAL]
    cdef PyObject* result
    cdef Py_ssize_t i, first = 0
    cdef Seen* seen = NULL
    if not _ready:
        _init()
    if not (follow is None or type(follow) is _move_type) or not _read(hand, wild, rules, &c):
        return _reference(hand, follow, wild, rules)
    if follow is not None:
        seen = _reading(follow)
        if seen.category != PASS_CATEGORY:
            first = 1
    _start(&mains, mains_local, sizeof(u64))
    _start(&planes, planes_local, sizeof(u64))
    _start(&items, items_local, sizeof(Item))
    _start(&spare, spare_local, sizeof(Item))
    _start(&runs, runs_local, sizeof(Py_ssize_t))
    _start(&out, out_local, sizeof(PyObject*))
    _start(&pending, pending_local, sizeof(Pending))
    _start(&keeps, keeps_local, sizeof(Keep))
    c.mains, c.items, c.spare, c.runs, c.out, c.pending = &mains, &items, &spare, &runs, &out, &pending
    c.planes, c.keep_planes = &planes, False
    c.keeps = &keeps
    if _blocks_filled >= BLOCKS_KEPT:  # dropped between calls only: the places a call takes stay valid
        _drop_blocks()
    c.epoch = _blocks_epoch
    try:
        if first:
            _follows(&c, seen.category, seen.rank, seen.length, seen.tier)
        else:
            _leads(&c)
        _resolve(&c)
        _keep_lists(&c)
        result = PyList_New(out.n + first)
        if result == NULL:
            raise MemoryError()
        if first:
            Py_INCREF(<PyObject*>_pass)
            PyList_SET_ITEM(result, 0, <PyObject*>_pass)
        for i in range(out.n):
            if i + AHEAD < out.n:
                __builtin_prefetch((<PyObject**>out.data)[i + AHEAD])
            Py_INCREF((<PyObject**>out.data)[i])
            PyList_SET_ITEM(result, i + first, (<PyObject**>out.data)[i])
        plays = <object>result
        Py_DECREF(result)
        return plays
    finally:
        _release(&mains)
        _release(&planes)
        _release(&items)
        _release(&spare)
        _release(&runs)
        _release(&out)
        _release(&pending)
        _release(&keeps)
