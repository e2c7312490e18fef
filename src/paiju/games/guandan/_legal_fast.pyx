"""Compiled ``legal.legal_plays``: the same plays, in the same order, made in C.

The hand's 14 profile bytes (``cards.pack``, the wild cards taken out) are a C array. Plays are built as
128-bit play keys (``combos.play_key``: marker, packed cards << 8, type << 4, rank) summed from per-card units
in C, and each becomes a ``Play`` the moment it is made, in the reference's generation order:

- single-rank plays (Single .. Bomb) and joker plays come from the reference's own tables of ``Play`` objects
  (``legal._rank_plays``, ``legal._JOKERS``), keyed by (level, wild cards held, rank, profile byte);
- full houses, straights, tubes and plates (``_chains``) and straight flushes are nested C loops over the
  sub-multisets of each rank's profile byte (a table of all 256 bytes, by size), the wild cards counted
  along, the loops nested as the reference's list comprehensions are so the order is theirs.

On CPython 3.11 a new ``Play`` is allocated and its five 30-bit digits written in place, and it is taken off
the cycle collector's lists (an int holds no references), which spares the collector hundreds of objects per
call; other versions build it through the public API.
"""

from cpython.list cimport PyList_Append
from cpython.long cimport PyLong_AsUnsignedLongLongMask
from cpython.object cimport PyTypeObject

from paiju.games.guandan.combos import PASS, Play
from paiju.games.guandan.legal import _JOKERS, _RANK_TABLES, _rank_plays

cdef extern from *:
    """
    typedef unsigned __int128 gd_key;

    #if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
    /* Every play key has its marker at bit 120: five 30-bit digits, filled in place in a new Play. */
    static PyObject *gd_play(PyTypeObject *play_type, gd_key key) {
        PyLongObject *play = (PyLongObject *)play_type->tp_alloc(play_type, 5);
        if (play == NULL) return NULL;
        for (int i = 0; i < 5; i++, key >>= 30) play->ob_digit[i] = (digit)(key & 0x3FFFFFFF);
        PyObject_GC_UnTrack(play);
        return (PyObject *)play;
    }
    #else
    /* Other CPython versions: Play(high << 64 | low) through the public API. */
    static PyObject *gd_play(PyTypeObject *play_type, gd_key key) {
        PyObject *high = PyLong_FromUnsignedLongLong((unsigned long long)(key >> 64));
        PyObject *low = PyLong_FromUnsignedLongLong((unsigned long long)key);
        PyObject *sixty_four = PyLong_FromLong(64);
        PyObject *shifted = high && sixty_four ? PyNumber_Lshift(high, sixty_four) : NULL;
        PyObject *value = shifted && low ? PyNumber_Or(shifted, low) : NULL;
        PyObject *play = value ? PyObject_CallOneArg((PyObject *)play_type, value) : NULL;
        Py_XDECREF(high); Py_XDECREF(low); Py_XDECREF(sixty_four); Py_XDECREF(shifted); Py_XDECREF(value);
        return play;
    }
    #endif
    """
    ctypedef unsigned long long gd_key  # unsigned __int128 in C; never converted by Cython
    object gd_play(PyTypeObject *play_type, gd_key key)
    int __builtin_popcountll(unsigned long long fields) noexcept

cdef enum:
    NUM_RANKS = 13
    JOKER_BYTE = 13
    SMALL_JOKER = 52
    BIG_JOKER = 53
    SINGLE = 1
    PAIR = 2
    TRIPS = 3
    FULL_HOUSE = 4
    STRAIGHT = 5
    THREE_PAIR = 6
    TWO_TRIPS = 7
    BOMB = 8
    FLUSH = 9
    JOKER_BOMB = 10
    FLUSH_TIER = 11
    MAX_BOMB = 10

