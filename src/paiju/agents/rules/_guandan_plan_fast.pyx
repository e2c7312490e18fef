"""Compiled GuanDan ``rules`` player: the hand planner (``guandan_plan``) and the scoring of plays (``guandan``).

Drop-in replacements for ``signature``, ``best_plan`` and ``plan_value_after`` (``guandan_plan``) and for
``play_scores``, ``played_cards`` and ``_flush_mask`` (``guandan``): the same results, floats summed in the same
order, lists in the same order. How:

- a packed card set (2 bits per card, 8 per rank) is read as two 64-bit words (ranks 2..9 and T..A plus the
  jokers), a play's key likewise; the natural cards per rank are C count vectors (``uint8_t[13]``);
- the planner's values (``HandPlanner.same_rank``, ``bombs``, ``chain_values``, ``flush_values``, ``order``) are
  copied once per planner into C arrays (``_Tables``, kept on the planner);
- groupings (``_leaf``: the wild cards tried on each target rank) and chain candidates (``_chains``) run over
  these arrays, without the reference's dictionaries; the chain search (``_search``) memoises its positions
  for the one call only, in a C hash table cleared by a stamp;
- ``play_scores`` groups the plays by signature (two 64-bit words) in a C hash table and scores each group
  with the plan's chains read once into C arrays.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsUnsignedLongLongMask, PyLong_FromUnsignedLongLong
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport INFINITY
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy, memset

from paiju.games.guandan.combos import ComboType

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long)

cdef enum:
    NUM_RANKS = 13
    SINGLE = 1
    PAIR = 2
    TRIPS = 3
    THREE_WITH_TWO = 4
    STRAIGHT = 5
    THREE_PAIR = 6
    TWO_TRIPS = 7
    BOMB = 8
    STRAIGHT_FLUSH = 9
    JOKER_BOMB = 10
    ACE = 12
    SMALL_JOKER_RANK = 13
    BIG_JOKER_RANK = 14
    MAX_CHAINS = 40         # chains in one search path (each takes at least three natural cards)
    MAX_CANDIDATES = 35     # chain windows: 10 straights, 12 tubes, 13 plates
    MAX_KEPT = 64           # chains and straight flushes of one plan
    MEMO_SIZE = 4096        # search positions memoised per call (a power of two)

cdef double FINISH = 1000.0
cdef uint64_t LOW_BITS = 0x5555555555555555ULL
cdef uint64_t HIGH_CARD_BITS = (1ULL << 48) - 1

cdef uint8_t COUNT[256]
"""Profile byte -> number of cards."""
cdef int POSITION_RANK[14]
"""Chain position -> rank: the ace low at 0 and high at 13."""
cdef int CHAIN_KINDS[3]
cdef int CHAIN_WIDTH[3]
cdef int CHAIN_COPIES[3]

cdef int _i
for _i in range(256):
    COUNT[_i] = (_i & 3) + ((_i >> 2) & 3) + ((_i >> 4) & 3) + ((_i >> 6) & 3)
POSITION_RANK[0] = ACE
for _i in range(13):
    POSITION_RANK[_i + 1] = _i
CHAIN_KINDS[:] = [STRAIGHT, THREE_PAIR, TWO_TRIPS]
CHAIN_WIDTH[:] = [5, 3, 2]
CHAIN_COPIES[:] = [1, 2, 3]


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``combos.ComboType``, the ranks,
    ``guandan.FINISH``, the card bit masks, the chain shapes), for ``tests/native/test_constants.py``."""
    return {
        "NUM_RANKS": NUM_RANKS, "SINGLE": SINGLE, "PAIR": PAIR, "TRIPS": TRIPS, "THREE_WITH_TWO": THREE_WITH_TWO,
        "STRAIGHT": STRAIGHT, "THREE_PAIR": THREE_PAIR, "TWO_TRIPS": TWO_TRIPS, "BOMB": BOMB,
        "STRAIGHT_FLUSH": STRAIGHT_FLUSH, "JOKER_BOMB": JOKER_BOMB, "ACE": ACE, "SMALL_JOKER_RANK": SMALL_JOKER_RANK,
        "BIG_JOKER_RANK": BIG_JOKER_RANK, "MAX_CANDIDATES": MAX_CANDIDATES, "FINISH": FINISH, "LOW_BITS": LOW_BITS,
        "HIGH_CARD_BITS": HIGH_CARD_BITS, "CHAIN_KINDS": [CHAIN_KINDS[i] for i in range(3)],
        "CHAIN_WIDTH": [CHAIN_WIDTH[i] for i in range(3)], "CHAIN_COPIES": [CHAIN_COPIES[i] for i in range(3)],
    }

_TYPES = tuple(ComboType)


# -- cards -----------------------------------------------------------------------------------------------


cdef inline int _words(object packed, uint64_t* low, uint64_t* high) except -1:
    """A packed card set (or a play key) as two 64-bit words: bits 0..63 and 64..127."""
    low[0] = PyLong_AsUnsignedLongLongMask(packed)
    high[0] = PyLong_AsUnsignedLongLongMask(packed >> 64)
    return 0


