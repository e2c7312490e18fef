"""Compiled play scoring of the DouDizhu ``rules`` bot: ``doudizhu.play_scores``.

Every legal play is read once into a C struct (category, main rank, length, size, 15 rank counts); the
seat's hand and the unseen pool (``counting.unseen_cards``) are count arrays, the weights (``PlayConfig``)
C doubles. The kicker filter (``_candidates``), the scores (``_PlayJudge.score``, with ``can_beat``) and the
minimum steps (the compiled oracle, ``_min_steps_fast``, called in C) then run without Python objects
except the plan of a play that may win out (``decompose``'s moves). Every score adds the same terms in the
same order as the reference, so the floats and the decisions are identical.
"""

from libc.stdlib cimport free, malloc

from paiju.games.doudizhu._constants cimport *
from paiju.games.doudizhu._min_steps_fast cimport Hand, Oracle, oracle_for, read_hand


cdef double FINISH = 1000.0  # ``doudizhu.FINISH``
cdef double SURE_WIN = 500.0  # ``doudizhu.SURE_WIN``

# Kicker categories (``counting._KICKERS``): cards of the main part per rank, kicker units per main rank,
# cards per kicker unit; indexed by category (0: no kickers).
cdef int[15] MAIN_COPIES = [0, 0, 0, 0, 3, 3, 0, 0, 0, 3, 3, 4, 4, 0, 0]
cdef int[15] KICKER_UNITS = [0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 2, 2, 0, 0]
cdef int[15] UNIT_CARDS = [0, 0, 0, 0, 1, 2, 0, 0, 0, 1, 2, 1, 2, 0, 0]


def mirrored_constants():
    """The compiled values of the constants that restate the Python modules' (``doudizhu.FINISH``,
    ``doudizhu.SURE_WIN``, ``counting._KICKERS``), for ``tests/native/test_constants.py``."""
    return {"FINISH": FINISH, "SURE_WIN": SURE_WIN, "MAIN_COPIES": [MAIN_COPIES[i] for i in range(15)],
            "KICKER_UNITS": [KICKER_UNITS[i] for i in range(15)], "UNIT_CARDS": [UNIT_CARDS[i] for i in range(15)]}


cdef struct Play:
    int category
    int rank
    int length
    int size
    int counts[NUM_RANKS]


cdef struct Cost:
    # ``_candidates``' order of kicker choices: groups broken, card cost, rank sum; then legal order.
    int group
    int broken
    double cards
    int ranks
    int index


cdef struct Weights:
    double step
    double card_cost[NUM_RANKS]
    double bomb_cost, lead_rank, lead_size, partner_pass, opponent_pass, urgent_pass, pressing_pass
    double danger_cards, pressing_cards, lead_into_danger, block_rank, feed_partner, winning_bomb


cdef int read_play(object move, Play* play) except -1:
    cdef tuple counts = move.counts
    cdef int rank
    play.category, play.rank, play.length, play.size = move.category, move.rank, move.length, 0
    for rank in range(NUM_RANKS):
        play.counts[rank] = counts[rank]
        play.size += play.counts[rank]
    return 0


cdef inline bint is_chain(int category) noexcept:
    return SOLO_CHAIN <= category <= PLANE


cdef inline int top_rank(Play* play) noexcept:
    """``_top_rank``: a chain's highest rank, else the main rank."""
    return play.rank + play.length - 1 if is_chain(play.category) else play.rank


cdef bint can_beat(int* pool, Play* move, int most_cards) noexcept:
    """``counting.can_beat``: whether at most ``most_cards`` cards of ``pool`` could beat ``move``."""
    cdef int rank, low, copies, top, run, units, length = move.length, category = move.category
    if category == ROCKET:
        return False
    if most_cards >= 2 and pool[SMALL_JOKER] and pool[BIG_JOKER]:
        return True
    if most_cards >= 4:
        for rank in range(move.rank + 1 if category == BOMB else 0, SMALL_JOKER):
            if pool[rank] == 4:
                return True
    if category == BOMB or move.size > most_cards:
        return False
    if category <= TRIO:  # solo, pair, trio
        for rank in range(move.rank + 1, NUM_RANKS if category == SOLO else TWO + 1):
            if pool[rank] >= category:
                return True
        return False
    if is_chain(category):  # ``_window_above``
        copies, run = category - SOLO_CHAIN + 1, 0
        for rank in range(TOP_CHAIN + 1):
            run = run + 1 if pool[rank] >= copies else 0
            if run >= length and rank - length + 1 > move.rank:
                return True
        return False
    top = TWO if length == 1 else TOP_CHAIN
    for low in range(move.rank + 1, top - length + 2):
        for rank in range(low, low + length):
            if pool[rank] < MAIN_COPIES[category]:
                break
        else:
            units = 0
            for rank in range(NUM_RANKS):
                if not low <= rank < low + length and (UNIT_CARDS[category] == 1 or rank < SMALL_JOKER):
                    units += pool[rank] // UNIT_CARDS[category]
            if units >= KICKER_UNITS[category] * length:
                return True
    return False