cdef PyTypeObject *_PLAY = <PyTypeObject *>Play
cdef gd_key _MARKER = (<gd_key>1) << 120
cdef gd_key _UNIT[54]
"""One card in key space: ``_UNIT[card] = 1 << (2 * card + 8)``."""
cdef unsigned char _COUNT[256]
"""Profile byte -> number of cards."""
cdef unsigned char _SUITS[256]
"""Profile byte -> 4-bit mask of the suits it holds."""
cdef unsigned char _SUBS[256][256]
cdef unsigned short _SUB_START[256][14]
"""``_SUBS[b][_SUB_START[b][n]:_SUB_START[b][n + 1]]``: the n-card sub-multisets of profile byte b, in the
reference's order (``legal._sub_bytes``: hearts outermost, diamonds innermost)."""


cdef void _tables():
    """Fill the tables above (every byte, also those no hand of two decks has)."""
    cdef int byte, size, h, s, c, d, filled
    for byte in range(54):
        _UNIT[byte] = (<gd_key>1) << (2 * byte + 8)
    for byte in range(256):
        _COUNT[byte] = (byte & 3) + (byte >> 2 & 3) + (byte >> 4 & 3) + (byte >> 6 & 3)
        _SUITS[byte] = (byte & 3 > 0) | (byte >> 2 & 3 > 0) << 1 | (byte >> 4 & 3 > 0) << 2 | (byte >> 6 & 3 > 0) << 3
        filled = 0
        for size in range(14):
            _SUB_START[byte][size] = filled
            for h in range((byte & 3) + 1):
                for s in range((byte >> 2 & 3) + 1):
                    for c in range((byte >> 4 & 3) + 1):
                        for d in range((byte >> 6 & 3) + 1):
                            if h + s + c + d == size:
                                _SUBS[byte][filled] = h | s << 2 | c << 4 | d << 6
                                filled += 1


_tables()


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``cards``' ranks and jokers,
    ``combos.ComboType``, bomb limits, the card-count table), for ``tests/native/test_constants.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "JOKER_BYTE": JOKER_BYTE, "SMALL_JOKER": SMALL_JOKER, "BIG_JOKER": BIG_JOKER,
        "SINGLE": SINGLE, "PAIR": PAIR, "TRIPS": TRIPS, "FULL_HOUSE": FULL_HOUSE, "STRAIGHT": STRAIGHT,
        "THREE_PAIR": THREE_PAIR, "TWO_TRIPS": TWO_TRIPS, "BOMB": BOMB, "FLUSH": FLUSH, "JOKER_BOMB": JOKER_BOMB,
        "FLUSH_TIER": FLUSH_TIER, "MAX_BOMB": MAX_BOMB, "COUNT": bytes([_COUNT[i] for i in range(256)]),
    }


cdef inline int _emit(list plays, gd_key key) except -1:
    """Append the play of ``key``."""
    PyList_Append(plays, gd_play(_PLAY, key))
    return 0


cdef inline int _rank_at(int position) noexcept:
    """The rank at a chain position (the ace at 0 and 13)."""
    return 12 if position == 0 else position - 1


cdef inline int _power(int rank, int level) noexcept:
    """``combos.power``."""
    return NUM_RANKS if rank == level else (rank + 1 if rank >= NUM_RANKS else rank)


cdef inline gd_key _code(int play_type, int rank) noexcept:
    """A key without cards: the marker, the type and the rank code."""
    return _MARKER | <gd_key>(play_type << 4 | rank)


cdef struct Hand:
    unsigned char profile[14]  # the natural cards' profile bytes (the wild cards taken out)
    unsigned char count[14]  # their numbers of cards
    int wilds, level
    gd_key wild  # the wild card's key


cdef inline gd_key _part(int rank, int sub) noexcept:
    """The key of a sub-multiset ``sub`` (a profile byte) of ``rank``."""
    return (<gd_key>sub) << (8 * rank + 8)


cdef inline int _by_power(int step, int level) noexcept:
    """The rank at ``step`` (0..12) of power order: 2 .. A without the level rank, then the level rank."""
    return level if step == NUM_RANKS - 1 else step + (step >= level)


