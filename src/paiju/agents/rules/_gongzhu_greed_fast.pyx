"""Compiled Mr. Greed trick search: ``gongzhu_greed.trick_values`` (``GongzhuGreedAgent._trick_values``).

The reference builds Python objects for every sampled deal: relief tables through an ``lru_cache`` keyed by the
agent's values (hashing a dataclass per lookup), ``Follower`` and ``TrickSearch`` objects, and a tuple per
searched ending. Here a decision runs in C: hands are 64-bit masks; a seat's relief of a card is read from
one of four base tables (pig guards on/off x sheep guards on/off, built once per ``GreedValues`` by the
reference ``relief_table``) plus its C10 guards; followers hold their candidate cards in C arrays and the
greedy search of the rest of the trick is a C recursion. Points and gains are C integers, reliefs and totals
doubles combined in the reference's order, and the deals come from the same ``sample_hidden_hands`` call
with the agent's generator, so every value is identical to the reference's.
"""

from libc.stdint cimport uint64_t

import paiju.agents.rules.gongzhu_greed as greed
from paiju.agents.rules.gongzhu_common import PIG, POINTS, SHEEP, TRANSFORMER
from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, SUIT_MASKS

cdef extern from *:
    int ctz64 "__builtin_ctzll"(unsigned long long)

cdef int C_POINTS[52]
cdef int C_FALLEN[52]
cdef int KEY_SLOT[52]
"""``KEY_SLOT[card]``: ``discard_key(card)`` numbered 0, 1, .. (discards alike to the others share a slot)."""
cdef int N_SLOTS = 0
cdef uint64_t C_SUIT_MASKS[4]

_slots = {}
for _card in range(52):
    C_POINTS[_card] = POINTS[_card]
    C_FALLEN[_card] = greed.FALLEN[_card]
    KEY_SLOT[_card] = _slots.setdefault(greed.discard_key(_card), len(_slots))
N_SLOTS = len(_slots)
for _suit in range(4):
    C_SUIT_MASKS[_suit] = SUIT_MASKS[_suit]
cdef enum:
    MAX_GUARDS = 52
    MAX_SLOTS = 52


cdef struct Reliefs:
    double base[4][52]
    int n_guards
    int guard_card[MAX_GUARDS]
    double guard_fraction[MAX_GUARDS]


cdef class _Values:
    """A ``GreedValues`` as C tables: ``base[2 * pig_out + sheep_out][card]`` is ``relief_table`` without a C10
    stake; the C10 guards (card, fraction) are added in order when a stake applies."""

    cdef Reliefs c

    def __init__(self, values):
        cdef int pig, sheep, card
        for pig in range(2):
            for sheep in range(2):
                table = greed.relief_table(values, bool(pig), bool(sheep), None)
                for card in range(52):
                    self.c.base[2 * pig + sheep][card] = table[card]
        guards = values.transformer_guards
        if len(guards) > MAX_GUARDS:
            raise ValueError(f"at most {MAX_GUARDS} transformer guards are supported")
        self.c.n_guards = len(guards)
        for index, (name, fraction) in enumerate(guards):
            self.c.guard_card[index] = CARD_INDEX[name]
            self.c.guard_fraction[index] = fraction


_TABLES = {}
"""id(GreedValues) -> (the values, kept alive so that the id stays theirs; their ``_Values``)."""


cdef _Values values_table(values):
    """The C tables of an agent's values (a few kept, by identity: ``GreedValues`` are frozen)."""
    entry = _TABLES.get(id(values))
    if entry is not None and entry[0] is values:
        return entry[1]
    if len(_TABLES) >= 64:
        _TABLES.clear()
    table = _Values(values)
    _TABLES[id(values)] = (values, table)
    return table


cdef struct Seat:
    int seat
    bint pig_out
    bint sheep_out
    bint has_stake
    long stake


cdef struct Board:
    long points[4]
    bint transformer[4]
    long to_come


cdef struct Follower:
    Seat info
    bint follows
    int count
    int cards[52]


cdef struct Search:
    Board* board
    Reliefs* values
    int count
    Follower followers[3]