cdef bint cost_before(Cost* a, Cost* b) noexcept:
    if a.broken != b.broken:
        return a.broken < b.broken
    if a.cards != b.cards:
        return a.cards < b.cards
    if a.ranks != b.ranks:
        return a.ranks < b.ranks
    return a.index < b.index


cdef int candidates(Play* plays, int count, int* hand, Weights* weights, int variants, int* kept) except -1:
    """``_candidates``: the indices of the plays kept, in its order; returns how many."""
    cdef Cost* costs = <Cost*>malloc(max(count, 1) * sizeof(Cost))
    cdef int* group_keys = <int*>malloc(max(count, 1) * sizeof(int))
    cdef int groups = 0, kicked = 0, found = 0, i, j, g, rank, n, copies, key, taken
    cdef Cost chosen
    cdef Play* play
    if not costs or not group_keys:
        free(costs)
        free(group_keys)
        raise MemoryError()
    for i in range(count):
        play = &plays[i]
        copies = MAIN_COPIES[play.category]
        if not copies:
            kept[found] = i
            found += 1
            continue
        key = (play.category * 16 + play.rank) * 16 + play.length
        for g in range(groups):
            if group_keys[g] == key:
                break
        else:
            g = groups
            group_keys[groups] = key
            groups += 1
        chosen.group, chosen.broken, chosen.cards, chosen.ranks, chosen.index = g, 0, 0.0, 0, i
        for rank in range(NUM_RANKS):
            n = play.counts[rank] - (copies if play.rank <= rank < play.rank + play.length else 0)
            if play.counts[rank] and n > 0:
                chosen.broken += hand[rank] > n
                chosen.cards += n * weights.card_cost[rank]
                chosen.ranks += n * rank
        j = kicked  # insertion: by group, then cost, then legal order
        while j > 0 and (costs[j - 1].group > g
                         or (costs[j - 1].group == g and cost_before(&chosen, &costs[j - 1]))):
            costs[j] = costs[j - 1]
            j -= 1
        costs[j] = chosen
        kicked += 1
    taken = 0
    for i in range(kicked):
        taken = taken + 1 if i and costs[i].group == costs[i - 1].group else 1
        if taken <= variants:
            kept[found] = costs[i].index
            found += 1
    free(costs)
    free(group_keys)
    return found


