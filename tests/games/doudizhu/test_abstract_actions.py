"""PerfectDou's 621 abstract actions: the listing order, coverage of every play, and kicker decoding."""

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import IllegalActionError, PaijuError
from paiju.games.doudizhu import PASS, Category, DouDizhuRules, interpretations, legal_moves, parse_cards, parse_move
from paiju.games.doudizhu import abstract_actions as aa
from paiju.games.doudizhu.abstract_actions import (
    ABSTRACT_COUNT,
    PASS_ABSTRACT,
    ROCKET_ABSTRACT,
    abstract_category,
    abstract_index,
    abstract_label,
    decode,
    group_legal,
)
from paiju.games.doudizhu.action_space import plays
from paiju.games.doudizhu.cards import FULL_DECK, RANKS

STANDARD = DouDizhuRules()
RULESETS = [
    STANDARD,
    DouDizhuRules(no_four_with_two=True),
    DouDizhuRules(rocket_as_kickers=True),
    DouDizhuRules(bomb_as_kickers=True),
    DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True),
]
# First index of each category in the paper's listing, and its size.
BLOCKS = [
    (Category.SOLO, 0, 15), (Category.PAIR, 15, 13), (Category.TRIO, 28, 13), (Category.TRIO_SOLO, 41, 182),
    (Category.TRIO_PAIR, 223, 156), (Category.SOLO_CHAIN, 379, 36), (Category.PAIR_CHAIN, 415, 52),
    (Category.PLANE, 467, 45), (Category.PLANE_SOLOS, 512, 38), (Category.PLANE_PAIRS, 550, 30),
    (Category.FOUR_TWO_SOLOS, 580, 13), (Category.FOUR_TWO_PAIRS, 593, 13), (Category.BOMB, 606, 13),
    (Category.ROCKET, 619, 1), (Category.PASS, 620, 1),
]
KICKED = {Category.PLANE_SOLOS, Category.PLANE_PAIRS, Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS}


def test_size_labels_and_listing_order():
    assert ABSTRACT_COUNT == 621 and PASS_ABSTRACT == 620 and ROCKET_ABSTRACT == 619
    labels = [abstract_label(i) for i in range(ABSTRACT_COUNT)]
    assert len(set(labels)) == ABSTRACT_COUNT
    assert sum(size for _, _, size in BLOCKS) == ABSTRACT_COUNT
    for category, start, size in BLOCKS:
        assert [abstract_category(i) for i in range(start, start + size)] == [category] * size
    spots = {0: "3", 12: "2", 13: "B", 14: "R", 15: "33", 28: "333", 40: "222", 41: "3334", 42: "3335",
             53: "333B", 54: "333R", 55: "3444", 56: "4445", 222: "222R", 223: "33344", 235: "33444",
             378: "AA222", 379: "34567", 387: "345678", 414: "3456789TJQKA", 415: "334455",
             466: "5566778899TTJJQQKKAA", 467: "333444", 511: "999TTTJJJQQQKKKAAA", 512: "333444**",
             523: "333444555***", 550: "333444****", 580: "3333**", 592: "2222**", 593: "3333****",
             606: "3333", 618: "2222", 619: "BR", 620: "pass"}
    assert {i: labels[i] for i in spots} == spots


def test_every_standard_play_has_its_index_and_every_index_a_play():
    hit = Counter()
    for move in plays():
        index = abstract_index(move)
        assert abstract_category(index) is move.category
        label = abstract_label(index)
        if move.category in KICKED:
            main = label.rstrip("*")
            assert len(label) == move.size and Counter(main) <= Counter(move.cards)
        elif not move.is_pass:
            assert label == move.cards, "exact categories: the label is the play"
        hit[index] += 1
    assert set(hit) == set(range(ABSTRACT_COUNT))
    assert all(hit[i] == 1 for i in range(ABSTRACT_COUNT) if abstract_category(i) not in KICKED)
    assert hit[PASS_ABSTRACT] == 1 and abstract_index(PASS) == PASS_ABSTRACT


def test_index_follows_the_interpretation_not_the_cards():
    # With bomb_as_kickers, 33334444 is the four 4444 with pairs 33 33, or the four 3333 with pairs 44 44.
    readings = interpretations(tuple(parse_cards("33334444")), DouDizhuRules(bomb_as_kickers=True))
    assert [abstract_label(abstract_index(m)) for m in readings] == ["4444****", "3333****"]
    assert [abstract_index(m) for m in readings] == [594, 593]
    bomb_pair = interpretations(tuple(parse_cards("44445566")), STANDARD)
    assert {abstract_label(abstract_index(m)) for m in bomb_pair} == {"4444****"}
    assert abstract_index(parse_move("3444", STANDARD)) == 55
    assert abstract_index(parse_move("BR", STANDARD)) == ROCKET_ABSTRACT


def random_hand(rng: random.Random, size: int, deck: list[int] | None = None) -> list[int]:
    deck = deck if deck is not None else [r for r, n in enumerate(FULL_DECK) for _ in range(n)]
    counts = [0] * 15
    for r in rng.sample(deck, size):
        counts[r] += 1
    return counts


def rich_hand(rng: random.Random) -> list[int]:
    """Trios and fours on neighbouring ranks (planes, four+two), topped up with random cards."""
    counts = [0] * 15
    low = rng.randint(0, 8)
    for r in range(low, low + rng.randint(2, 4)):
        counts[r] = rng.choice((3, 3, 4))
    deck = [r for r, n in enumerate(FULL_DECK) for _ in range(n - counts[r])]
    for r in rng.sample(deck, max(0, 20 - sum(counts))):
        counts[r] += 1
    return counts