cdef inline void _play_cards(uint64_t key_low, uint64_t key_high, uint64_t* low, uint64_t* high):
    """A play key's packed cards (``Play.packed``) as two words: ranks 2..9, then T..A and the jokers."""
    low[0] = (key_low >> 8) | (key_high << 56)
    high[0] = (key_high >> 8) & HIGH_CARD_BITS


cdef inline object _packed_int(uint64_t low, uint64_t high):
    return (PyLong_FromUnsignedLongLong(high) << 64) | PyLong_FromUnsignedLongLong(low)


cdef inline int _size(uint64_t low, uint64_t high):
    """Number of cards of a packed set: the 2-bit counts summed."""
    return (popcount64(low & LOW_BITS) + 2 * popcount64(low & ~LOW_BITS)
            + popcount64(high & LOW_BITS) + 2 * popcount64(high & ~LOW_BITS))


cdef inline void _profile(uint64_t low, uint64_t high, uint8_t* profile):
    """The 14 profile bytes of a packed set (ranks 2..A, then the jokers)."""
    cdef int rank
    for rank in range(8):
        profile[rank] = (low >> (8 * rank)) & 255
    for rank in range(8, 14):
        profile[rank] = (high >> (8 * (rank - 8))) & 255


cdef inline int _natural_counts(uint64_t low, uint64_t high, int level, uint8_t* profile, uint8_t* counts):
    """Splits a packed hand: its profile less the wild cards, the natural cards per rank; returns the wild
    cards (the heart level cards)."""
    cdef int rank, wilds
    _profile(low, high, profile)
    wilds = profile[level] & 3
    profile[level] -= wilds
    for rank in range(NUM_RANKS):
        counts[rank] = COUNT[profile[rank]]
    return wilds


cdef inline int _power(int rank, int level):
    """Rank order of singles .. bombs (``combos.power``)."""
    if rank == level:
        return NUM_RANKS
    return rank + 1 if rank >= NUM_RANKS else rank


cdef inline int _chain_index(int kind):
    """Index of a plain chain type in ``CHAIN_KINDS`` (-1 for the others)."""
    if kind == STRAIGHT:
        return 0
    if kind == THREE_PAIR:
        return 1
    if kind == TWO_TRIPS:
        return 2
    return -1


cdef inline int _order(int kind, int rank, int level):
    """``Play.order``: the chain position for chains, else ``power``."""
    if kind == STRAIGHT or kind == THREE_PAIR or kind == TWO_TRIPS or kind == STRAIGHT_FLUSH:
        return 0 if rank == ACE else rank + 1
    return _power(rank, level)


def signature(play, int level):
    """``guandan_plan.signature``: type and rank code, natural cards per rank 2..A, the jokers' profile byte,
    the wild cards (16 bytes)."""
    cdef uint64_t key_low, key_high, low, high
    cdef uint8_t profile[14]
    cdef uint8_t out[16]
    cdef int rank, wilds
    _words(play, &key_low, &key_high)
    _play_cards(key_low, key_high, &low, &high)
    _profile(low, high, profile)
    wilds = profile[level] & 3
    out[0] = key_low & 255
    for rank in range(NUM_RANKS):
        out[1 + rank] = COUNT[profile[rank]]
    out[1 + level] -= wilds
    out[14] = profile[13]
    out[15] = wilds
    return PyBytes_FromStringAndSize(<char*>out, 16)


def played_cards(history):
    """``guandan.played_cards``: the packed set of the cards of the (seat, play) pairs."""
    cdef uint64_t key_low, key_high, low, high, total_low = 0, total_high = 0
    for _, play in history:
        _words(play, &key_low, &key_high)
        _play_cards(key_low, key_high, &low, &high)
        total_low += low
        total_high += high + (total_low < low)
    return _packed_int(total_low, total_high)


def flush_mask(hand, int level):
    """``guandan._flush_mask``: the natural cards with at least two others of their suit within five
    consecutive ranks, both bits of each."""
    cdef uint64_t low, high, mask_low = 0, mask_high = 0
    cdef uint8_t profile[14]
    cdef uint8_t counts[NUM_RANKS]
    cdef bint held[14]
    cdef int suit, start, position, found, bit
    _words(hand, &low, &high)
    _natural_counts(low, high, level, profile, counts)
    for suit in range(4):
        for position in range(14):
            held[position] = (profile[POSITION_RANK[position]] >> (2 * suit)) & 3 > 0
        for start in range(10):
            found = 0
            for position in range(start, start + 5):
                found += held[position]
            if found < 3:
                continue
            for position in range(start, start + 5):
                if held[position]:
                    bit = 8 * POSITION_RANK[position] + 2 * suit
                    if bit < 64:
                        mask_low |= 3ULL << bit
                    else:
                        mask_high |= 3ULL << (bit - 64)
    return _packed_int(mask_low, mask_high)


# -- the planner's values ----------------------------------------------------------------------------------