def legal_plays(hand, int level, follow=None):
    """``legal.legal_plays``: every distinct legal play of ``hand`` (packed) at ``level`` (rank 0..12), leading
    (``follow`` ``None`` or a pass) or following ``follow``: the pass, the same type higher, stronger bombs."""
    if not isinstance(hand, int):
        raise TypeError(f"a hand is a packed int, got {type(hand).__name__}")
    if level < 0:
        raise ValueError("negative shift count")
    if level >= NUM_RANKS:
        raise IndexError("level out of range")
    cdef bytes data = hand.to_bytes(14, "little")
    cdef const unsigned char *raw = data
    cdef Hand hand_c
    cdef Hand *h = &hand_c
    cdef int rank, step
    for rank in range(14):
        h.profile[rank] = raw[rank]
    h.wilds = h.profile[level] & 3
    h.profile[level] -= h.wilds
    for rank in range(14):
        h.count[rank] = _COUNT[h.profile[rank]]
    h.level = level
    h.wild = _UNIT[4 * level]
    cdef list tables = _RANK_TABLES[level][h.wilds]
    if follow is None or follow == PASS:
        return _leads(h, tables)
    cdef unsigned long long low  # a play key's low byte is its type and rank
    cdef int follow_type
    if type(follow) is Play:
        low = PyLong_AsUnsignedLongLongMask(follow)
        follow_type = low >> 4 & 15
    else:
        follow_type = follow.type
        low = PyLong_AsUnsignedLongLongMask(follow)
    cdef int follow_rank = low & 15
    cdef list plays = [PASS]
    cdef int floor, tier = 0, order = 0  # the bomb strength to beat (Play.bomb_strength), none: (0, 0)
    if follow_type == SINGLE or follow_type == PAIR or follow_type == TRIPS:
        floor = _power(follow_rank, level)
        for step in range(NUM_RANKS):
            rank = _by_power(step, level)
            if _power(rank, level) > floor and _makes(h, rank, follow_type):
                plays += _of_size(_rank_entry(h, tables, rank), follow_type)
        if follow_type != TRIPS:
            for play in _of_size(_JOKERS[h.profile[JOKER_BYTE]], follow_type):
                if _power(PyLong_AsUnsignedLongLongMask(play) & 15, level) > floor:
                    plays.append(play)
    elif follow_type == FULL_HOUSE:
        _full_houses(plays, h, _power(follow_rank, level), True)
    elif follow_type == STRAIGHT:
        _straights(plays, h, _start_after(follow_rank))
    elif follow_type == THREE_PAIR or follow_type == TWO_TRIPS:
        _chains(plays, h, follow_type, _start_after(follow_rank))
    elif follow_type == BOMB:
        tier, order = 2 * _size(follow, low), _power(follow_rank, level)
    elif follow_type == FLUSH:
        tier, order = FLUSH_TIER, _start_after(follow_rank) - 1
    if follow_type != JOKER_BOMB:
        _bombs(plays, h, tables, tier, order)
    return plays


cdef inline int _cards(unsigned long long fields) noexcept:
    """The number of cards in 2-bit card counts."""
    return __builtin_popcountll(fields & 0x5555555555555555ULL) + 2 * __builtin_popcountll(fields & 0xAAAAAAAAAAAAAAAAULL)


cdef int _size(object play, unsigned long long low) except -1:
    """A play's number of cards, from its key's card counts (bits 8..119; ``low`` is bits 0..63)."""
    cdef unsigned long long high = PyLong_AsUnsignedLongLongMask(play >> 64) & ((1ULL << 56) - 1)
    return _cards(low & ~0xFFULL) + _cards(high)


cdef inline int _start_after(int rank) noexcept:
    """The chain position after that of a chain from ``rank`` (``combos.chain_position`` + 1)."""
    return 1 if rank == 12 else rank + 2


cdef inline bint _makes(Hand *h, int rank, int size) noexcept:
    """Whether ``rank`` has plays of ``size`` cards (1..3): natural cards, with wild cards enough, or the level
    rank's wild cards alone (a single or a pair)."""
    return (h.count[rank] and h.count[rank] + h.wilds >= size) or (rank == h.level and h.wilds >= size <= 2)


cdef inline list _of_size(entry, int size):
    """The singles, pairs or trips of a ``legal._RankPlays``."""
    return entry.singles if size == SINGLE else entry.pairs if size == PAIR else entry.trips


