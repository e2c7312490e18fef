"""Legal GuanDan plays against a slow brute-force enumerator, the spec's cases, and the JSON oracle.

The enumerator below is written apart from the engine on purpose: it takes every sub-multiset of a hand,
tries every card (each of the 52 suited cards) for each of its wild cards, classifies only *natural* card
sets, and compares plays with its own ordering table.
"""

import itertools
import json
import random
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games.guandan import PASS, ComboType, interpretations, legal_plays, pack, parse_cards, parse_level
from paiju.games.guandan.cards import DECK
from paiju.games.guandan.combos import play_from_platform
from paiju.games.guandan.oracle import answer

# -- the brute-force reference -------------------------------------------------------------------------

ACE = 12
TYPE_NAMES = ("PASS", "Single", "Pair", "Trips", "ThreeWithTwo", "Straight", "ThreePair", "TwoTrips", "Bomb",
              "StraightFlush", "JokerBomb")


def rank_of(card: int) -> int:
    return card // 4 if card < 52 else card - 39


@cache
def natural_readings(cards: tuple[int, ...]) -> frozenset[tuple[str, int]]:
    """(type, rank) readings of concrete cards, none of them wild; a chain's rank is its lowest card's."""
    size = len(cards)
    ranks = Counter(rank_of(card) for card in cards)
    found = set()
    if len(ranks) == 1:
        (rank, _), = ranks.items()
        if size <= 2:
            found.add((("Single", "Pair")[size - 1], rank))
        elif rank < 13:
            found.add(("Trips", rank) if size == 3 else ("Bomb", rank))
    if sorted(cards) == [52, 52, 53, 53]:
        found.add(("JokerBomb", 15))
    if size == 5 and sorted(ranks.values()) == [2, 3]:
        trips = next(r for r, n in ranks.items() if n == 3)
        if trips < 13:
            found.add(("ThreeWithTwo", trips))
    if any(card >= 52 for card in cards):
        return frozenset(found)
    for width, copies, name in ((5, 1, "Straight"), (3, 2, "ThreePair"), (2, 3, "TwoTrips")):
        if size == width * copies and all(n == copies for n in ranks.values()):
            flush = name == "Straight" and len({card % 4 for card in cards}) == 1
            for low in range(-1, 14 - width):  # -1: the ace low
                window = [ACE if r == -1 else r for r in range(low, low + width)]
                if sorted(window) == sorted(ranks):
                    found.add(("StraightFlush" if flush else name, window[0]))
    return frozenset(found)


def readings(cards: tuple[int, ...], level: int) -> set[tuple[str, int]]:
    """Readings of cards that may hold wild cards: the union over every choice of the wild cards; wild
    cards alone are the level card."""
    wild = 4 * level
    naturals = tuple(card for card in cards if card != wild)
    wilds = len(cards) - len(naturals)
    if not naturals:
        return {(("Single", "Pair")[wilds - 1], level)} if wilds else set()
    found: set[tuple[str, int]] = set()
    for stand_ins in itertools.combinations_with_replacement(range(52), wilds):
        found |= natural_readings(tuple(sorted(naturals + stand_ins)))
    return found


def sub_multisets(hand: list[int]):
    counts = Counter(hand)
    cards = sorted(counts)
    for choice in itertools.product(*(range(counts[card] + 1) for card in cards)):
        sub = tuple(card for card, n in zip(cards, choice, strict=True) for _ in range(n))
        if 0 < len(sub) <= 10:
            yield sub


def strength(play: tuple[str, int, tuple[int, ...]], level: int) -> tuple[int, int, int]:
    """(bomb?, class, order): non-bombs compare only within a type; bombs by tier — 4 cards 40, 5 cards
    50, straight flush 55, 6 cards 60, ..., joker bomb 1000."""
    name, rank, cards = play
    single_order = [r for r in range(13) if r != level] + [level, 13, 14]
    chain_order = -1 if rank == ACE else rank
    if name == "Bomb":
        return (1, 10 * len(cards), single_order.index(rank))
    if name == "StraightFlush":
        return (1, 55, chain_order)
    if name == "JokerBomb":
        return (1, 1000, 0)
    if name in ("Straight", "ThreePair", "TwoTrips"):
        return (0, TYPE_NAMES.index(name), chain_order)
    return (0, TYPE_NAMES.index(name), single_order.index(rank))