cdef class _Tables:
    """A planner's values in C arrays (``HandPlanner``): copied once, kept on the planner as ``_tables``."""

    cdef int level
    cdef int width
    cdef int order[NUM_RANKS]
    cdef double same_rank[15]
    cdef double bombs[NUM_RANKS][11]
    cdef double chain_values[3][13]
    cdef double flush_values[10]
    cdef double joker_bomb

    def __init__(self, planner):
        cdef int rank, size, kind, start
        self.level = planner.level
        self.width = planner.config.search_width
        self.joker_bomb = planner.config.joker_bomb
        for rank in range(NUM_RANKS):
            self.order[rank] = planner.order[rank]
            for size in range(11):
                self.bombs[rank][size] = planner.bombs[rank][size]
        for rank in range(15):
            self.same_rank[rank] = planner.same_rank[rank]
        for kind in range(3):
            values = planner.chain_values[_TYPES[CHAIN_KINDS[kind]]]
            for start in range(15 - CHAIN_WIDTH[kind]):
                self.chain_values[kind][start] = values[start]
        for start in range(10):
            self.flush_values[start] = planner.flush_values[start]


cdef inline _Tables _tables(planner):
    cdef _Tables tables = planner._tables
    if tables is None:
        tables = planner._tables = _Tables(planner)
    return tables


# -- groups of one rank ------------------------------------------------------------------------------------


cdef struct Leaf:
    double value
    int plays
    int wilds           # wild cards placed
    int ranks[3]        # the ranks they join


cdef Leaf _group_value(_Tables t, const uint8_t* counts):
    """``HandPlanner._group_value``: value and plays of the counts grouped by rank, trips taking the lowest
    pairs as full houses."""
    cdef Leaf found
    cdef double pairs[NUM_RANKS]
    cdef double joined_value = 0.0
    cdef int i, rank, count, trips = 0, paired = 0, joined
    memset(&found, 0, sizeof(found))
    for i in range(NUM_RANKS):
        rank = t.order[i]
        count = counts[rank]
        if not count:
            continue
        found.plays += 1
        if count >= 4:
            found.value += t.bombs[rank][count]
            continue
        found.value += t.same_rank[rank]
        if count == 2:
            pairs[paired] = t.same_rank[rank]
            paired += 1
        elif count == 3:
            trips += 1
    joined = min(trips, paired)
    for i in range(joined):
        joined_value += pairs[i]
    found.value = found.value - joined_value
    found.plays -= joined
    return found


cdef int _wild_targets(_Tables t, const uint8_t* counts, int* targets):
    """``HandPlanner._wild_targets``: the level rank, then the lowest and highest rank holding 3, 4+, 2 and 1
    cards; returns how many."""
    cdef int lowest[5]
    cdef int highest[5]
    cdef int i, j, rank, count, found = 1, side
    cdef bint known
    for i in range(5):
        lowest[i] = highest[i] = -1
    for i in range(NUM_RANKS):
        rank = t.order[i]
        count = min(counts[rank], 4)
        if count:
            if lowest[count] < 0:
                lowest[count] = rank
            highest[count] = rank
    targets[0] = t.level
    for count in (3, 4, 2, 1):
        for side in range(2):
            rank = lowest[count] if side == 0 else highest[count]
            if rank < 0:
                continue
            known = False
            for j in range(found):
                known = known or targets[j] == rank
            if not known:
                targets[found] = rank
                found += 1
    return found


cdef Leaf _leaf(_Tables t, const uint8_t* counts, int wilds):
    """``HandPlanner._leaf``: the best grouping with ``wilds`` wild cards, each on a target rank
    (combinations with replacement, in ``itertools`` order; the first best kept)."""
    cdef Leaf best, found
    cdef uint8_t extended[NUM_RANKS]
    cdef int targets[9]
    cdef int picks[3]
    cdef int options, i, j
    if not wilds:
        return _group_value(t, counts)
    best.value = -INFINITY
    best.plays = 0
    best.wilds = 0
    options = _wild_targets(t, counts, targets)
    memcpy(extended, counts, NUM_RANKS)
    for i in range(wilds):
        picks[i] = 0
    while True:
        for i in range(wilds):
            extended[targets[picks[i]]] += 1
        found = _group_value(t, extended)
        if found.value > best.value:
            best = found
            best.wilds = wilds
            for i in range(wilds):
                best.ranks[i] = targets[picks[i]]
        for i in range(wilds):
            extended[targets[picks[i]]] -= 1
        i = wilds - 1
        while i >= 0 and picks[i] == options - 1:
            i -= 1
        if i < 0:
            return best
        picks[i] += 1
        for j in range(i + 1, wilds):
            picks[j] = picks[i]


# -- the search --------------------------------------------------------------------------------------------


cdef struct Chain:
    int kind            # index in CHAIN_KINDS
    int start           # chain position of its lowest rank
    int need            # wild cards filling its gaps
    double value
    uint8_t naturals[NUM_RANKS]


cdef struct Best:
    double value
    int plays
    int chains
    uint8_t codes[MAX_CHAINS]   # each chain as kind index * 16 + start, applied in turn


