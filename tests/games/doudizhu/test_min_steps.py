"""The minimum-steps oracle (PerfectDou appendix E.1) against worked examples and a brute-force search."""

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import CardError
from paiju.games.doudizhu import DouDizhuRules, legal_moves, parse_cards
from paiju.games.doudizhu.cards import MAX_COPIES, NUM_RANKS, pack, unpack
from paiju.games.doudizhu.min_steps import decompose, min_steps, shape_of
from paiju.games.doudizhu.state import DECK

STANDARD = DouDizhuRules()
DOUZERO = DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True)
OPENSPIEL = DouDizhuRules(no_four_with_two=True)
RULESETS = [STANDARD, DOUZERO, OPENSPIEL]


def brute_force(counts: list[int], rules: DouDizhuRules) -> int:
    """Breadth of a search over every lead ``legal_moves`` allows, until the hand is empty."""

    @cache
    def steps(packed: int) -> int:
        if not packed:
            return 0
        return 1 + min(steps(packed - move.packed) for move in legal_moves(unpack(packed), None, rules))

    return steps(pack(counts))


@pytest.mark.parametrize(("hand", "rules", "expected"), [
    ("3456789TJQKA", STANDARD, 1),
    ("3456789TJQKA2222BR33", STANDARD, 3),  # chain, 2222 + 33 as two solos, rocket
    ("34455667789TTTJJQQ2R", STANDARD, 5),
    ("", STANDARD, 0),
    ("B", STANDARD, 1),
    ("BR", STANDARD, 1),
    ("3B", STANDARD, 2),  # the jokers are no pair, and a joker pairs with nothing
    ("333B", STANDARD, 1),  # a joker may be a trio's kicker
    ("3333BR", STANDARD, 2),  # never both jokers as kickers ...
    ("3333BR", DOUZERO, 1),  # ... unless the ruleset says so
    ("33334444", STANDARD, 2),  # four equal cards are not two pair kickers ...
    ("33334444", DOUZERO, 1),
    ("222234", STANDARD, 1),
    ("222234", OPENSPIEL, 3),  # no four-with-two
    ("333444555666", STANDARD, 1),
    ("33344456", STANDARD, 1),
    ("33334445", STANDARD, 2),  # a plane's kicker is never of its ranks
    ("3334445556667779", STANDARD, 2),  # nor a trio next to it ...
    ("3334445556668889", STANDARD, 1),  # ... while a trio elsewhere may be
    ("3334445556667778", STANDARD, 2),
    ("334455667788", STANDARD, 1),
    ("3344556677889TJQKA22", STANDARD, 3),
])
def test_worked_examples(hand, rules, expected):
    assert min_steps(parse_cards(hand), rules) == expected


def test_default_rules_are_the_standard_ruleset():
    assert min_steps(parse_cards("3333BR")) == 2


@pytest.mark.parametrize("hand", ["3456789TJQKA2222BR33", "34455667789TTTJJQQ2R", "3334445556668889",
                                  "5577799TTJQQKKAA22BR"])
@pytest.mark.parametrize("rules", RULESETS)
def test_decompose_plays_out_the_hand_in_min_steps_legal_leads(hand, rules):
    counts = parse_cards(hand)
    plays = decompose(counts, rules)
    assert len(plays) == min_steps(counts, rules)
    left = counts
    for play in plays:
        assert play in legal_moves(left, None, rules)
        left = [a - b for a, b in zip(left, play.counts, strict=True)]
    assert not any(left)


@st.composite
def small_hands(draw, most_cards: int = 8) -> list[int]:
    """Hands of up to ``most_cards`` cards, grouped by rank so that pairs, trios and bombs are common."""
    counts = [0] * NUM_RANKS
    for rank in draw(st.lists(st.integers(0, NUM_RANKS - 1), unique=True, max_size=most_cards)):
        room = most_cards - sum(counts)
        if room:
            counts[rank] = draw(st.integers(1, min(MAX_COPIES[rank], room)))
    return counts


@settings(max_examples=1000, deadline=None)
@given(small_hands(), st.sampled_from(RULESETS))
def test_min_steps_equals_brute_force_on_small_hands(counts, rules):
    assert min_steps(counts, rules) == brute_force(counts, rules)
    assert len(decompose(counts, rules)) == min_steps(counts, rules)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20), st.sampled_from(RULESETS))
def test_never_more_steps_than_distinct_ranks(seed, size, rules):
    deck = DECK.copy()
    random.Random(seed).shuffle(deck)
    counts = [deck[:size].count(rank) for rank in range(NUM_RANKS)]
    steps = min_steps(counts, rules)
    assert 1 <= steps <= sum(1 for n in counts if n)


def test_equals_brute_force_on_seeded_fourteen_card_hands():
    rng = random.Random(2015)
    for _ in range(40):
        deck = DECK.copy()
        rng.shuffle(deck)
        counts = [deck[:14].count(rank) for rank in range(NUM_RANKS)]
        assert min_steps(counts) == brute_force(counts, STANDARD)


def test_shape_counts_ranks_by_copies_and_jokers():
    assert shape_of(pack(parse_cards("3445556666B"))) == (1, 1, 1, 1, 1)
    assert shape_of(pack(parse_cards("22BR"))) == (0, 1, 0, 0, 2)


@pytest.mark.parametrize(("counts", "message"), [
    ([0] * 14, "15 rank counts"),
    ([5] + [0] * 14, "a deck has 0..4"),
    ([0] * 13 + [2, 0], "a deck has 0..1"),
    ([-1] + [0] * 14, "a deck has"),
])
def test_bad_hands_are_named(counts, message):
    with pytest.raises(CardError, match=message):
        min_steps(counts)