cdef inline long floor_div(long a, long b):
    """Python's ``a // b`` (C division truncates towards zero)."""
    cdef long q = a / b
    if (a % b != 0) and ((a < 0) != (b < 0)):
        q -= 1
    return q


cdef inline long gain(Board* board, int winner, long points, int fallen, int team):
    """``Scoreboard.gain``: what the trick is worth to partnership ``team``."""
    cdef long delta
    if board.transformer[winner]:
        delta = 2 * points
    elif fallen & 4:
        delta = 2 * points + board.points[winner] + board.to_come
    else:
        delta = points
    return delta if (winner & 1) == team else -delta


cdef inline double relief(Reliefs* values, Seat* seat, int fallen, int card):
    """``relief_table(...)[card]`` of ``seat`` once the special cards ``fallen`` are in the trick."""
    cdef bint pig = seat.pig_out and not fallen & 1
    cdef bint sheep = seat.sheep_out and not fallen & 2
    cdef double value = values.base[2 * pig + sheep][card]
    cdef int index
    if seat.has_stake and not fallen & 4:
        for index in range(values.n_guards):
            if values.guard_card[index] == card:
                value += values.guard_fraction[index] * <double>seat.stake
    return value


cdef void seat_of(Seat* out, int seat, uint64_t played, uint64_t hand, Board* board):
    """``GongzhuGreedAgent._reliefs``: what decides the reliefs of ``seat`` holding ``hand``."""
    cdef uint64_t gone = played | hand
    out.seat = seat
    out.pig_out = not (gone >> PIG) & 1
    out.sheep_out = not (gone >> SHEEP) & 1
    out.has_stake = not (gone >> TRANSFORMER) & 1
    out.stake = -(board.to_come + board.points[seat])


cdef void follower_of(Follower* out, Seat* info, uint64_t hand, int led, Reliefs* values):
    """``Follower``: the led suit's cards when it holds any, else ``discards``."""
    cdef uint64_t following = hand & C_SUIT_MASKS[led]
    cdef uint64_t chosen = 0, rest
    cdef int best[MAX_SLOTS]
    cdef int fallen, seen = 0, code, slot, card
    out.info = info[0]
    out.follows = following != 0
    if following:
        chosen = following
    else:
        for fallen in range(8):  # each distinct relief table once
            code = ((info.pig_out and not fallen & 1) * 4 + (info.sheep_out and not fallen & 2) * 2
                    + (info.has_stake and not fallen & 4))
            if seen >> code & 1:
                continue
            seen |= 1 << code
            for slot in range(N_SLOTS):
                best[slot] = -1
            rest = hand
            while rest:
                card = ctz64(rest)
                rest &= rest - 1
                slot = KEY_SLOT[card]
                if best[slot] < 0 or relief(values, info, fallen, card) > relief(values, info, fallen, best[slot]):
                    best[slot] = card
            for slot in range(N_SLOTS):
                if best[slot] >= 0:
                    chosen |= (<uint64_t>1) << best[slot]
    out.count = 0
    while chosen:
        out.cards[out.count] = ctz64(chosen)
        out.count += 1
        chosen &= chosen - 1


cdef void finish(Search* search, int k, int best, int winner, long points, int fallen, long* end):
    """``TrickSearch.finish``: ``end`` = (winning seat, points, fallen special cards) once followers ``k``..
    have played greedily to the trick ``winner`` is winning with ``best``."""
    end[0], end[1], end[2] = winner, points, fallen
    if k >= search.count:
        return
    cdef Follower* player = &search.followers[k]
    cdef int team = player.info.seat & 1
    cdef double best_value = -1e18, value
    cdef long found[3]
    cdef int index, card
    for index in range(player.count):
        card = player.cards[index]
        if player.follows and card > best:
            finish(search, k + 1, card, player.info.seat, points + C_POINTS[card], fallen | C_FALLEN[card], found)
        else:
            finish(search, k + 1, best, winner, points + C_POINTS[card], fallen | C_FALLEN[card], found)
        value = <double>gain(search.board, found[0], found[1], <int>found[2], team) + relief(
            search.values, &player.info, <int>found[2], card)
        if value > best_value:
            best_value = value
            end[0], end[1], end[2] = found[0], found[1], found[2]