cdef uint64_t _memo_keys[MEMO_SIZE]
cdef unsigned int _memo_stamps[MEMO_SIZE]
cdef Best _memo_found[MEMO_SIZE]
cdef unsigned int _memo_stamp = 0
cdef int _memo_used = 0


cdef void _memo_clear():
    """Forgets every memoised position (a new stamp)."""
    global _memo_stamp, _memo_used
    _memo_stamp += 1
    if _memo_stamp == 0:
        memset(_memo_stamps, 0, sizeof(_memo_stamps))
        _memo_stamp = 1
    _memo_used = 0


cdef inline uint64_t _position_key(const uint8_t* counts, int wilds):
    cdef uint64_t key = wilds
    cdef int rank
    for rank in range(NUM_RANKS):
        key = (key << 4) | counts[rank]
    return key


cdef inline int _memo_slot(uint64_t key):
    """The slot holding ``key``, or the free slot where it goes."""
    cdef int slot = ((key * 0x9E3779B97F4A7C15ULL) >> 52) & (MEMO_SIZE - 1)
    while _memo_stamps[slot] == _memo_stamp and _memo_keys[slot] != key:
        slot = (slot + 1) & (MEMO_SIZE - 1)
    return slot


cdef inline void _make_chain(_Tables t, int kind, int start, const uint8_t* counts, Chain* chain):
    """The chain of ``CHAIN_KINDS[kind]`` from ``start`` on ``counts``: up to ``copies`` naturals of each of
    its ranks, the gaps counted as wild cards."""
    cdef int position, rank, copies = CHAIN_COPIES[kind]
    chain.kind = kind
    chain.start = start
    chain.need = 0
    chain.value = t.chain_values[kind][start]
    memset(chain.naturals, 0, NUM_RANKS)
    for position in range(start, start + CHAIN_WIDTH[kind]):
        rank = POSITION_RANK[position]
        chain.naturals[rank] = min(counts[rank], copies)
        chain.need += copies - chain.naturals[rank]


cdef int _chains(_Tables t, const uint8_t* counts, int wilds, Chain* found):
    """``HandPlanner._chains``: straights, tubes and plates using up at least two ranks' cards (a straight
    also one card of three pairs), gaps filled with wild cards; returns how many."""
    cdef int kind, start, position, copies, count, used_up, doubles, need, made = 0
    for kind in range(3):
        copies = CHAIN_COPIES[kind]
        for start in range(15 - CHAIN_WIDTH[kind]):
            need = used_up = doubles = 0
            for position in range(start, start + CHAIN_WIDTH[kind]):
                count = counts[POSITION_RANK[position]]
                if count < copies:
                    need += copies - count
                used_up += count <= copies
                doubles += count == 2
            if need > wilds:
                continue
            if used_up < 2 and (kind != 0 or doubles < 3):
                continue
            _make_chain(t, kind, start, counts, &found[made])
            made += 1
    return made


cdef inline void _take(const uint8_t* counts, const uint8_t* naturals, uint8_t* rest):
    cdef int rank
    for rank in range(NUM_RANKS):
        rest[rank] = counts[rank] - naturals[rank]


cdef Best _search(_Tables t, const uint8_t* counts, int wilds):
    """``HandPlanner._search``: the best chains and the groups left (value, plays, chains), searching on from
    the ``search_width`` chains that look best one step ahead (a stable sort, best first)."""
    global _memo_used
    cdef Best best, after
    cdef Leaf grouped
    cdef Chain chains[MAX_CANDIDATES]
    cdef uint8_t rests[MAX_CANDIDATES][NUM_RANKS]
    cdef double ahead[MAX_CANDIDATES]
    cdef int ranked[MAX_CANDIDATES]
    cdef int made, i, j, pick
    cdef uint64_t key = _position_key(counts, wilds)
    cdef int slot = _memo_slot(key)
    if _memo_stamps[slot] == _memo_stamp:
        return _memo_found[slot]
    grouped = _leaf(t, counts, wilds)
    best.value = grouped.value
    best.plays = grouped.plays
    best.chains = 0
    made = _chains(t, counts, wilds, chains)
    for i in range(made):
        _take(counts, chains[i].naturals, rests[i])
        ahead[i] = _leaf(t, rests[i], wilds - chains[i].need).value + chains[i].value
        j = i
        while j > 0 and ahead[ranked[j - 1]] < ahead[i]:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = i
    for j in range(min(made, t.width)):
        pick = ranked[j]
        after = _search(t, rests[pick], wilds - chains[pick].need)
        if after.value + chains[pick].value > best.value + 1e-9:
            best.value = after.value + chains[pick].value
            best.plays = after.plays + 1
            best.chains = after.chains + 1
            best.codes[0] = chains[pick].kind * 16 + chains[pick].start
            memcpy(&best.codes[1], after.codes, after.chains)
    if _memo_used < MEMO_SIZE * 3 // 4:
        slot = _memo_slot(key)
        _memo_keys[slot] = key
        _memo_stamps[slot] = _memo_stamp
        _memo_found[slot] = best
        _memo_used += 1
    return best