def beats(play, other, level: int) -> bool:
    mine, theirs = strength(play, level), strength(other, level)
    if mine[0] or theirs[0]:
        return mine[0] == 1 and (theirs[0] == 0 or mine[1:] > theirs[1:])
    return mine[1] == theirs[1] and mine[2] > theirs[2]


def brute_force_plays(hand: list[int], level: int, follow=None) -> set[tuple[str, int, tuple[int, ...]]]:
    """Every (type, rank, cards) the hand may play: any reading leading (``follow`` None), else the pass and
    the readings that beat ``follow``."""
    plays = {(name, rank, sub) for sub in sub_multisets(hand) for name, rank in readings(sub, level)
             if follow is None or beats((name, rank, sub), follow, level)}
    if follow is not None:
        plays.add(("PASS", -1, ()))
    return plays


def identity(play) -> tuple[str, int, tuple[int, ...]]:
    """A play as the reference writes it."""
    name = "JokerBomb" if play.type is ComboType.JOKER_BOMB else TYPE_NAMES[play.type]
    return (name, play.rank, play.cards)


def generated(hand: list[int], level: int, follow=None) -> set[tuple[str, int, tuple[int, ...]]]:
    plays = legal_plays(pack(hand), level, follow)
    identities = [identity(play) for play in plays]
    assert len(identities) == len(set(identities)), "each distinct play exactly once"
    return set(identities)


@st.composite
def small_hands(draw, max_size: int = 8):
    """A small hand dense in combinations: cards of five consecutive positions (the ace low or high) and of
    the level rank, in one to three suits, the jokers, and 0, 1 or 2 wild cards."""
    level = draw(st.integers(0, 12))
    low = draw(st.integers(-1, 8))
    ranks = [ACE if r == -1 else r for r in range(low, low + 5)] + [level]
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    wilds = draw(st.integers(0, 2))
    pool = [*sorted({4 * rank + suit for rank in ranks for suit in suits} - {4 * level}), 52, 53]
    hand = [4 * level] * wilds
    for card in draw(st.lists(st.sampled_from(pool), max_size=max_size - wilds)):
        if hand.count(card) < 2:
            hand.append(card)
    return sorted(hand), level


# -- legal plays against the reference ---------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(small_hands())
def test_leads_match_brute_force(hand_level):
    hand, level = hand_level
    assert generated(hand, level) == brute_force_plays(hand, level)


@settings(max_examples=120, deadline=None)
@given(small_hands(), small_hands(max_size=10), st.randoms(use_true_random=False))
def test_follows_match_brute_force(hand_level, other_level, rng):
    hand, level = hand_level
    leads = legal_plays(pack(other_level[0]), level)
    if not leads:
        return
    follow = rng.choice(leads)
    assert generated(hand, level, follow) == brute_force_plays(hand, level, identity(follow))


@settings(max_examples=300, deadline=None)
@given(small_hands(max_size=10))
def test_interpretations_match_brute_force(cards_level):
    cards, level = cards_level
    assert {(identity(p)[0], p.rank) for p in interpretations(cards, level)} == readings(tuple(cards), level)


@settings(max_examples=25, deadline=None)
@given(small_hands(max_size=13))
def test_leads_are_every_reading_of_every_sub_multiset(hand_level):
    hand, level = hand_level
    expected = {identity(play) for sub in sub_multisets(hand) for play in interpretations(sub, level)}
    assert generated(hand, level) == expected


