"""Legal-move generation against a brute-force enumerator, and the size of the action space."""

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games.doudizhu import DouDizhuRules, interpretations, legal_moves, parse_cards, parse_move
from paiju.games.doudizhu.cards import FULL_DECK

STANDARD = DouDizhuRules()
VARIANTS = [STANDARD, DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True),
            DouDizhuRules(no_four_with_two=True)]


def brute_force(hand: list[int], follow, rules: DouDizhuRules) -> dict[str, object]:
    """Every sub-multiset of the hand that has a reading which may lead (or beat ``follow``)."""
    plays = {}
    for sub in itertools.product(*(range(n + 1) for n in hand)):
        if not any(sub):
            continue
        readings = interpretations(sub, rules)
        if follow is not None:
            readings = [m for m in readings if m.beats(follow)]
        if readings:
            plays[readings[0].cards] = readings
    if follow is not None:
        plays[""] = None
    return plays


def random_hand(rng: random.Random, size: int) -> list[int]:
    deck = [r for r, n in enumerate(FULL_DECK) for _ in range(n)]
    counts = [0] * 15
    for r in rng.sample(deck, size):
        counts[r] += 1
    return counts


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.integers(1, 9), st.sampled_from(VARIANTS))
def test_leads_match_brute_force(seed, size, rules):
    hand = random_hand(random.Random(seed), size)
    generated = legal_moves(hand, None, rules)
    cards = [m.cards for m in generated]
    assert len(cards) == len(set(cards)), "each distinct play exactly once"
    assert set(cards) == set(brute_force(hand, None, rules))
    for move in generated:
        assert move is interpretations(move.counts, rules)[0], "leads take the canonical reading"


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.integers(4, 10), st.sampled_from(VARIANTS))
def test_follows_match_brute_force(seed, size, rules):
    rng = random.Random(seed)
    hand = random_hand(rng, size)
    other = random_hand(rng, rng.randint(1, 12))
    follow = rng.choice(legal_moves(other, None, rules))
    generated = legal_moves(hand, follow, rules)
    cards = [m.cards for m in generated]
    assert len(cards) == len(set(cards))
    assert set(cards) == set(brute_force(hand, follow, rules))
    for move in generated[1:]:
        assert move.beats(follow)


def test_a_full_deck_holds_the_standard_action_space():
    """DouZero's and RLCard's action space: 27,472 actions = 27,471 plays + pass."""
    plays = legal_moves(list(FULL_DECK), None, STANDARD)
    assert len(plays) == len({m.cards for m in plays}) == 27_471
    counts = Counter(m.category.label for m in plays)
    assert counts["solo"] == 15 and counts["pair"] == 13 and counts["bomb"] == 13 and counts["rocket"] == 1
    assert counts["solo chain"] == 36 and counts["pair chain"] == 52 and counts["plane"] == 45
    assert counts["trio+solo"] == 182 and counts["trio+pair"] == 156


def test_following_examples():
    hand = parse_cards("3345556789TJQKA22BR")
    def legal(last: str) -> set[str]:
        return {m.cards for m in legal_moves(hand, parse_move(last, STANDARD), STANDARD)}

    assert legal("A") == {"", "2", "B", "R", "BR"}
    assert legal("22") == {"", "BR"}
    assert legal("BR") == {""}
    assert "6789T" in legal("34567") and "3456" not in legal("34567")
    assert legal("2222") == {"", "BR"}
    trio_solos = {m for m in legal("4443") if len(m) == 4}
    assert trio_solos == {"3555", "4555"} | {"555" + c for c in "6789TJQKA2BR"}