cdef class Judge:
    """``_PlayJudge``: one seat's observation, read once into C."""

    cdef Oracle oracle
    cdef Weights w
    cdef int hand[NUM_RANKS]
    cdef int pool[NUM_RANKS]
    cdef int cards_left[3]
    cdef int opponents[2]
    cdef int num_opponents, partner, steps, opponent_most
    cdef bint leading, partner_played, must_block
    cdef Play follow

    cdef int read(self, object obs, object config) except -1:
        cdef int rank, seat, landlord, me = obs.seat
        cdef object played = 0
        cdef bytes gone
        cdef Weights* w = &self.w
        assert obs.landlord is not None
        landlord = obs.landlord
        self.oracle = oracle_for(obs.rules)
        w.step, w.bomb_cost, w.lead_rank, w.lead_size = config.step, config.bomb_cost, config.lead_rank, config.lead_size
        w.partner_pass, w.opponent_pass = config.partner_pass, config.opponent_pass
        w.urgent_pass, w.pressing_pass = config.urgent_pass, config.pressing_pass
        w.danger_cards, w.pressing_cards = config.danger_cards, config.pressing_cards
        w.lead_into_danger, w.block_rank = config.lead_into_danger, config.block_rank
        w.feed_partner, w.winning_bomb = config.feed_partner, config.winning_bomb
        for rank in range(NUM_RANKS):
            w.card_cost[rank] = config.card_cost[rank]
        hand = obs.hand
        self.steps = self.oracle.steps(read_hand(hand))
        for _, move in obs.history:
            played = played + move.packed
        gone = played.to_bytes(NUM_RANKS, "little")
        for rank in range(NUM_RANKS):
            self.hand[rank] = hand[rank]
            self.pool[rank] = (4 if rank < SMALL_JOKER else 1) - self.hand[rank] - <int>gone[rank]
        self.partner = -1 if me == landlord else 3 - me - landlord
        self.num_opponents = 0
        self.opponent_most = 0
        for seat in range(3):
            self.cards_left[seat] = obs.cards_left[seat]
            if seat != me and seat != self.partner:
                self.opponents[self.num_opponents] = seat
                self.num_opponents += 1
                self.opponent_most = max(self.opponent_most, self.cards_left[seat])
        follow = obs.follow
        self.leading = follow is None
        self.partner_played = not self.leading and obs.follow_seat == self.partner
        self.must_block = False
        if not self.leading:  # ``_must_block``: the next seat, an opponent about to go out, could beat it
            read_play(follow, &self.follow)
            seat = (me + 1) % 3
            self.must_block = (seat != self.partner and self.cards_left[seat] <= w.danger_cards
                               and can_beat(self.pool, &self.follow, self.cards_left[seat]))
        return 0

    cdef double pass_value(self) noexcept:
        cdef int fewest = 1 << 30, i
        if self.partner_played:
            if self.must_block:
                return 0.0
            return FINISH / 2 if self.cards_left[self.partner] <= self.w.danger_cards else self.w.partner_pass
        for i in range(self.num_opponents):
            fewest = min(fewest, self.cards_left[self.opponents[i]])
        if fewest <= self.w.danger_cards:
            return self.w.urgent_pass
        if fewest <= self.w.pressing_cards:
            return self.w.pressing_pass
        return self.w.opponent_pass

    cdef double score(self, Play* move) except? -1.0:
        cdef int after[NUM_RANKS]
        cdef int rank, steps_after
        cdef bint empty = True
        cdef Hand rest = 0
        cdef double value
        if move.category == 0:
            return self.pass_value()
        for rank in range(NUM_RANKS):
            after[rank] = self.hand[rank] - move.counts[rank]
            empty = empty and not after[rank]
            if after[rank] < 0:  # not held: the reference's CardError
                read_hand(tuple([after[r] for r in range(NUM_RANKS)]))
            rest |= <Hand>after[rank] << (3 * rank)
        if empty:
            return FINISH
        steps_after = self.oracle.steps(rest)
        value = self.w.step * (self.steps - steps_after) - self.spending(move)
        value += self.lead_terms(move) if self.leading else self.follow_terms(move)
        if steps_after <= 3 and self.wins_out(move, rest):
            value += SURE_WIN + (self.w.winning_bomb if move.category >= BOMB else 0.0)
        return value

    cdef double spending(self, Play* move) noexcept:
        """``_spending``: card costs, plus ``bomb_cost`` per bomb played or broken, half for the rocket split."""
        cdef double cost = 0.0
        cdef int rank, broken = 0
        for rank in range(NUM_RANKS):
            if move.counts[rank]:
                cost += move.counts[rank] * self.w.card_cost[rank]
        if move.category >= BOMB:
            return cost + self.w.bomb_cost
        for rank in range(NUM_RANKS):
            broken += move.counts[rank] and self.hand[rank] == 4
        cost += self.w.bomb_cost * broken
        if self.hand[SMALL_JOKER] and self.hand[BIG_JOKER] and (move.counts[SMALL_JOKER] or move.counts[BIG_JOKER]):
            cost += self.w.bomb_cost / 2
        return cost

    cdef double lead_terms(self, Play* move) noexcept:
        cdef double value = self.w.lead_size * move.size - self.w.lead_rank * top_rank(move)
        cdef int i, held
        for i in range(self.num_opponents):
            held = self.cards_left[self.opponents[i]]
            if held <= self.w.danger_cards and move.size == held and can_beat(self.pool, move, held):
                value -= self.w.lead_into_danger - self.w.block_rank * top_rank(move)
        if self.partner >= 0:
            held = self.cards_left[self.partner]
            if held <= self.w.danger_cards and move.size == held and (move.category == SOLO or move.category == PAIR):
                value += self.w.feed_partner - move.rank
        return value

    cdef double follow_terms(self, Play* move) noexcept:
        if self.must_block and move.category == self.follow.category:
            return self.w.block_rank * move.rank
        return 0.0

    cdef int wins_out(self, Play* move, Hand rest) except -1:
        """No opponent can beat ``move``, and at most one play of the rest's plan can be beaten."""
        cdef Play play
        cdef int beatable = 0
        if can_beat(self.pool, move, self.opponent_most):
            return False
        for planned in self.oracle.plan(rest):
            read_play(planned, &play)
            beatable += can_beat(self.pool, &play, self.opponent_most)
        return beatable <= 1


def play_scores(observation, legal, config):
    """The candidate plays (``_candidates``, in order) and their scores."""
    cdef Judge judge = Judge()
    cdef int count = len(legal), found, i
    cdef Play* plays = <Play*>malloc(max(count, 1) * sizeof(Play))
    cdef int* kept = <int*>malloc(max(count, 1) * sizeof(int))
    cdef list moves = [], scores = []
    if not plays or not kept:
        free(plays)
        free(kept)
        raise MemoryError()
    try:
        judge.read(observation, config)
        for i in range(count):
            read_play(legal[i], &plays[i])
        found = candidates(plays, count, judge.hand, &judge.w, config.kicker_variants, kept)
        for i in range(found):
            moves.append(legal[kept[i]])
            scores.append(judge.score(&plays[kept[i]]))
    finally:
        free(plays)
        free(kept)
    return moves, scores