cdef object _rank_entry(Hand *h, list tables, int rank):
    """The reference's single-rank plays of ``rank`` (``legal._RankPlays``), built on first use."""
    entry = (<dict>tables[rank]).get(h.profile[rank])
    if entry is None:
        entry = _rank_plays(rank, h.profile[rank], h.wilds, h.level)
    return entry


cdef list _leads(Hand *h, list tables):
    """Every combination of the hand, in the reference's order: single-rank plays rank by rank, joker plays,
    full houses, straights, tubes, plates, straight flushes."""
    cdef list plays = []
    cdef int rank
    for rank in range(NUM_RANKS):
        if h.profile[rank] or rank == h.level:
            plays += _rank_entry(h, tables, rank).all
    plays += _JOKERS[h.profile[JOKER_BYTE]].all
    _full_houses(plays, h, -1, False)
    _straights(plays, h, 0)
    _chains(plays, h, THREE_PAIR, 0)
    _chains(plays, h, TWO_TRIPS, 0)
    _straight_flushes(plays, h, 0)
    return plays


cdef int _bombs(list plays, Hand *h, list tables, int tier, int order) except -1:
    """Bombs, straight flushes and the joker bomb stronger than ``(tier, order)`` (``Play.bomb_strength``;
    ``(0, 0)`` for all of them). A rank's bombs are listed by size, so those strong enough are a suffix."""
    cdef int least = max(2, 4 - h.wilds)
    cdef int rank, size
    for rank in range(NUM_RANKS):
        if h.count[rank] >= least:
            bombs = _rank_entry(h, tables, rank).bombs
            if tier:
                size = tier // 2 if tier % 2 == 0 and _power(rank, h.level) > order else tier // 2 + 1
                plays += bombs[_bombs_below(h, rank, size):]
            else:
                plays += bombs
    if tier <= FLUSH_TIER:
        _straight_flushes(plays, h, order + 1 if tier == FLUSH_TIER else 0)
    plays += _JOKERS[h.profile[JOKER_BYTE]].bombs
    return 0


cdef Py_ssize_t _bombs_below(Hand *h, int rank, int least) noexcept:
    """How many of the bombs of ``rank`` (``legal._rank_plays``) have fewer than ``least`` cards: per size, the
    natural parts of each number of cards (at most 8) completed by wild cards."""
    cdef int byte = h.profile[rank], size, used
    cdef Py_ssize_t below = 0
    for size in range(4, min(least, MAX_BOMB + 1)):
        for used in range(min(h.wilds, size) + 1):
            if size - used <= 8:
                below += _SUB_START[byte][size - used + 1] - _SUB_START[byte][size - used]
    return below


cdef int _full_houses(list plays, Hand *h, int floor, bint power_order) except -1:
    """Full houses with trips of power above ``floor``, trips ranks 2 .. A (or in power order): each
    trips part (natural cards + wild cards) with each pair part of another rank — natural pairs rank by rank
    then joker pairs, then (a wild card to spare) natural cards + a wild card, then (two to spare) two wild
    cards — within the wild budget (``legal._full_house_keys``)."""
    cdef gd_key pairs[132]
    cdef gd_key ones[52]
    cdef int pair_ends[NUM_RANKS + 1]
    cdef int one_ends[NUM_RANKS + 1]
    cdef int n_pairs = 0, n_ones = 0, rank, i, k, byte, trips, step, used, spare, held
    cdef int wilds = h.wilds, level = h.level
    cdef gd_key base, code, wild = h.wild
    pair_ends[0] = one_ends[0] = 0
    for rank in range(NUM_RANKS):
        byte = h.profile[rank]
        if byte:
            for k in range(_SUB_START[byte][2], _SUB_START[byte][3]):
                pairs[n_pairs] = _part(rank, _SUBS[byte][k])
                n_pairs += 1
            if wilds:
                for k in range(_SUB_START[byte][1], _SUB_START[byte][2]):
                    ones[n_ones] = _part(rank, _SUBS[byte][k]) + wild
                    n_ones += 1
        pair_ends[rank + 1] = n_pairs
        one_ends[rank + 1] = n_ones
    byte = h.profile[JOKER_BYTE]
    if byte & 3 == 2:
        pairs[n_pairs] = 2 * _UNIT[SMALL_JOKER]
        n_pairs += 1
    if byte >> 2 == 2:
        pairs[n_pairs] = 2 * _UNIT[BIG_JOKER]
        n_pairs += 1
    for step in range(NUM_RANKS):
        trips = _by_power(step, level) if power_order else step
        held = h.count[trips]
        if not held or held + wilds < 3 or _power(trips, level) <= floor:
            continue
        byte = h.profile[trips]
        code = _code(FULL_HOUSE, trips)
        for used in range(max(0, 3 - held), min(wilds, 2) + 1):
            spare = wilds - used
            for k in range(_SUB_START[byte][3 - used], _SUB_START[byte][4 - used]):
                base = _part(trips, _SUBS[byte][k]) + used * wild + code
                for i in range(pair_ends[trips]):
                    _emit(plays, base + pairs[i])
                for i in range(pair_ends[trips + 1], n_pairs):
                    _emit(plays, base + pairs[i])
                if spare:
                    for i in range(one_ends[trips]):
                        _emit(plays, base + ones[i])
                    for i in range(one_ends[trips + 1], n_ones):
                        _emit(plays, base + ones[i])
                if spare == 2:
                    _emit(plays, base + 2 * wild)
    return 0