# -- plans ----------------------------------------------------------------------------------------------------


cdef object _unit(int kind, int rank, const uint8_t* naturals, int wilds, double value, int jokers=0):
    """``HandPlanner._unit``: a ``Unit``, its signature and size included."""
    cdef uint8_t code[16]
    cdef int i, size = wilds + (jokers & 3) + (jokers >> 2)
    code[0] = kind << 4 | rank
    for i in range(NUM_RANKS):
        code[1 + i] = naturals[i]
        size += naturals[i]
    code[14] = jokers
    code[15] = wilds
    return Unit(_TYPES[kind], rank, PyBytes_FromStringAndSize(<char*>code, 16),
                PyBytes_FromStringAndSize(<char*>naturals, NUM_RANKS), wilds, value, size)


cdef int _joker_plays(_Tables t, int jokers, double* base):
    """The value of the jokers (profile byte 13) as ``_joker_units`` plays them; returns their plays."""
    cdef int small = jokers & 3, big = jokers >> 2, plays = 0
    base[0] = 0.0
    if small == 2 and big == 2:
        base[0] += t.joker_bomb
        return 1
    if small:
        base[0] += t.same_rank[SMALL_JOKER_RANK]
        plays += 1
    if big:
        base[0] += t.same_rank[BIG_JOKER_RANK]
        plays += 1
    return plays


cdef double _joker_units(_Tables t, int jokers, list units, double total):
    """``HandPlanner._joker_units``: the joker bomb, else a pair or a single of each joker, appended to
    ``units``; returns ``total`` plus their values."""
    cdef uint8_t none[NUM_RANKS]
    cdef int small = jokers & 3, big = jokers >> 2
    memset(none, 0, NUM_RANKS)
    if small == 2 and big == 2:
        units.append(_unit(JOKER_BOMB, 15, none, 0, t.joker_bomb, jokers))
        return total + t.joker_bomb
    if small:
        units.append(_unit(small, SMALL_JOKER_RANK, none, 0, t.same_rank[SMALL_JOKER_RANK], small))
        total += t.same_rank[SMALL_JOKER_RANK]
    if big:
        units.append(_unit(big, BIG_JOKER_RANK, none, 0, t.same_rank[BIG_JOKER_RANK], big << 2))
        total += t.same_rank[BIG_JOKER_RANK]
    return total


cdef double _group_units(_Tables t, const uint8_t* counts, int wilds, list units, double total):
    """``HandPlanner._groups``: the units of the best grouping (singles and bombs by rank, full houses,
    trips, pairs), appended to ``units``; returns ``total`` plus their values."""
    cdef Leaf grouped = _leaf(t, counts, wilds)
    cdef int extra[NUM_RANKS]
    cdef int trips[NUM_RANKS]
    cdef int pairs[NUM_RANKS]
    cdef uint8_t naturals[NUM_RANKS]
    cdef int i, rank, count, tripled = 0, paired = 0, joined, kind
    cdef double value
    memset(extra, 0, sizeof(extra))
    for i in range(grouped.wilds):
        extra[grouped.ranks[i]] += 1
    memset(naturals, 0, NUM_RANKS)
    for i in range(NUM_RANKS):
        rank = t.order[i]
        count = counts[rank] + extra[rank]
        if not count:
            continue
        if count == 3:
            trips[tripled] = rank
            tripled += 1
        elif count == 2:
            pairs[paired] = rank
            paired += 1
        if count == 1 or count >= 4:
            kind, value = (SINGLE, t.same_rank[rank]) if count == 1 else (BOMB, t.bombs[rank][count])
            naturals[rank] = counts[rank]
            units.append(_unit(kind, rank, naturals, extra[rank], value))
            naturals[rank] = 0
            total += value
    joined = min(tripled, paired)
    for i in range(joined):
        naturals[trips[i]] = counts[trips[i]]
        naturals[pairs[i]] = counts[pairs[i]]
        units.append(_unit(THREE_WITH_TWO, trips[i], naturals, extra[trips[i]] + extra[pairs[i]],
                           t.same_rank[trips[i]]))
        naturals[trips[i]] = naturals[pairs[i]] = 0
        total += t.same_rank[trips[i]]
    total = _same_rank_units(t, TRIPS, trips + joined, tripled - joined, counts, extra, units, total)
    return _same_rank_units(t, PAIR, pairs + joined, paired - joined, counts, extra, units, total)


cdef double _same_rank_units(_Tables t, int kind, const int* ranks, int made, const uint8_t* counts,
                             const int* extra, list units, double total):
    """Trips or pairs of the ``ranks``, appended to ``units``; returns ``total`` plus their values."""
    cdef uint8_t naturals[NUM_RANKS]
    cdef int i, rank
    memset(naturals, 0, NUM_RANKS)
    for i in range(made):
        rank = ranks[i]
        naturals[rank] = counts[rank]
        units.append(_unit(kind, rank, naturals, extra[rank], t.same_rank[rank]))
        naturals[rank] = 0
        total += t.same_rank[rank]
    return total