def reference_pick(group, hand, rules):
    """Algorithm 2 written out plainly: score = sum over kicker units of N + 0.1 × rank."""
    leads = legal_moves(hand, None, rules)

    def score(move):
        main_copies = 3 if move.category in (Category.PLANE_SOLOS, Category.PLANE_PAIRS) else 4
        unit = 2 if move.category in (Category.PLANE_PAIRS, Category.FOUR_TWO_PAIRS) else 1
        total = 0.0
        for r, n in enumerate(move.counts):
            if move.rank <= r < move.rank + move.length:
                n -= main_copies
            for _ in range(n // unit):
                total += sum(1 for m in leads if m.counts[r] >= unit) + 0.1 * r
        return round(total, 6), move.packed

    return min(group, key=score)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(RULESETS), st.booleans(), st.booleans())
def test_group_legal_partitions_and_decodes_legal_moves(seed, rules, rich, leading):
    rng = random.Random(seed)
    hand = rich_hand(rng) if rich else random_hand(rng, rng.choice((17, 20)))
    follow = None
    if not leading:
        other = rich_hand(rng) if rng.random() < 0.5 else random_hand(rng, 17)
        follow = rng.choice(legal_moves(other, None, rules))
    legal = legal_moves(hand, follow, rules)
    indices = [abstract_index(m) for m in legal]
    groups, chosen = group_legal(legal, hand, rules)
    assert groups.dtype == np.int64
    assert list(groups) == list(dict.fromkeys(indices)), "distinct indices, in order of first appearance"
    assert len(chosen) == len(groups)
    members = {}
    for move, index in zip(legal, indices, strict=True):
        members.setdefault(index, []).append(move)
    for index, move in zip(groups.tolist(), chosen, strict=True):
        assert any(move is m for m in legal)
        assert abstract_index(move) == index
        assert abstract_category(index) is move.category
        assert decode(index, legal, hand, rules) is move
        if len(members[index]) > 1:
            assert abstract_category(index) in KICKED
            assert move is reference_pick(members[index], hand, rules)


def test_rich_hands_reach_planes_and_fours_with_kickers():
    rng = random.Random(7)
    seen = set()
    for _ in range(40):
        hand = rich_hand(rng)
        seen.update(abstract_category(i) for i in group_legal(legal_moves(hand, None, STANDARD), hand, STANDARD)[0])
    assert seen >= KICKED


def test_decode_prefers_the_kicker_algorithm_2_scores_lowest():
    # Hand 4444 55 9 K leads: 4 5 9 K, 44 55, 444, 4444, 4445 4449 444K, 44455, 444455 444459 44445K 44449K.
    # N(5) = 7 (5, 55, 4445, 44455, 444455, 444459, 44445K), N(9) = 4, N(K) = 4; ranks 5=2, 9=6, K=10.
    # Scores: 55 -> 2 × 7.2 = 14.4, 59 -> 7.2 + 4.6 = 11.8, 5K -> 12.2, 9K -> 4.6 + 5.0 = 9.6.
    hand = parse_cards("4444559K")
    legal = legal_moves(hand, None, STANDARD)
    four_two = [m for m in legal if m.category is Category.FOUR_TWO_SOLOS]
    assert sorted(m.cards for m in four_two) == ["444455", "444459", "44445K", "44449K"]
    index = abstract_index(four_two[0])
    assert abstract_label(index) == "4444**"
    assert decode(index, legal, hand, STANDARD).cards == "44449K"
    # Following a lower four+two: the same choice among the legal plays.
    follow = parse_move("333345", STANDARD)
    assert follow.category is Category.FOUR_TWO_SOLOS
    assert decode(index, legal_moves(hand, follow, STANDARD), hand, STANDARD).cards == "44449K"


def test_decode_single_candidate_and_all_singleton_groups_skip_movegen(monkeypatch):
    def fail(*args):
        raise AssertionError("leading plays generated")

    hand = parse_cards("3345")
    legal = legal_moves(hand, None, STANDARD)
    monkeypatch.setattr(aa, "legal_moves", fail)
    assert decode(15, legal, hand, STANDARD).cards == "33"
    groups, chosen = group_legal(legal, hand, STANDARD)
    assert [m.cards for m in chosen] == [m.cards for m in legal]
    assert len(groups) == len(legal)


def test_errors_name_the_problem():
    legal = legal_moves(parse_cards("3345"), None, STANDARD)
    with pytest.raises(IllegalActionError, match="'2222\\*\\*'"):
        decode(592, legal, parse_cards("3345"), STANDARD)
    with pytest.raises(IllegalActionError, match="from a Move"):
        abstract_index("3334")
    for bad in (-1, 621, True, 1.5, "3"):
        with pytest.raises(IllegalActionError, match=r"0\.\.620"):
            abstract_label(bad)
        with pytest.raises(IllegalActionError, match=r"0\.\.620"):
            abstract_category(bad)
    with pytest.raises(IllegalActionError, match=r"0\.\.620"):
        decode(700, legal, parse_cards("3345"), STANDARD)
    hand = parse_cards("4444559K")
    legal = legal_moves(hand, None, STANDARD)
    with pytest.raises(PaijuError, match="15 counts"):
        decode(abstract_index(parse_move("444459", STANDARD)), legal, hand[:14], STANDARD)
    assert RANKS[13:] == "BR"