@pytest.mark.parametrize("seed", range(6))
def test_fresh_hands_are_consistent(seed):
    """Full 27-card hands: no duplicates, every play held and read as it says, and following keeps exactly
    the plays that beat the play to beat."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    level = rng.randrange(13)
    if seed % 2:  # both wild cards
        deck = [4 * level] * 2 + [card for card in deck if card != 4 * level]
    hand = sorted(deck[:27])
    leads = legal_plays(pack(hand), level)
    assert len(set(leads)) == len(leads)
    held = Counter(hand)
    for play in leads:
        assert not Counter(play.cards) - held
        assert play in interpretations(play.cards, level)
    for follow in rng.sample(legal_plays(pack(deck[27:54]), level), 20):
        follows = legal_plays(pack(hand), level, follow)
        assert follows[0] == PASS
        assert set(follows[1:]) == {play for play in leads if play.beats(follow, level)}


def sized_sub_multisets(cards: list[int], size: int) -> set[tuple[int, ...]]:
    return set(itertools.combinations(sorted(cards), size))


@pytest.mark.parametrize("seed", range(12))
def test_full_hands_match_the_readings_of_their_rank_groups(seed):
    """27-card hands, complete: every play uses the cards of at most five ranks (a window, trips + pair, one
    rank) and the wild cards, so reading every sub-multiset of each such group finds every play."""
    rng = random.Random(100 + seed)
    level = rng.randrange(13)
    deck = list(DECK)
    rng.shuffle(deck)
    if seed % 2:
        deck = [4 * level] * 2 + [card for card in deck if card != 4 * level]
    hand = sorted(deck[:27])
    wilds = [card for card in hand if card == 4 * level]
    by_rank = {rank: [card for card in hand if rank_of(card) == rank and card != 4 * level] for rank in range(15)}
    groups = [(by_rank[rank] + wilds, range(1, 11)) for rank in range(15)]
    groups += [(by_rank[t] + by_rank[p] + wilds, [5]) for t in range(13) for p in range(15) if p != t]
    for width, size in ((5, 5), (3, 6), (2, 6)):
        for low in range(-1, 14 - width):
            ranks = {ACE if r == -1 else r for r in range(low, low + width)}
            groups.append(([card for rank in ranks for card in by_rank[rank]] + wilds, [size]))
    expected = {play for cards, sizes in groups for size in sizes for sub in sized_sub_multisets(cards, size)
                for play in interpretations(sub, level)}
    expected |= set(interpretations(by_rank[13] + by_rank[14], level))  # the joker bomb
    assert set(legal_plays(pack(hand), level)) == expected


# -- the spec's cases ------------------------------------------------------------------------------------


def platform_legal(hand: str, level: str, last=None) -> list:
    return answer(json.dumps({"hand": hand.split(), "level": level, "last": last}))["legal"]


def test_platform_manual_example_level_9_beat_a_four_card_bomb_of_aces():
    """At level 9 the level card ranks above the ace, so the four 9s beat four aces; four 2s do not, but
    the wild heart 9 makes them five."""
    legal = platform_legal("S9 C9 D9 H9 S2 C2 D2 H2 SK", "9", ["Bomb", "A", ["HA", "SA", "CA", "DA"]])
    assert legal == [["PASS", "PASS", "PASS"], ["Bomb", "9", ["H9", "S9", "C9", "D9"]],
                     ["Bomb", "2", ["H2", "S2", "C2", "D2", "H9"]]]


def test_wild_card_straights_are_distinct_plays():
    legal = platform_legal("S3 D4 S5 D5 S6 H7", "7")
    straights = [play for play in legal if play[0] == "Straight"]
    assert ["Straight", "3", ["S3", "D4", "S5", "S6", "H7"]] in straights  # the wild card as the 7 (itself)
    assert ["Straight", "3", ["S3", "D4", "D5", "S6", "H7"]] in straights
    assert ["Straight", "2", ["S3", "D4", "S5", "S6", "H7"]] in straights  # ... or as a 2
    assert ["Straight", "A", ["S3", "D4", "S5", "H7"]] not in straights  # four cards are no straight
    assert len(straights) == 2 * 2  # windows 2-6 and 3-7 with either 5; A-5 needs two wild cards
    assert ["Pair", "5", ["S5", "D5"]] in legal and ["Pair", "5", ["S5", "H7"]] in legal
    assert ["Single", "7", ["H7"]] in legal and ["Single", "3", ["H7"]] not in legal


def test_wild_cards_make_a_straight_and_a_straight_flush_of_the_same_cards():
    legal = platform_legal("S3 S4 S5 S6 H7", "7")
    assert ["Straight", "3", ["S3", "S4", "S5", "S6", "H7"]] in legal
    assert ["StraightFlush", "3", ["S3", "S4", "S5", "S6", "H7"]] in legal
    natural = platform_legal("S3 S4 S5 S6 S7", "9")
    assert ["StraightFlush", "3", ["S3", "S4", "S5", "S6", "S7"]] in natural
    assert not [play for play in natural if play[0] == "Straight"]


def test_bombs_up_to_ten_cards():
    legal = platform_legal("S5 S5 H5 H5 C5 C5 D5 D5 H7 H7", "7")
    sizes = Counter(len(play[2]) for play in legal if play[0] == "Bomb")
    assert max(sizes) == 10 and sizes[10] == 1
    assert ["Bomb", "5", ["H5", "H5", "S5", "S5", "C5", "C5", "D5", "D5", "H7", "H7"]] in legal


def test_following_a_straight_flush():
    hand = "S3 S3 C3 C3 D3 D3 H4 H4 C4 C4 D4 S5 S6 S7 S8 S9"
    legal = platform_legal(hand, "2", ["StraightFlush", "4", ["D4", "D5", "D6", "D7", "D8"]])
    kinds = {(play[0], play[1], len(play[2])) for play in legal}
    assert ("Bomb", "3", 6) in kinds and ("Bomb", "4", 5) not in kinds and ("Bomb", "3", 5) not in kinds
    assert ("StraightFlush", "5", 5) in kinds and ("StraightFlush", "4", 5) not in kinds


def test_nothing_follows_the_joker_bomb():
    legal = platform_legal("S3 S3 C3 C3 D3 D3 H3 H3 H2 H2", "2", ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]])
    assert legal == [["PASS", "PASS", "PASS"]]


def test_the_level_card_follows_an_ace_as_a_single_but_not_in_a_straight():
    level = parse_level("9")
    ace = play_from_platform(["Single", "A", ["SA"]], None, level)
    assert [play.to_platform() for play in legal_plays(pack(parse_cards("D9 SK")), level, ace)] == [
        ["PASS", "PASS", "PASS"], ["Single", "9", ["D9"]]]
    straight = play_from_platform(["Straight", "9", ["S9", "ST", "SJ", "SQ", "DK"]], None, level)
    assert legal_plays(pack(parse_cards("S5 S6 S7 S8 D9")), level, straight) == [PASS]


# -- the oracle --------------------------------------------------------------------------------------------


def test_oracle_sorts_by_type_then_strength_then_cards():
    legal = platform_legal("S3 D3 H4 S9 SB", "9")
    assert legal == [["Single", "3", ["S3"]], ["Single", "3", ["D3"]], ["Single", "4", ["H4"]],
                     ["Single", "9", ["S9"]], ["Single", "B", ["SB"]], ["Pair", "3", ["S3", "D3"]]]


def test_oracle_pass_as_last_means_leading():
    assert platform_legal("S3", "9", ["PASS", "PASS", "PASS"]) == [["Single", "3", ["S3"]]]


@pytest.mark.parametrize(("line", "message"), [
    ("{", "not JSON"),
    ('["S3"]', "expected an object"),
    ('{"hand": "S3", "level": "9"}', "expected an object"),
    ('{"hand": ["S3"], "level": "1"}', "unknown level"),
    ('{"hand": ["S3"]}', "unknown level"),
    ('{"hand": ["Z3"], "level": "9"}', "unknown card"),
    ('{"hand": ["S3"], "level": "9", "last": ["Pair", "3", ["S3", "H4"]]}', "reads as: no combination"),
    ('{"hand": ["S3", "S3"], "level": "9", "last": ["Single", "3", ["S3"]]}', "more than 2 copies of S3"),
    ('{"hand": ["S3"], "level": "9", "last": "S4"}', "a play is"),
])
def test_oracle_errors(line, message):
    result = answer(line)
    assert list(result) == ["error"] and message in result["error"]