cdef int _straight_flushes(_Tables t, const uint8_t* profile, int wilds, Chain* found):
    """``HandPlanner._straight_flushes``: one natural card of a suit per rank of five, gaps filled with wild
    cards (``Chain.kind`` -1); returns how many."""
    cdef bint held[NUM_RANKS]
    cdef int suit, start, position, rank, holding, made = 0
    for suit in range(4):
        holding = 0
        for rank in range(NUM_RANKS):
            held[rank] = (profile[rank] >> (2 * suit)) & 3 > 0
            holding += held[rank]
        if holding + wilds < 5:
            continue
        for start in range(10):
            found[made].need = 0
            memset(found[made].naturals, 0, NUM_RANKS)
            for position in range(start, start + 5):
                rank = POSITION_RANK[position]
                found[made].need += not held[rank]
                found[made].naturals[rank] = held[rank]
            if found[made].need <= wilds:
                found[made].kind = -1
                found[made].start = start
                found[made].value = t.flush_values[start]
                made += 1
    return made


def best_plan(planner, hand):
    """``guandan_plan.best_plan``: the best decomposition of the packed ``hand``: the search with no
    straight flush and with each one, the better kept (the first on ties)."""
    cdef _Tables t = _tables(planner)
    cdef uint64_t low, high
    cdef uint8_t profile[14]
    cdef uint8_t counts[NUM_RANKS]
    cdef uint8_t rest[NUM_RANKS]
    cdef Chain flushes[40]
    cdef Chain chain
    cdef Best best, found
    cdef int wilds, left, flush = -1, made, i, code
    cdef double total = 0.0
    _words(hand, &low, &high)
    wilds = _natural_counts(low, high, t.level, profile, counts)
    _memo_clear()
    best = _search(t, counts, wilds)
    made = _straight_flushes(t, profile, wilds, flushes)
    for i in range(made):
        _take(counts, flushes[i].naturals, rest)
        found = _search(t, rest, wilds - flushes[i].need)
        if found.value + flushes[i].value > best.value:
            best = found
            best.value = found.value + flushes[i].value
            flush = i
    units = []
    total = _joker_units(t, profile[13], units, total)
    memcpy(rest, counts, NUM_RANKS)
    left = wilds
    if flush >= 0:
        chain = flushes[flush]
        units.append(_unit(STRAIGHT_FLUSH, POSITION_RANK[chain.start], chain.naturals, chain.need, chain.value))
        total += chain.value
        _take(rest, chain.naturals, rest)
        left -= chain.need
    for i in range(best.chains):
        code = best.codes[i]
        _make_chain(t, code >> 4, code & 15, rest, &chain)
        units.append(_unit(CHAIN_KINDS[chain.kind], POSITION_RANK[chain.start], chain.naturals, chain.need,
                           chain.value))
        total += chain.value
        _take(rest, chain.naturals, rest)
        left -= chain.need
    total = _group_units(t, rest, left, units, total)
    return Plan(total if units else 0, tuple(units))


# -- what a play leaves --------------------------------------------------------------------------------------


cdef struct Kept:
    int wilds
    double value
    uint8_t naturals[NUM_RANKS]


cdef int _plan_chains(plan, Kept* kept) except -1:
    """The plan's chains and straight flushes (``Unit.is_chain``) into ``kept``; returns how many."""
    cdef int made = 0, kind, rank
    for unit in plan.units:
        kind = unit.type
        if kind != STRAIGHT and kind != THREE_PAIR and kind != TWO_TRIPS and kind != STRAIGHT_FLUSH:
            continue
        if made == MAX_KEPT:
            raise ValueError(f"a plan with more than {MAX_KEPT} chains")
        naturals = unit.naturals
        for rank in range(NUM_RANKS):
            kept[made].naturals[rank] = naturals[rank]
        kept[made].wilds = unit.wilds
        kept[made].value = unit.value
        made += 1
    return made


cdef int _value_after(_Tables t, const Kept* kept, int chains, uint64_t low, uint64_t high, double* value):
    """``plan_value_after`` on C data: sets the value, returns the plays."""
    cdef uint8_t profile[14]
    cdef uint8_t counts[NUM_RANKS]
    cdef uint8_t rest[NUM_RANKS]
    cdef Leaf grouped
    cdef double base, kept_value = 0.0
    cdef int wilds, jokers, i, rank, taken = 0, plays
    cdef bint fits
    wilds = _natural_counts(low, high, t.level, profile, counts)
    jokers = _joker_plays(t, profile[13], &base)
    grouped = _leaf(t, counts, wilds)
    value[0] = grouped.value
    plays = grouped.plays
    memcpy(rest, counts, NUM_RANKS)
    for i in range(chains):
        if kept[i].wilds > wilds:
            continue
        fits = True
        for rank in range(NUM_RANKS):
            fits = fits and rest[rank] >= kept[i].naturals[rank]
        if not fits:
            continue
        _take(rest, kept[i].naturals, rest)
        wilds -= kept[i].wilds
        kept_value += kept[i].value
        taken += 1
    if taken:
        grouped = _leaf(t, rest, wilds)
        if kept_value + grouped.value > value[0]:
            value[0] = kept_value + grouped.value
            plays = taken + grouped.plays
    value[0] = base + value[0]
    return plays + jokers