def trick_values(agent, view, allowed):
    """``gongzhu_greed.trick_values``: each allowed card's mean worth from the trick in progress."""
    cdef _Values table = values_table(agent.config.values)
    cdef Reliefs* values = &table.c
    cdef Board board
    cdef Seat mine
    cdef Seat seats[4]
    cdef Search searches[4]
    cdef bint built[4]
    cdef long ends[MAX_SLOTS][3]
    cdef bint ended[MAX_SLOTS]
    cdef long end[3]
    cdef uint64_t mask, hand = view.hand, played = view.played
    cdef uint64_t hands[4]
    cdef long points = 0, total = 0
    cdef int me = view.seat, team, winner, best = -1, fallen = 0, led = -1, suit, card, seat, count, index
    cdef int n_trick, n_later, samples, n_cards, sample, slot, k
    cdef double totals[52]
    cdef int cards[52]
    team = me & 1
    for seat in range(4):
        mask = view.taken[seat]
        board.points[seat] = 0
        while mask:
            board.points[seat] += C_POINTS[ctz64(mask)]
            mask &= mask - 1
        total += board.points[seat]
        board.transformer[seat] = (view.taken[seat] >> TRANSFORMER) & 1
    board.to_come = floor_div(greed.ALL_SCORING_POINTS - total, 4)
    seat_of(&mine, me, played, hand, &board)
    trick = view.trick
    n_trick = len(trick)
    winner = me
    if n_trick:
        winner, best = trick[0]
        led = best // 13
        for seat, card in trick:
            if card > best and card // 13 == led:
                winner, best = seat, card
            points += C_POINTS[card]
            fallen |= C_FALLEN[card]
    n_later = 3 - n_trick
    samples = agent.config.samples if n_later else 1
    n_cards = len(allowed)
    for index in range(n_cards):
        cards[index] = allowed[index]
        totals[index] = 0.0
    if n_later:
        others = [(me + k) & 3 for k in (1, 2, 3)]
        unseen = FULL_MASK & ~view.hand & ~view.played
        sizes = [view.cards_left[seat] for seat in others]
        forbidden = [sum(SUIT_MASKS[suit] for suit in range(4) if view.voids[seat] >> suit & 1) for seat in others]
    for sample in range(samples):
        if n_later:
            dealt = greed.sample_hidden_hands(unseen, sizes, forbidden, agent.rng)
            for k in range(n_later):
                seat = (me + 1 + k) & 3
                hands[seat] = dealt[k]
                seat_of(&seats[seat], seat, played, hands[seat], &board)
        for suit in range(4):
            built[suit] = False
        for slot in range(N_SLOTS):
            ended[slot] = False
        for index in range(n_cards):
            card = cards[index]
            suit = card // 13
            if not n_trick:
                led = suit
            if not built[led]:
                built[led] = True
                searches[led].board = &board
                searches[led].values = values
                searches[led].count = n_later
                for k in range(n_later):
                    seat = (me + 1 + k) & 3
                    follower_of(&searches[led].followers[k], &seats[seat], hands[seat], led, values)
            if not n_trick or (suit == led and card > best):
                finish(&searches[led], 0, card, me, points + C_POINTS[card], fallen | C_FALLEN[card], end)
            elif suit == led:
                finish(&searches[led], 0, best, winner, points + C_POINTS[card], fallen | C_FALLEN[card], end)
            else:  # a discard: the others see only what ``discard_key`` tells apart
                slot = KEY_SLOT[card]
                if not ended[slot]:
                    ended[slot] = True
                    finish(&searches[led], 0, best, winner, points + C_POINTS[card], fallen | C_FALLEN[card],
                           ends[slot])
                end[0], end[1], end[2] = ends[slot][0], ends[slot][1], ends[slot][2]
            totals[index] += <double>gain(&board, <int>end[0], end[1], <int>end[2], team) + relief(
                values, &mine, <int>end[2], card)
    return {cards[index]: totals[index] / samples for index in range(n_cards)}
