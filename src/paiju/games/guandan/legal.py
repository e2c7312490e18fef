"""Legal GuanDan plays of a hand: every distinct play exactly once (spec "A round", "Combinations").

Leading, a hand may play any combination it can form; following, it may pass, play the same type of a
higher rank, or a stronger bomb (``Play.beats``). A play is concrete cards plus their reading, so every
choice of the wild cards that gives other cards — a wild card standing for a 5 instead of a natural 5 of
any suit — or the same cards read as another type or rank is its own play (rule choices: ``combos``).

Generation works on the structure of the hand, never on its subsets. The hand is a packed set
(``cards.pack``); with the wild cards taken out, its 14 bytes are per-rank profiles (two bits per suit).
A combination is, for each rank it uses, a sub-multiset of that rank's natural cards (a *part*), the
missing cards being wild — at most as many as the hand holds:

- single-rank plays (Single, Pair, Trips, Bombs of 4 to 10 cards) come from a table keyed by (level, wild
  cards held, rank, the rank's profile), each entry computed on first use (about 41,000 keys at most);
- full houses join each rank's trips parts to every other rank's pair parts within the wild budget;
- chains (Straight, ThreePair, TwoTrips, StraightFlush) take, window by window (the ace low or high), the
  sums of one part per rank, grown so that a prefix only meets the parts that fit the wild cards it has
  left; straights combine cached pairs of adjacent places (keyed by the suits held there). A window that
  would need more wild cards than held is skipped first, from a byte per chain position counting the places
  its rank's natural cards fill (summed in C).

A play is its integer key (``combos.play_key``): the sum of its parts' keys, its wild cards' key and its
type and rank code, so plays are made from sums of integers. The list is in generation order: when
following, the pass first, then plays of the followed type, then bombs by rank, straight flushes, the joker
bomb.

``legal_plays`` is the compiled ``_legal_fast.legal_plays`` where it is built (``paiju.native``): the same
plays in the same order. ``reference_legal_plays`` is this module's Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from paiju.games.guandan.cards import BIG_JOKER, JOKER_BYTE, NUM_RANKS, SMALL_JOKER, UNIT, card_index
from paiju.games.guandan.combos import (
    BIG_JOKER_RANK,
    CHAIN_SHAPES,
    JOKER_BOMB_RANK,
    KEY_MARKER,
    MAX_BOMB,
    PASS,
    POSITION_RANK,
    SMALL_JOKER_RANK,
    STRAIGHT_FLUSH_TIER,
    ComboType,
    Play,
    chain_position,
    play_key,
    plays_from_keys,
    power,
)
from paiju.native import fast

_SINGLE, _PAIR, _TRIPS, _BOMB = ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPS, ComboType.BOMB
_FULL_HOUSE, _STRAIGHT, _FLUSH = ComboType.THREE_WITH_TWO, ComboType.STRAIGHT, ComboType.STRAIGHT_FLUSH
_JOKER_BOMB = ComboType.JOKER_BOMB
_TYPE_OF_SIZE = (None, _SINGLE, _PAIR, _TRIPS) + (_BOMB,) * (MAX_BOMB - 3)
_KEY_UNIT = tuple(unit << 8 for unit in UNIT)
"""One card in key space (``play_key``)."""
_NATURALS_PER_RANK = 8


def _fields(byte: int) -> list[int]:
    """The four 2-bit suit counts of a profile byte."""
    return [(byte >> (2 * suit)) & 3 for suit in range(4)]


_COUNT = bytes(sum(_fields(byte)) for byte in range(256))
"""Translation table: profile byte -> number of cards."""
_AT_LEAST = [bytes(int(_COUNT[byte] >= n) for byte in range(256)) for n in range(5)]
"""Translation tables: profile byte -> 1 when it holds at least n cards."""
_HAS_SUIT = [bytes(int((byte >> (2 * suit)) & 3 > 0) for byte in range(256)) for suit in range(4)]
"""Translation tables: profile byte -> 1 when it holds the suit."""


def _sub_bytes(byte: int) -> list[list[int]]:
    """Sub-multisets of a profile byte, by number of cards (0..8)."""
    by_size: list[list[int]] = [[] for _ in range(_NATURALS_PER_RANK + 1)]
    limits = _fields(byte)
    for h in range(limits[0] + 1):
        for s in range(limits[1] + 1):
            for c in range(limits[2] + 1):
                for d in range(limits[3] + 1):
                    by_size[h + s + c + d].append(h | s << 2 | c << 4 | d << 6)
    return by_size


_PARTS: dict[int, list[list[int]]] = {}


def _parts(rank: int, byte: int) -> list[list[int]]:
    """A rank's natural parts by number of cards, in key space: ``_parts(r, b)[n]`` lists the keys of the
    n-card sub-multisets of profile ``b`` at rank ``r``."""
    index = rank << 8 | byte
    parts = _PARTS.get(index)
    if parts is None:
        shift = 8 * rank + 8
        parts = _PARTS[index] = [[sub << shift for sub in subs] for subs in _sub_bytes(byte)]
    return parts


@dataclass(frozen=True, slots=True)
class _RankPlays:
    """The single-rank plays of one rank: singles, pairs, trips, bombs (by size), and all of them."""

    singles: list[Play]
    pairs: list[Play]
    trips: list[Play]
    bombs: list[Play]
    all: list[Play]

    def of_type(self, play_type: ComboType) -> list[Play]:
        """The singles, pairs or trips."""
        return (self.singles, self.pairs, self.trips)[play_type - _SINGLE]


_NO_WILD_TABLES: list[dict[int, _RankPlays]] = [{} for _ in range(NUM_RANKS)]
_RANK_TABLES: list[list[list[dict[int, _RankPlays]]]] = [
    [_NO_WILD_TABLES] + [[{} for _ in range(NUM_RANKS)] for _ in range(2)] for _ in range(NUM_RANKS)]
"""``_RANK_TABLES[level][wild cards held][rank]``: natural profile byte -> ``_RankPlays``. Without a wild card
the plays do not depend on the level: one table serves every level."""


def _rank_plays(rank: int, byte: int, wilds: int, level: int) -> _RankPlays:
    """Single-rank plays of ``rank`` from its natural cards ``byte`` and up to ``wilds`` wild cards. At least
    one card is natural, except the level rank's single wild card and pair of wild cards (the level card
    itself)."""
    entry = _RANK_TABLES[level][wilds][rank].get(byte)
    if entry is not None:
        return entry
    parts = _parts(rank, byte)
    wild_key = _KEY_UNIT[card_index(level, 0)]
    by_size: list[list[int]] = [[] for _ in range(MAX_BOMB + 1)]
    for size in range(1, MAX_BOMB + 1):
        code = KEY_MARKER | _TYPE_OF_SIZE[size] << 4 | rank
        for used in range(min(wilds, size) + 1):
            natural = size - used
            if natural > _NATURALS_PER_RANK or (natural == 0 and not (rank == level and size <= 2)):
                continue
            by_size[size] += [key + used * wild_key + code for key in parts[natural]]
    singles, pairs, trips = plays_from_keys(by_size[1]), plays_from_keys(by_size[2]), plays_from_keys(by_size[3])
    bombs = plays_from_keys([key for size in range(4, MAX_BOMB + 1) for key in by_size[size]])
    entry = _RankPlays(singles, pairs, trips, bombs, singles + pairs + trips + bombs)
    _RANK_TABLES[level][wilds][rank][byte] = entry
    return entry


def _joker_plays(byte: int) -> _RankPlays:
    """Joker singles and pairs (two equal jokers), and the joker bomb (as ``bombs``) from the joker byte."""
    small, big = byte & 3, byte >> 2 & 3
    singles = [play_key(_SINGLE, rank, UNIT[card]) for rank, card, held in
               ((SMALL_JOKER_RANK, SMALL_JOKER, small), (BIG_JOKER_RANK, BIG_JOKER, big)) if held]
    pairs = [play_key(_PAIR, rank, 2 * UNIT[card]) for rank, card, held in
             ((SMALL_JOKER_RANK, SMALL_JOKER, small), (BIG_JOKER_RANK, BIG_JOKER, big)) if held == 2]
    bomb = [play_key(_JOKER_BOMB, JOKER_BOMB_RANK, byte << (8 * JOKER_BYTE))] if small == big == 2 else []
    singles, pairs, bombs = plays_from_keys(singles), plays_from_keys(pairs), plays_from_keys(bomb)
    return _RankPlays(singles, pairs, [], bombs, singles + pairs + bombs)


_JOKERS = [_joker_plays(byte) for byte in range(16)]
_ORDER = [[rank for rank in range(NUM_RANKS) if rank != level] + [level] for level in range(NUM_RANKS)]
_ABOVE = [[[rank for rank in _ORDER[level] if power(rank, level) > floor] for floor in range(-1, 17)]
          for level in range(NUM_RANKS)]
"""``_ABOVE[level][p + 1]``: the ranks 2..A whose ``power`` exceeds p, lowest first."""
_WINDOW_RANKS = [[tuple(POSITION_RANK[p] for p in range(start, start + width)) for start in range(15 - width)]
                 for width in range(6)]
"""``_WINDOW_RANKS[width][start]``: the ranks of a chain window, lowest first."""
_SUIT_KEYS = [[_KEY_UNIT[card_index(rank, suit)] for rank in POSITION_RANK] for suit in range(4)]
"""``_SUIT_KEYS[suit][position]``: the key of the card of that suit at a chain position."""
_FLUSH_KEYS = [{KEY_MARKER | _STRAIGHT << 4 | POSITION_RANK[start]
                 | sum(_KEY_UNIT[card_index(POSITION_RANK[p], suit)] for p in range(start, start + 5))
                 for suit in range(4)} for start in range(10)]
"""The keys of each window's five natural cards of one suit read as a plain straight: not a play (they are
only a straight flush)."""


def legal_plays(hand: int, level: int, follow: Play | None = None) -> list[Play]:
    """Every distinct legal play of ``hand`` (packed, ``cards.pack``) at ``level`` (rank 0..12): any
    combination when leading (``follow`` is ``None`` or a pass), else the pass, the same type of a higher
    rank, and every bomb, straight flush or joker bomb that beats ``follow``."""
    shift = 8 * level
    wilds = (hand >> shift) & 3
    profile = (hand - (wilds << shift)).to_bytes(14, "little")
    if follow is None or follow == PASS:
        return _leads(profile, level, wilds)
    follow_type = follow.type
    plays = [PASS]
    keys: list[int] = []
    bomb_floor = (0, 0)
    if follow_type is _SINGLE or follow_type is _PAIR or follow_type is _TRIPS:
        floor = power(follow.rank, level)
        tables = _RANK_TABLES[level][wilds]
        for rank in _ABOVE[level][floor + 1]:
            byte = profile[rank]
            if byte or rank == level:
                plays += (tables[rank].get(byte) or _rank_plays(rank, byte, wilds, level)).of_type(follow_type)
        if follow_type is not _TRIPS:
            plays += [p for p in _JOKERS[profile[JOKER_BYTE]].of_type(follow_type) if power(p.rank, level) > floor]
    elif follow_type is _FULL_HOUSE:
        _full_house_keys(keys, profile, level, wilds, _ABOVE[level][power(follow.rank, level) + 1])
    elif follow_type is _STRAIGHT:
        _straight_keys(keys, profile, level, wilds, chain_position(follow.rank) + 1, _chain_units(profile)[1])
    elif follow_type is ComboType.THREE_PAIR or follow_type is ComboType.TWO_TRIPS:
        _chain_keys(keys, follow_type, profile, level, wilds, chain_position(follow.rank) + 1,
                    _chain_units(profile))
    else:
        bomb_floor = follow.bomb_strength(level)
    if keys:
        plays += map(Play, keys)
    if follow_type is not _JOKER_BOMB:
        plays += _bombs(profile, level, wilds, bomb_floor)
    return plays


def _leads(profile: bytes, level: int, wilds: int) -> list[Play]:
    """Every combination of the hand."""
    plays: list[Play] = []
    tables = _RANK_TABLES[level][wilds]
    for rank in range(NUM_RANKS):
        byte = profile[rank]
        if byte or rank == level:
            plays += (tables[rank].get(byte) or _rank_plays(rank, byte, wilds, level)).all
    plays += _JOKERS[profile[JOKER_BYTE]].all
    keys: list[int] = []
    _full_house_keys(keys, profile, level, wilds, range(NUM_RANKS))
    units = _chain_units(profile)
    _straight_keys(keys, profile, level, wilds, 0, units[1])
    for play_type in (ComboType.THREE_PAIR, ComboType.TWO_TRIPS):
        _chain_keys(keys, play_type, profile, level, wilds, 0, units)
    _straight_flush_keys(keys, profile, level, wilds, 0)
    plays += map(Play, keys)
    return plays


def _bombs(profile: bytes, level: int, wilds: int, floor: tuple[int, int]) -> list[Play]:
    """Bombs, straight flushes and the joker bomb stronger than ``floor`` (``Play.bomb_strength``)."""
    plays: list[Play] = []
    candidates = profile[:NUM_RANKS].translate(_AT_LEAST[max(2, 4 - wilds)])
    if 1 in candidates:
        tables = _RANK_TABLES[level][wilds]
        for rank in range(NUM_RANKS):
            if candidates[rank]:
                bombs = (tables[rank].get(profile[rank]) or _rank_plays(rank, profile[rank], wilds, level)).bombs
                if floor[0]:
                    strength = power(rank, level)
                    bombs = [bomb for bomb in bombs if (2 * bomb.size, strength) > floor]
                plays += bombs
    tier, order = floor
    if tier <= STRAIGHT_FLUSH_TIER:
        keys: list[int] = []
        _straight_flush_keys(keys, profile, level, wilds, order + 1 if tier == STRAIGHT_FLUSH_TIER else 0)
        plays += map(Play, keys)
    return plays + _JOKERS[profile[JOKER_BYTE]].bombs


def _full_house_keys(keys: list[int], profile: bytes, level: int, wilds: int, trips_ranks: list[int] | range) -> None:
    """Full houses with trips of ``trips_ranks``: each trips part (natural cards + wild cards) with each pair
    part of another rank (natural pair, natural card + wild card, two wild cards, or a joker pair) within
    the wild budget. Two wild cards as the pair are one play whatever rank they stand for."""
    counts = profile.translate(_COUNT)
    wild_key = _KEY_UNIT[card_index(level, 0)]
    pairs: list[int] = []  # natural pairs of every rank, the joker pairs last
    ones: list[int] = []  # natural single cards, each + one wild card
    pair_ends = [0] * (NUM_RANKS + 1)
    one_ends = [0] * (NUM_RANKS + 1)
    for rank in range(NUM_RANKS):
        if counts[rank]:
            parts = _parts(rank, profile[rank])
            pairs += parts[2]
            if wilds:
                ones += parts[1]
        pair_ends[rank + 1] = len(pairs)
        one_ends[rank + 1] = len(ones)
    jokers = profile[JOKER_BYTE]
    if jokers & 3 == 2:
        pairs.append(2 * _KEY_UNIT[SMALL_JOKER])
    if jokers >> 2 == 2:
        pairs.append(2 * _KEY_UNIT[BIG_JOKER])
    if wilds:
        ones = [key + wild_key for key in ones]
    for trips in trips_ranks:
        held = counts[trips]
        if not held or held + wilds < 3:
            continue
        parts = _parts(trips, profile[trips])
        other_pairs = pairs[:pair_ends[trips]] + pairs[pair_ends[trips + 1]:]
        other_ones = ones[:one_ends[trips]] + ones[one_ends[trips + 1]:]
        code = KEY_MARKER | _FULL_HOUSE << 4 | trips
        for used in range(max(0, 3 - held), min(wilds, 2) + 1):
            spare = wilds - used
            for part in parts[3 - used]:
                base = part + used * wild_key + code
                keys += map(base.__add__, other_pairs)
                if spare:
                    keys += map(base.__add__, other_ones)
                if spare == 2:
                    keys.append(base + 2 * wild_key)


_UP_TO = [bytes(min(_COUNT[byte], n) for byte in range(256)) for n in range(4)]
"""Translation tables: profile byte -> its number of cards, at most n."""


def _chain_units(profile: bytes) -> list[bytes]:
    """Per n = 0..3, one byte per chain position (the ace at positions 0 and 13): how many of the n places
    of that rank its natural cards fill. A window needs as many wild cards as places its bytes leave."""
    ranks = profile[:NUM_RANKS]
    return [b""] + [ranks[-1:].translate(_UP_TO[n]) + ranks.translate(_UP_TO[n]) for n in (1, 2, 3)]


_SUITS_HELD = bytes(sum(1 << suit for suit in range(4) if (byte >> (2 * suit)) & 3) for byte in range(256))
"""Translation table: profile byte -> 4-bit mask of the suits it holds."""
_SINGLES = [[[_KEY_UNIT[card_index(rank, suit)] for suit in range(4) if suits >> suit & 1] for suits in range(16)]
            for rank in range(NUM_RANKS)]
"""``_SINGLES[rank][suits]``: the keys of one card of each held suit."""
_STRAIGHT_PAIRS: dict[int, tuple[list[int], list[int]]] = {}


def _straight_pair(position: int, suits: bytes) -> tuple[list[int], list[int]]:
    """Two adjacent places of a straight (positions p, p + 1): the keys of their natural cards when both are
    natural, and when one of them is a wild card; keyed by the suits held at both ranks (13 x 256 keys)."""
    low, high = POSITION_RANK[position], POSITION_RANK[position + 1]
    index = position << 8 | suits[low] << 4 | suits[high]
    pair = _STRAIGHT_PAIRS.get(index)
    if pair is None:
        lows, highs = _SINGLES[low][suits[low]], _SINGLES[high][suits[high]]
        pair = _STRAIGHT_PAIRS[index] = ([a + b for a in lows for b in highs], lows + highs)
    return pair


def _straight_keys(keys: list[int], profile: bytes, level: int, wilds: int, first_start: int,
                   held: bytes) -> None:
    """Straights starting at position ``first_start`` or later. A window's five places are two cached pairs
    and a last card, combined group by group of wild cards used (no wasted sums); the wild cards' key is
    added with the last card. Five natural cards of one suit are left to the straight flushes."""
    suits = profile.translate(_SUITS_HELD)
    wild_key = _KEY_UNIT[card_index(level, 0)]
    for start in range(first_start, 10):
        if sum(held[start:start + 5]) + wilds < 5:
            continue
        first = _STRAIGHT_PAIRS.get(start << 8 | suits[POSITION_RANK[start]] << 4 | suits[start]) \
            or _straight_pair(start, suits)
        second = _STRAIGHT_PAIRS.get((start + 2) << 8 | suits[start + 1] << 4 | suits[start + 2]) \
            or _straight_pair(start + 2, suits)
        last_rank = POSITION_RANK[start + 4]
        code = KEY_MARKER | _STRAIGHT << 4 | POSITION_RANK[start]
        lasts = [code + card for card in _SINGLES[last_rank][suits[last_rank]]]  # the last place natural
        four = [a + b for a in first[0] for b in second[0]]  # the first four places without a wild card
        natural = [x + y for x in four for y in lasts]
        if not _FLUSH_KEYS[start].isdisjoint(natural):
            natural = [key for key in natural if key not in _FLUSH_KEYS[start]]
        keys += natural
        if not wilds:
            continue
        keys += map((code + wild_key).__add__, four)  # the last place wild
        one = [a + b for a in first[0] for b in second[1]] + [a + b for a in first[1] for b in second[0]]
        lasts = [last + wild_key for last in lasts]
        keys += [x + y for x in one for y in lasts]
        if wilds == 2:
            keys += map((code + 2 * wild_key).__add__, one)
            two = first[0] + second[0] + [a + b for a in first[1] for b in second[1]]  # one pair all wild
            lasts = [last + wild_key for last in lasts]
            keys += [x + y for x in two for y in lasts]


_COUNTER_SHIFT = 128
_COUNTER = 1 << _COUNTER_SHIFT
"""A wild card in a chain under construction counts here, above the key's bits; with the last rank each count
becomes that many wild cards (the wild card's key)."""
_FITTING: dict[int, list[list[int]]] = {}
_LASTS: dict[int, list[list[int]]] = {}


def _fitting(copies: int, rank: int, byte: int, wilds: int) -> list[list[int]]:
    """The ways one rank fills ``copies`` places of a chain after a prefix that used w of ``wilds`` wild
    cards: ``_fitting(...)[w]`` lists natural parts of ``copies - u`` cards plus u counted wild cards,
    u <= wilds - w."""
    index = copies << 14 | wilds << 12 | rank << 8 | byte
    fitting = _FITTING.get(index)
    if fitting is None:
        parts = _parts(rank, byte)
        fitting = _FITTING[index] = [[part + used * _COUNTER for used in range(min(copies, wilds - prefix) + 1)
                                      for part in parts[copies - used]] for prefix in range(wilds + 1)]
    return fitting


def _lasts(copies: int, rank: int, byte: int, wilds: int, level: int) -> list[list[int]]:
    """``_fitting`` for the last rank of a chain, each count of wild cards (the prefix's w and the part's u)
    turned into the wild card's key."""
    index = level << 16 | copies << 14 | wilds << 12 | rank << 8 | byte
    lasts = _LASTS.get(index)
    if lasts is None:
        delta = _KEY_UNIT[card_index(level, 0)] - _COUNTER
        lasts = _LASTS[index] = [[option + ((option >> _COUNTER_SHIFT) + prefix) * delta for option in options]
                                 for prefix, options in enumerate(_fitting(copies, rank, byte, wilds))]
    return lasts


def _chain_keys(keys: list[int], play_type: ComboType, profile: bytes, level: int, wilds: int,
                first_start: int, units: list[bytes]) -> None:
    """Tubes (ThreePair) or plates (TwoTrips) starting at position ``first_start`` or later: per window, the
    sums of one part per rank (``copies - w`` natural cards, w wild cards), at most ``wilds`` wild cards in
    all. Each prefix meets only the next rank's parts that fit the wild cards it has left (chosen by its
    count), so no sum is made to be dropped; the last rank's parts carry the wild cards' key."""
    width, copies = CHAIN_SHAPES[play_type]
    filled = units[copies]
    for start in range(first_start, 15 - width):
        if width * copies - sum(filled[start:start + width]) > wilds:
            continue
        ranks = _WINDOW_RANKS[width][start]
        code = KEY_MARKER | play_type << 4 | ranks[0]
        if not wilds:
            sums = [code + part for part in _parts(ranks[0], profile[ranks[0]])[copies]]
            for rank in ranks[1:]:
                options = _parts(rank, profile[rank])[copies]
                sums = [prefix + option for prefix in sums for option in options]
            keys += sums
            continue
        sums = [code + option for option in _fitting(copies, ranks[0], profile[ranks[0]], wilds)[0]]
        for rank in ranks[1:-1]:
            fitting = _fitting(copies, rank, profile[rank], wilds)
            sums = [prefix + option for prefix in sums for option in fitting[prefix >> _COUNTER_SHIFT]]
        lasts = _lasts(copies, ranks[-1], profile[ranks[-1]], wilds, level)
        keys += [prefix + option for prefix in sums for option in lasts[prefix >> _COUNTER_SHIFT]]


def _straight_flush_keys(keys: list[int], profile: bytes, level: int, wilds: int, first_start: int) -> None:
    """Straight flushes starting at position ``first_start`` or later: per suit and window, the suit's natural
    cards there, any of them (and each missing one) replaced by wild cards within the budget."""
    wild_key = _KEY_UNIT[card_index(level, 0)]
    for suit in range(4):
        held = profile[:NUM_RANKS].translate(_HAS_SUIT[suit])
        if held.count(1) + wilds < 5:
            continue
        held = held[-1:] + held  # by chain position, the ace at 0 and 13
        for start in range(first_start, 10):
            if sum(held[start:start + 5]) + wilds < 5:
                continue
            present = [_SUIT_KEYS[suit][p] for p in range(start, start + 5) if held[p]]
            code = KEY_MARKER | _FLUSH << 4 | POSITION_RANK[start]
            for kept in range(len(present), 4 - wilds, -1):
                base = (5 - kept) * wild_key + code
                keys += [base + sum(cards) for cards in combinations(present, kept)]


reference_legal_plays = legal_plays
legal_plays = fast("paiju.games.guandan._legal_fast", "legal_plays", legal_plays)