def plan_value_after(planner, plan, hand):
    """``guandan_plan.plan_value_after``: the value and plays of the packed ``hand`` (the planned hand less
    some cards): the plan's chains still whole in it kept, the rest regrouped, or all regrouped."""
    cdef _Tables t = _tables(planner)
    cdef Kept kept[MAX_KEPT]
    cdef int chains = _plan_chains(plan, kept), plays
    cdef uint64_t low, high
    cdef double value
    _words(hand, &low, &high)
    plays = _value_after(t, kept, chains, low, high, &value)
    return value, plays


# -- scoring plays ---------------------------------------------------------------------------------------------


cdef struct Unseen:
    int counts[15]      # natural cards per rank 2..A, the small and the big joker
    int wilds
    int level


cdef bint _can_beat(const Unseen* unseen, int kind, int rank):
    """``_Unseen.can_beat``: whether the unseen cards hold a higher play of the same type (bombs aside)."""
    cdef int index = _chain_index(kind), copies, start, position, need, floor, other, count
    if kind == STRAIGHT_FLUSH:
        return False
    if index >= 0:
        copies = CHAIN_COPIES[index]
        for start in range(_order(kind, rank, unseen.level) + 1, 15 - CHAIN_WIDTH[index]):
            need = 0
            for position in range(start, start + CHAIN_WIDTH[index]):
                need += max(0, copies - unseen.counts[POSITION_RANK[position]])
            if need <= unseen.wilds:
                return True
        return False
    if kind == SINGLE or kind == PAIR or kind == TRIPS:
        copies = kind
    elif kind == THREE_WITH_TWO:
        copies = 3
    else:
        return False
    floor = _power(rank, unseen.level)
    for other in range(15):
        if _power(other, unseen.level) <= floor:
            continue
        count = unseen.counts[other]
        if other >= NUM_RANKS:
            if count >= copies:
                return True
        elif (count and count + unseen.wilds >= copies) or (other == unseen.level and unseen.wilds >= copies):
            return True
    return False


cdef class _Judge:
    """A ``_PlayJudge``'s fields in C (``_PlayJudge.score``)."""

    cdef _Tables tables
    cdef Kept kept[MAX_KEPT]
    cdef int chains
    cdef double plan_value
    cdef uint64_t hand_low, hand_high
    cdef int size, level, leading, partner_cards, partner_leads
    cdef int opponents
    cdef int opponent_cards[2]
    cdef double fewest
    cdef Unseen unseen
    cdef double lead_size, partner_pass, partner_close, opponent_pass, pressing_cards, pressing_pass
    cdef double danger_cards, urgent_pass, lead_into_danger, block_rank, feed_partner, sure_win, winning_bomb

    def __init__(self, judge):
        cdef int rank
        obs = judge.obs
        config = judge.config
        self.tables = _tables(judge.planner)
        self.chains = _plan_chains(judge.plan, self.kept)
        self.plan_value = judge.plan.value
        _words(judge.hand, &self.hand_low, &self.hand_high)
        self.size = judge.size
        self.level = judge.level
        self.leading = judge.leading
        self.partner_cards = judge.partner_cards
        greater = obs.greater
        self.partner_leads = greater is not None and greater[0] == judge.partner
        self.opponents = len(judge.opponents)
        for rank in range(self.opponents):
            self.opponent_cards[rank] = obs.cards_left[judge.opponents[rank]]
        self.fewest = judge.fewest
        counts = judge.unseen.counts
        for rank in range(15):
            self.unseen.counts[rank] = counts[rank]
        self.unseen.wilds = judge.unseen.wilds
        self.unseen.level = self.level
        self.lead_size = config.lead_size
        self.partner_pass = config.partner_pass
        self.partner_close = config.partner_close
        self.opponent_pass = config.opponent_pass
        self.pressing_cards = config.pressing_cards
        self.pressing_pass = config.pressing_pass
        self.danger_cards = config.danger_cards
        self.urgent_pass = config.urgent_pass
        self.lead_into_danger = config.lead_into_danger
        self.block_rank = config.block_rank
        self.feed_partner = config.feed_partner
        self.sure_win = config.sure_win
        self.winning_bomb = config.winning_bomb

    cdef double pass_value(self):
        """``_PlayJudge._pass_value``."""
        if self.partner_leads:
            return FINISH / 2 if self.partner_cards <= self.partner_close else self.partner_pass
        if self.fewest <= self.danger_cards:
            return self.urgent_pass
        if self.fewest <= self.pressing_cards:
            return self.pressing_pass
        return self.opponent_pass

    cdef double lead_terms(self, int kind, int rank, int size):
        """``_PlayJudge._lead_terms``: leading into an opponent about to go out, feeding the partner."""
        cdef double value = 0.0
        cdef int i, cards
        for i in range(self.opponents):
            cards = self.opponent_cards[i]
            if cards <= self.danger_cards and size == cards and _can_beat(&self.unseen, kind, rank):
                value -= self.lead_into_danger - self.block_rank * _order(kind, rank, self.level)
        if 0 < self.partner_cards <= 2 and kind == self.partner_cards:
            value += self.feed_partner - 0.05 * _order(kind, rank, self.level)
        return value

    cdef double score(self, int kind, int rank, uint64_t low, uint64_t high):
        """``_PlayJudge.score`` of a play (type, rank code, packed cards)."""
        cdef int size, plays_after
        cdef double value, score
        cdef uint64_t left_low, left_high
        cdef bint bomb = kind == BOMB or kind == STRAIGHT_FLUSH or kind == JOKER_BOMB
        if kind == 0:
            if self.leading:
                raise AssertionError("a pass scored while leading")
            return self.pass_value()
        size = _size(low, high)
        if size == self.size:
            return FINISH
        left_low = self.hand_low - low
        left_high = self.hand_high - high - (self.hand_low < low)
        plays_after = _value_after(self.tables, self.kept, self.chains, left_low, left_high, &value)
        score = value - self.plan_value
        if self.leading:
            score += self.lead_size * size + self.lead_terms(kind, rank, size)
            if plays_after <= 1 and not bomb and not _can_beat(&self.unseen, kind, rank):
                score += self.sure_win
        elif plays_after <= 1:
            if bomb:
                score += self.winning_bomb
            elif not _can_beat(&self.unseen, kind, rank):
                score += self.sure_win
        return score


