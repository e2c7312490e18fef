"""Compiled ``sampling.sample_hidden_hands``: the same draws, from the same generator calls, in C.

The reference groups the unseen cards in tuples, memoises its counts of deals in an ``lru_cache`` keyed by
tuples and draws with ``rng.randrange`` / ``rng.shuffle``. Here hands and groups are 64-bit masks, room and
splits C arrays, and the counts of deals 64-bit integers computed by the same recursion over the same splits
in the same order (exact: with at most three hands and 39 cards no count exceeds 39!/(13!)^3 < 2^57). For a
plain ``random.Random`` the draws call its ``getrandbits`` exactly as ``randrange`` and ``shuffle`` do
(``_randbelow``: ``getrandbits(n.bit_length())`` until below ``n``); any other generator is called through its
``randrange`` and ``shuffle``. Larger inputs go to the reference.
"""

import random

from libc.stdint cimport uint64_t

from paiju.core.errors import PaijuError
from paiju.games.gongzhu import sampling
from paiju.games.gongzhu.cards import FULL_MASK

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long)
    int clz64 "__builtin_clzll"(unsigned long long)
    int popcount64 "__builtin_popcountll"(unsigned long long)

cdef enum:
    MAX_HANDS = 3
    MAX_CARDS = 39
    MAX_SPLITS = 1024

cdef uint64_t BINOMIAL[MAX_CARDS + 1][MAX_CARDS + 1]
cdef int _n, _k
for _n in range(MAX_CARDS + 1):
    BINOMIAL[_n][0] = 1
    for _k in range(1, _n + 1):
        BINOMIAL[_n][_k] = BINOMIAL[_n - 1][_k - 1] + (BINOMIAL[_n - 1][_k] if _k < _n else 0)
cdef uint64_t SUIT_BITS = (1 << 13) - 1


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``cards.SUIT_BITS``), for
    ``tests/native/test_constants.py``."""
    return {"SUIT_BITS": SUIT_BITS}


cdef struct Groups:
    int count          # groups
    int hands          # hands (len(room))
    int cards[4]       # cards per group
    int open[4]        # bit j: hand j may hold the group's cards
    uint64_t masks[4]  # the group's cards


cdef uint64_t ways(int count, int* split, int hands):
    """``_ways_to_split``: the multinomial coefficient count! / prod(split[j]!) (``split`` sums to ``count``)."""
    cdef uint64_t result = 1
    cdef int j
    for j in range(hands):
        result *= BINOMIAL[count][split[j]]
        count -= split[j]
    return result


cdef uint64_t completions(Groups* groups, int group, int* room):
    """``_completions``: deals of groups ``group``.. into hands with ``room`` places left."""
    cdef int j
    cdef int split[MAX_HANDS]
    if group == groups.count:
        for j in range(groups.hands):
            if room[j]:
                return 0
        return 1
    if group == groups.count - 1:
        for j in range(groups.hands):
            if room[j] and not groups.open[group] >> j & 1:
                return 0
        return ways(groups.cards[group], room, groups.hands)
    cdef int splits[MAX_SPLITS][MAX_HANDS]
    cdef int after[MAX_HANDS]
    cdef int found = 0, i
    cdef uint64_t total = 0
    for j in range(groups.hands):
        split[j] = 0
    list_splits(groups, group, 0, groups.cards[group], room, split, splits, &found)
    for i in range(found):
        for j in range(groups.hands):
            after[j] = room[j] - splits[i][j]
        total += ways(groups.cards[group], splits[i], groups.hands) * completions(groups, group + 1, after)
    return total


cdef void list_splits(Groups* groups, int group, int position, int left, int* room, int* split,
                      int (*out)[MAX_HANDS], int* found):
    """The splits of ``group`` in ``_splits``'s order, appended to ``out``."""
    cdef int hand, given, j, rest = 0, least, most
    for hand in range(position, groups.hands):
        if groups.open[group] >> hand & 1:
            break
    else:
        if left == 0 and found[0] < MAX_SPLITS:
            for j in range(groups.hands):
                out[found[0]][j] = split[j]
            found[0] += 1
        return
    for j in range(hand + 1, groups.hands):
        if groups.open[group] >> j & 1:
            rest += room[j]
    least = left - rest if left > rest else 0
    most = left if left < room[hand] else room[hand]
    for given in range(least, most + 1):
        split[hand] = given
        list_splits(groups, group, hand + 1, left - given, room, split, out, found)
    split[hand] = 0


cdef bint sorts_before(int a, int b):
    """Whether hand set ``a`` sorts before ``b`` as ``(len(hands), hands)`` tuples do."""
    if popcount64(a) != popcount64(b):
        return popcount64(a) < popcount64(b)
    while a and b:
        if ctz64(a) != ctz64(b):
            return ctz64(a) < ctz64(b)
        a &= a - 1
        b &= b - 1
    return False


cdef uint64_t randbelow(object rng, object getrandbits, uint64_t n) except? 0:
    """``rng.randrange(n)`` for ``n >= 1``; with ``getrandbits`` (a plain ``random.Random``) as ``_randbelow``."""
    cdef int bits
    cdef uint64_t drawn
    if getrandbits is None:
        return rng.randrange(n)
    bits = 64 - clz64(n)
    drawn = getrandbits(bits)
    while drawn >= n:
        drawn = getrandbits(bits)
    return drawn