cdef int _singles(Hand *h, int position, gd_key *keys, int *suits) noexcept:
    """The keys (and suits) of one natural card of each suit held at a chain position; their number."""
    cdef int rank = _rank_at(position), held = _SUITS[h.profile[rank]], suit, n = 0
    for suit in range(4):
        if held >> suit & 1:
            keys[n] = _UNIT[4 * rank + suit]
            suits[n] = suit
            n += 1
    return n


cdef int _straights(list plays, Hand *h, int first_start) except -1:
    """Straights from chain position ``first_start`` on (``legal._straight_keys``). Per window of places 0..4:
    all natural (five natural cards of one suit left to the straight flushes); place 4 wild; one of places
    0..3 wild (pairs 0-1 natural and one of 2-3, then one of 0-1 and pair 2-3 natural) with place 4 natural;
    with two wild cards, those with place 4 wild too, then two of places 0..3 wild with place 4 natural."""
    cdef gd_key card[5][4]
    cdef int suit[5][4]
    cdef int n[5]
    cdef gd_key one[256]
    cdef gd_key two[288]
    cdef int start, i, a, b, c, d, e, n_one, n_two, held
    cdef int wilds = h.wilds
    cdef gd_key code, wild = h.wild, x
    for start in range(first_start, 10):
        held = 0
        for i in range(5):
            held += h.count[_rank_at(start + i)] > 0
        if held + wilds < 5:
            continue
        for i in range(5):
            n[i] = _singles(h, start + i, card[i], suit[i])
        code = _code(STRAIGHT, _rank_at(start))
        for a in range(n[0]):
            for b in range(n[1]):
                for c in range(n[2]):
                    for d in range(n[3]):
                        x = code + card[0][a] + card[1][b] + card[2][c] + card[3][d]
                        for e in range(n[4]):
                            if not (suit[0][a] == suit[1][b] == suit[2][c] == suit[3][d] == suit[4][e]):
                                _emit(plays, x + card[4][e])
        if not wilds:
            continue
        for a in range(n[0]):
            for b in range(n[1]):
                for c in range(n[2]):
                    for d in range(n[3]):
                        _emit(plays, code + wild + card[0][a] + card[1][b] + card[2][c] + card[3][d])
        n_one = 0
        for a in range(n[0]):
            for b in range(n[1]):
                for i in range(2, 4):
                    for c in range(n[i]):
                        one[n_one] = card[0][a] + card[1][b] + card[i][c]
                        n_one += 1
        for i in range(2):
            for a in range(n[i]):
                for c in range(n[2]):
                    for d in range(n[3]):
                        one[n_one] = card[i][a] + card[2][c] + card[3][d]
                        n_one += 1
        for i in range(n_one):
            for e in range(n[4]):
                _emit(plays, code + wild + one[i] + card[4][e])
        if wilds < 2:
            continue
        for i in range(n_one):
            _emit(plays, code + 2 * wild + one[i])
        n_two = 0
        for a in range(n[0]):
            for b in range(n[1]):
                two[n_two] = card[0][a] + card[1][b]
                n_two += 1
        for c in range(n[2]):
            for d in range(n[3]):
                two[n_two] = card[2][c] + card[3][d]
                n_two += 1
        for a in range(2):
            for b in range(n[a]):
                for c in range(2, 4):
                    for d in range(n[c]):
                        two[n_two] = card[a][b] + card[c][d]
                        n_two += 1
        for i in range(n_two):
            for e in range(n[4]):
                _emit(plays, code + 2 * wild + two[i] + card[4][e])
    return 0