def play_scores(judge, legal):
    """``guandan.play_scores``: every play and its score, plays of one signature scored once (groups in the
    order they first appear), each less 1e-4 per straight-flush card it uses."""
    cdef _Judge scorer = _Judge(judge)
    cdef list plays = legal if type(legal) is list else list(legal)
    cdef Py_ssize_t count = len(plays), slots = 16, i, group, groups = 0, slot
    cdef uint64_t key_low, key_high, mask_low, mask_high, sign_low, sign_high
    cdef uint8_t profile[14]
    cdef int rank, wilds
    cdef list out_plays = [], out_scores = []
    while slots < 2 * count:
        slots *= 2
    cdef uint64_t* cards = <uint64_t*>PyMem_Malloc(2 * count * sizeof(uint64_t))
    cdef uint64_t* signs = <uint64_t*>PyMem_Malloc(2 * count * sizeof(uint64_t))
    cdef Py_ssize_t* links = <Py_ssize_t*>PyMem_Malloc((3 * count + slots) * sizeof(Py_ssize_t))
    cdef double* scores = <double*>PyMem_Malloc(count * sizeof(double))
    cdef Py_ssize_t* following = links
    cdef Py_ssize_t* heads = links + count
    cdef Py_ssize_t* tails = links + 2 * count
    cdef Py_ssize_t* table = links + 3 * count
    if not (cards and signs and links and scores):
        PyMem_Free(cards); PyMem_Free(signs); PyMem_Free(links); PyMem_Free(scores)
        raise MemoryError
    try:
        _words(judge.flush_mask, &mask_low, &mask_high)
        for i in range(slots):
            table[i] = -1
        for i in range(count):
            _words(plays[i], &key_low, &key_high)
            _play_cards(key_low, key_high, &cards[2 * i], &cards[2 * i + 1])
            _profile(cards[2 * i], cards[2 * i + 1], profile)
            wilds = profile[scorer.level] & 3
            profile[scorer.level] -= wilds
            sign_low = key_low & 255
            for rank in range(NUM_RANKS):
                sign_low = (sign_low << 4) | COUNT[profile[rank]]
            sign_high = (<uint64_t>profile[13] << 8) | wilds
            slot = <Py_ssize_t>(((sign_low * 0x9E3779B97F4A7C15ULL) ^ (sign_high * 0xC2B2AE3D27D4EB4FULL)) >> 40)
            slot &= slots - 1
            while table[slot] >= 0 and (signs[2 * table[slot]] != sign_low
                                        or signs[2 * table[slot] + 1] != sign_high):
                slot = (slot + 1) & (slots - 1)
            following[i] = -1
            group = table[slot]
            if group < 0:
                group = table[slot] = groups
                groups += 1
                signs[2 * group] = sign_low
                signs[2 * group + 1] = sign_high
                heads[group] = i
                scores[group] = scorer.score((key_low >> 4) & 15, key_low & 15, cards[2 * i], cards[2 * i + 1])
            else:
                following[tails[group]] = i
            tails[group] = i
        for group in range(groups):
            i = heads[group]
            while i >= 0:
                out_plays.append(plays[i])
                out_scores.append(scores[group] - 1e-4 * (popcount64(cards[2 * i] & mask_low)
                                                          + popcount64(cards[2 * i + 1] & mask_high)))
                i = following[i]
    finally:
        PyMem_Free(cards); PyMem_Free(signs); PyMem_Free(links); PyMem_Free(scores)
    return out_plays, out_scores


from paiju.agents.rules.guandan_plan import Plan, Unit  # noqa: E402  (last: guandan_plan binds this module)