cdef int shuffle(object rng, object getrandbits, int* deck, int n) except -1:
    """``rng.shuffle`` of ``deck[:n]``: for a plain ``random.Random`` its own swaps, drawn as it draws them."""
    cdef int i, swap
    if getrandbits is None:
        shuffled = [deck[i] for i in range(n)]
        rng.shuffle(shuffled)
        for i in range(n):
            deck[i] = shuffled[i]
    else:
        for i in range(n - 1, 0, -1):
            swap = randbelow(rng, getrandbits, i + 1)
            deck[i], deck[swap] = deck[swap], deck[i]
    return 0


def shuffled_hands(rng, int hands, int size):
    """``sampling.shuffled_hands``: the deck shuffled as ``rng.shuffle`` does, dealt ``size`` cards a hand."""
    cdef int deck[52]
    cdef int hand, i
    cdef uint64_t mask
    if hands < 0 or size < 0 or hands * size > 52:
        return sampling.reference_shuffled_hands(rng, hands, size)
    for i in range(52):
        deck[i] = i
    shuffle(rng, rng.getrandbits if type(rng) is random.Random else None, deck, 52)
    masks = []
    for hand in range(hands):
        mask = 0
        for i in range(size * hand, size * (hand + 1)):
            mask |= (<uint64_t>1) << deck[i]
        masks.append(mask)
    return masks


def sample_hidden_hands(unseen, sizes, forbidden, rng):
    """``sampling.sample_hidden_hands``: deal the cards of mask ``unseen`` into hands of ``sizes[j]`` cards,
    hand ``j`` holding none of mask ``forbidden[j]``, uniformly; the same draws from ``rng``."""
    room_tuple = tuple(sizes)
    if (len(room_tuple) > MAX_HANDS or len(forbidden) != len(room_tuple) or not 0 <= unseen <= FULL_MASK
            or unseen.bit_count() > MAX_CARDS):
        return sampling.reference_sample_hidden_hands(unseen, sizes, forbidden, rng)
    cdef uint64_t cards_left = unseen, banned, cards, pick, total
    cdef Groups groups
    cdef int room[MAX_HANDS]
    cdef int split[MAX_HANDS]
    cdef int splits[MAX_SPLITS][MAX_HANDS]
    cdef uint64_t weights[MAX_SPLITS]
    cdef uint64_t hands[MAX_HANDS]
    cdef int deck[MAX_CARDS]
    cdef int suit, j, g, open_hands, found, chosen, n, i, start
    cdef Groups moved
    if sum(room_tuple) != unseen.bit_count() or min(room_tuple, default=0) < 0:
        raise PaijuError(f"cannot deal {unseen.bit_count()} unseen cards into hands of sizes {list(room_tuple)}")
    groups.count = 0
    groups.hands = len(room_tuple)
    for j in range(groups.hands):
        room[j] = room_tuple[j]
        hands[j] = 0
    for suit in range(4):
        cards = (cards_left >> (13 * suit) & SUIT_BITS) << (13 * suit)
        if not cards:
            continue
        open_hands = 0
        for j in range(groups.hands):
            banned = forbidden[j] & (SUIT_BITS << (13 * suit))
            if not banned:
                open_hands |= 1 << j
        for g in range(groups.count):
            if groups.open[g] == open_hands:
                groups.masks[g] |= cards
                break
        else:
            groups.open[groups.count] = open_hands
            groups.masks[groups.count] = cards
            groups.count += 1
    for g in range(1, groups.count):  # insertion sort, most constrained first
        j = g
        while j > 0 and sorts_before(groups.open[j], groups.open[j - 1]):
            groups.open[j], groups.open[j - 1] = groups.open[j - 1], groups.open[j]
            groups.masks[j], groups.masks[j - 1] = groups.masks[j - 1], groups.masks[j]
            j -= 1
    for g in range(groups.count):
        groups.cards[g] = popcount64(groups.masks[g])
    if completions(&groups, 0, room) == 0:
        raise PaijuError(f"no deal of the unseen cards into hands of sizes {list(room_tuple)} respects the known "
                         f"voids")
    getrandbits = rng.getrandbits if type(rng) is random.Random else None
    for g in range(groups.count):
        found = 0
        if g + 1 < groups.count:
            for j in range(groups.hands):
                split[j] = 0
            list_splits(&groups, g, 0, groups.cards[g], room, split, splits, &found)
        else:
            for j in range(groups.hands):
                splits[0][j] = room[j]
            found = 1
        total = 0
        for i in range(found):
            for j in range(groups.hands):
                split[j] = room[j] - splits[i][j]
            weights[i] = ways(groups.cards[g], splits[i], groups.hands) * completions(&groups, g + 1, split)
            total += weights[i]
        pick = randbelow(rng, getrandbits, total)
        chosen = 0
        while pick >= weights[chosen]:
            pick -= weights[chosen]
            chosen += 1
        n = 0
        cards = groups.masks[g]
        while cards:
            deck[n] = ctz64(cards)
            n += 1
            cards &= cards - 1
        shuffle(rng, getrandbits, deck, n)
        start = 0
        for j in range(groups.hands):
            for i in range(start, start + splits[chosen][j]):
                hands[j] |= (<uint64_t>1) << deck[i]
            start += splits[chosen][j]
            room[j] -= splits[chosen][j]
    return [hands[j] for j in range(groups.hands)]