cdef int _chains(list plays, Hand *h, int play_type, int first_start) except -1:
    """Tubes (ThreePair: 3 ranks x 2) or plates (TwoTrips: 2 ranks x 3) from chain position ``first_start``
    on (``legal._chain_keys``): per window, one part per rank, chosen rank by rank (lowest first)."""
    cdef int width = 3 if play_type == THREE_PAIR else 2
    cdef int copies = 2 if play_type == THREE_PAIR else 3
    cdef int start, i, filled
    for start in range(first_start, 15 - width):
        filled = 0
        for i in range(width):
            filled += min(h.count[_rank_at(start + i)], copies)
        if width * copies - filled <= h.wilds:
            _chain_ranks(plays, h, start, width, copies, 0, _code(play_type, _rank_at(start)), 0)
    return 0


cdef int _chain_ranks(list plays, Hand *h, int start, int width, int copies, int depth, gd_key prefix,
                      int used) except -1:
    """The chains of a window that extend ``prefix`` (the parts of its first ``depth`` ranks, ``used`` wild
    cards): the next rank's parts of ``copies - u`` natural cards plus u wild cards, u = 0, 1, ... while the
    wild cards last, each part's sub-multisets in order; the wild cards' key added with the last rank."""
    cdef int rank = _rank_at(start + depth), byte = h.profile[rank], u, k
    cdef gd_key key
    for u in range(min(copies, h.wilds - used) + 1):
        for k in range(_SUB_START[byte][copies - u], _SUB_START[byte][copies - u + 1]):
            key = prefix + _part(rank, _SUBS[byte][k])
            if depth == width - 1:
                _emit(plays, key + (used + u) * h.wild)
            else:
                _chain_ranks(plays, h, start, width, copies, depth + 1, key, used + u)
    return 0


cdef int _straight_flushes(list plays, Hand *h, int first_start) except -1:
    """Straight flushes from chain position ``first_start`` on (``legal._straight_flush_keys``): per suit and
    window, the suit's natural cards there, all kept, then one fewer, then two fewer (each combination in
    lexicographic order), the missing places wild, within the wild budget."""
    cdef gd_key present[5]
    cdef int suit, rank, start, i, n, kept, total
    cdef int wilds = h.wilds
    cdef gd_key code
    for suit in range(4):
        total = 0
        for rank in range(NUM_RANKS):
            total += _SUITS[h.profile[rank]] >> suit & 1
        if total + wilds < 5:
            continue
        for start in range(first_start, 10):
            n = 0
            for i in range(start, start + 5):
                rank = _rank_at(i)
                if _SUITS[h.profile[rank]] >> suit & 1:
                    present[n] = _UNIT[4 * rank + suit]
                    n += 1
            if n + wilds < 5:
                continue
            code = _code(FLUSH, _rank_at(start))
            for kept in range(n, 4 - wilds, -1):
                _combinations(plays, present, n, kept, 0, (5 - kept) * h.wild + code)
    return 0


cdef int _combinations(list plays, gd_key *cards, int n, int kept, int first, gd_key prefix) except -1:
    """Each choice of ``kept`` of ``cards[first:n]`` added to ``prefix``, in lexicographic order
    (``itertools.combinations``)."""
    cdef int i
    if kept == 0:
        return _emit(plays, prefix)
    for i in range(first, n - kept + 1):
        _combinations(plays, cards, n, kept - 1, i + 1, prefix + cards[i])
    return 0
