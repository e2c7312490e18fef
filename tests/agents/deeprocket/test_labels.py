"""DeepRocket's 309 policy labels and 28 kicker labels: Table 3's counts and order, coverage of every play,
and the exact round trip play -> (label, kickers) -> play, kickers decoded one at a time."""

import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents.deeprocket.labels import (
    KICKER_COUNT,
    LABEL_CATEGORIES,
    LABEL_COUNT,
    PASS_LABEL,
    ROCKET_LABEL,
    category_of_move,
    group_by_label,
    kicker_choices,
    kicker_count,
    kicker_kind,
    kicker_labels,
    kicker_mask,
    kicker_text,
    label_category,
    label_mask,
    label_text,
    main_label,
    move_for,
)
from paiju.core.errors import IllegalActionError, PaijuError
from paiju.games.doudizhu import PASS, Category, DouDizhuRules, interpretations, legal_moves, parse_cards, parse_move
from paiju.games.doudizhu.abstract_actions import ABSTRACT_COUNT, abstract_category, abstract_index
from paiju.games.doudizhu.action_space import plays
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS

STANDARD = DouDizhuRules()
RULESETS = [
    STANDARD,
    DouDizhuRules(no_four_with_two=True),
    DouDizhuRules(rocket_as_kickers=True),
    DouDizhuRules(bomb_as_kickers=True),
    DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True),
]
# Table 3: category, label count, kicker kind.
TABLE_3 = [
    ("solo", 15, None), ("solo chain", 36, None), ("pair", 13, None), ("pair chain", 52, None), ("trio", 13, None),
    ("plane", 45, None), ("trio+solo", 13, "solo"), ("plane+solos", 38, "solo"), ("trio+pair", 13, "pair"),
    ("plane+pairs", 30, "pair"), ("four+two solos", 13, "solo"), ("four+two pairs", 13, "pair"), ("bomb", 13, None),
    ("rocket", 1, None), ("pass", 1, None),
]
KICKED = {Category.TRIO_SOLO, Category.TRIO_PAIR, Category.PLANE_SOLOS, Category.PLANE_PAIRS,
          Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS}


def test_table_3_counts_order_and_texts():
    assert (LABEL_COUNT, KICKER_COUNT, PASS_LABEL, ROCKET_LABEL) == (309, 28, 308, 307)
    assert tuple(name for name, _, _ in TABLE_3) == LABEL_CATEGORIES
    assert sum(count for _, count, _ in TABLE_3) == LABEL_COUNT
    start = 0
    for index, (name, count, kind) in enumerate(TABLE_3):
        block = range(start, start + count)
        assert [label_category(i) for i in block] == [index] * count, name
        assert {kicker_kind(i) for i in block} == {kind}, name
        start += count
    texts = [label_text(i) for i in range(LABEL_COUNT)]
    assert len(set(texts)) == LABEL_COUNT
    spots = {0: "3", 14: "R", 15: "34567", 50: "3456789TJQKA", 51: "33", 63: "22", 64: "334455", 116: "333",
             129: "333444", 173: "999TTTJJJQQQKKKAAA", 174: "333+1 solo", 186: "222+1 solo",
             187: "333444+2 solos", 224: "TTTJJJQQQKKKAAA+5 solos", 225: "333+1 pair", 238: "333444+2 pairs",
             267: "JJJQQQKKKAAA+4 pairs", 268: "3333+2 solos", 281: "3333+2 pairs", 293: "2222+2 pairs",
             294: "3333", 306: "2222", 307: "BR", 308: "pass"}
    assert {i: texts[i] for i in spots} == spots


def test_kicker_counts():
    counts = {label_text(i): kicker_count(i) for i in range(LABEL_COUNT)}
    assert counts["333+1 solo"] == counts["222+1 pair"] == 1
    assert counts["333444+2 solos"] == 2 and counts["TTTJJJQQQKKKAAA+5 solos"] == 5
    assert counts["JJJQQQKKKAAA+4 pairs"] == 4 and counts["3333+2 solos"] == counts["2222+2 pairs"] == 2
    assert all(kicker_count(i) == 0 for i in range(LABEL_COUNT) if kicker_kind(i) is None)
    assert all(kicker_count(i) > 0 for i in range(LABEL_COUNT) if kicker_kind(i) is not None)
    assert [kicker_text(k) for k in (0, 12, 13, 14, 15, 27)] == ["3", "2", "B", "R", "33", "22"]


def rebuilt_counts(label: int, kickers: tuple[int, ...]) -> list[int]:
    """The cards of a label's main part plus its kickers, read back from the label's text."""
    counts = [0] * NUM_RANKS
    text = label_text(label)
    if text != "pass":
        counts = list(parse_cards(text.split("+")[0]))
    for k in kickers:
        if k < NUM_RANKS:
            counts[k] += 1
        else:
            counts[k - NUM_RANKS] += 2
    return counts


def test_every_standard_play_has_a_label_and_every_label_a_play():
    hit = Counter()
    for move in plays():
        label = main_label(move)
        assert 0 <= label < LABEL_COUNT
        assert label_category(label) == category_of_move(move) == LABEL_CATEGORIES.index(move.category.label)
        kickers = kicker_labels(move)
        assert len(kickers) == kicker_count(label) and list(kickers) == sorted(kickers)
        kind = kicker_kind(label)
        assert all((k < NUM_RANKS) == (kind == "solo") for k in kickers)
        assert rebuilt_counts(label, kickers) == list(move.counts), move
        hit[label] += 1
    assert set(hit) == set(range(LABEL_COUNT))
    assert all(hit[i] == 1 for i in range(LABEL_COUNT) if kicker_kind(i) is None), "unkicked labels are exact"
    assert main_label(PASS) == PASS_LABEL and main_label(parse_move("BR", STANDARD)) == ROCKET_LABEL


def test_labels_collapse_perfectdou_abstract_actions():
    by_abstract = {}
    for move in plays():
        by_abstract.setdefault(abstract_index(move), set()).add(main_label(move))
    assert set(by_abstract) == set(range(ABSTRACT_COUNT))
    assert all(len(labels) == 1 for labels in by_abstract.values()), "each abstract action has one label"
    preimages = Counter(next(iter(labels)) for labels in by_abstract.values())
    for label in range(LABEL_COUNT):
        category = LABEL_CATEGORIES[label_category(label)]
        expected = {"trio+solo": 14, "trio+pair": 12}.get(category, 1)
        assert preimages[label] == expected, label_text(label)
    assert {abstract_category(i) for i, labels in by_abstract.items() if labels == {174}} == {Category.TRIO_SOLO}


def test_kickers_and_readings():
    assert (main_label(parse_move("333R", STANDARD)), kicker_labels(parse_move("333R", STANDARD))) == (174, (14,))
    assert (main_label(parse_move("33344", STANDARD)), kicker_labels(parse_move("33344", STANDARD))) == (225, (16,))
    assert kicker_labels(parse_move("33344455", STANDARD)) == (2, 2)
    assert kicker_labels(parse_move("3334445566", STANDARD)) == (17, 18)
    assert kicker_labels(parse_move("334455", STANDARD)) == ()
    # With bomb_as_kickers, 33334444 is the four 4444 with pairs 33 33, or the four 3333 with pairs 44 44.
    rules = DouDizhuRules(bomb_as_kickers=True)
    readings = interpretations(tuple(parse_cards("33334444")), rules)
    assert [(label_text(main_label(m)), kicker_labels(m)) for m in readings] == [
        ("4444+2 pairs", (15, 15)), ("3333+2 pairs", (16, 16))]
    # Leading, the multiset is played in its canonical reading only; move_for returns that very Move.
    legal = legal_moves(parse_cards("33334444"), None, rules)
    assert move_for(282, (15, 15), legal) is readings[0]
    with pytest.raises(IllegalActionError, match="3333"):
        move_for(281, (16, 16), legal)
    plane = interpretations(tuple(parse_cards("333444555999")), rules)
    assert [(label_text(main_label(m)), kicker_labels(m)) for m in plane] == [("333444555+3 solos", (6, 6, 6))]


def test_kicker_choices_step_by_step():
    hand = parse_cards("4444559K")
    legal = legal_moves(hand, None, STANDARD)
    group = group_by_label(legal)[main_label(parse_move("444459", STANDARD))]
    assert sorted(kicker_labels(m) for m in group) == [(2, 2), (2, 6), (2, 10), (6, 10)]
    assert kicker_choices(group, []) == [2, 6]
    assert kicker_choices(group, [2]) == [2, 6, 10]
    assert kicker_choices(group, [6]) == [10]
    assert kicker_choices(group, [6, 10]) == [] and kicker_choices(group, [10]) == []
    assert kicker_mask([2, 6]).tolist() == [i in (2, 6) for i in range(KICKER_COUNT)]
    assert move_for(main_label(group[0]), [10, 6], legal).cards == "44449K", "kickers in any order"


def random_hand(rng: random.Random, size: int) -> list[int]:
    deck = [r for r, n in enumerate(FULL_DECK) for _ in range(n)]
    counts = [0] * NUM_RANKS
    for r in rng.sample(deck, size):
        counts[r] += 1
    return counts


def rich_hand(rng: random.Random) -> list[int]:
    """Trios and fours on neighbouring ranks (planes, four+two, bombs), often both jokers, topped up with
    random cards."""
    counts = [0] * NUM_RANKS
    low = rng.randint(0, 8)
    for r in range(low, low + rng.randint(2, 4)):
        counts[r] = rng.choice((3, 3, 4))
    if rng.random() < 0.5:
        counts[13] = counts[14] = 1
    deck = [r for r, n in enumerate(FULL_DECK) for _ in range(n - counts[r])]
    for r in rng.sample(deck, max(0, 20 - sum(counts))):
        counts[r] += 1
    return counts


def position(rng: random.Random, rules: DouDizhuRules, rich: bool, leading: bool) -> list:
    """The legal plays of a random or trio/bomb-rich hand, leading, or following another hand's play, mostly
    one the hand can beat without a bomb (kicked categories favoured)."""
    hand = rich_hand(rng) if rich else random_hand(rng, rng.choice((17, 20)))
    if leading:
        return legal_moves(hand, None, rules)
    own = legal_moves(hand, None, rules)
    leads = legal_moves(rich_hand(rng), None, rules)
    beatable = [m for m in leads if not m.is_bomb and any(o.beats(m) and not o.is_bomb for o in own)]
    kicked = [m for m in beatable if m.category in KICKED]
    pool = kicked if kicked and rng.random() < 0.7 else beatable if beatable and rng.random() < 0.8 else leads
    return legal_moves(hand, rng.choice(pool), rules)


def decoding_tree_leaves(group: list, label: int) -> set[tuple[int, ...]]:
    """Every kicker sequence ``kicker_choices`` offers, step by step from none; no path may dead-end early."""
    leaves: set[tuple[int, ...]] = set()
    stack: list[tuple[int, ...]] = [()]
    while stack:
        chosen = stack.pop()
        choices = kicker_choices(group, chosen)
        assert all(c >= chosen[-1] for c in choices) if chosen else True
        assert np.flatnonzero(kicker_mask(choices)).tolist() == choices
        if len(chosen) == kicker_count(label):
            assert choices == []
            leaves.add(chosen)
        else:
            assert choices, f"{label_text(label)}: no kicker after {chosen}"
            stack.extend((*chosen, c) for c in choices)
    return leaves


def check_round_trip(legal: list, moves: list | None = None) -> None:
    groups = group_by_label(legal)
    assert list(groups) == list(dict.fromkeys(main_label(m) for m in legal)), "labels in order of first appearance"
    assert sorted(id(m) for g in groups.values() for m in g) == sorted(id(m) for m in legal), "a partition"
    assert np.flatnonzero(label_mask(legal)).tolist() == sorted(groups)
    for label, group in groups.items():
        assert all(main_label(m) == label for m in group)
        sequences = [kicker_labels(m) for m in group]
        assert len(set(sequences)) == len(group), "label and kickers fix the play"
        assert decoding_tree_leaves(group, label) == set(sequences)
    for move in legal if moves is None else moves:
        label, kickers = main_label(move), kicker_labels(move)
        found = move_for(label, kickers, legal)
        assert found is move
        assert (found.packed, found.category, found.rank, found.length) == (
            move.packed, move.category, move.rank, move.length)
        group = groups[label]
        for depth, kicker in enumerate(kickers):
            assert kicker in kicker_choices(group, kickers[:depth])


@pytest.mark.parametrize("rules", RULESETS, ids=["standard", "no_four", "rocket_kick", "bomb_kick", "both"])
@pytest.mark.parametrize("leading", [True, False], ids=["lead", "follow"])
def test_round_trip_of_every_legal_play(rules, leading):
    rng = random.Random(hash((rules.rocket_as_kickers, rules.bomb_as_kickers, rules.no_four_with_two, leading)))
    seen = set()
    for i in range(24):
        legal = position(rng, rules, rich=i % 2 == 0, leading=leading)
        check_round_trip(legal)
        seen.update(category_of_move(m) for m in legal)
    if leading and not rules.no_four_with_two:
        assert seen >= {category_of_move(m) for m in (parse_move("33344455", STANDARD), parse_move("444459", STANDARD))}


def test_round_trip_reaches_kicker_variants():
    both = DouDizhuRules(rocket_as_kickers=True, bomb_as_kickers=True)
    legal = legal_moves(parse_cards("333444555666BR2222"), None, both)
    sequences = {kicker_labels(m) for m in legal}
    assert (13, 14) in sequences, "both jokers as the two solos of a four or a plane"
    assert (12, 12, 12, 12) in sequences and (27, 27) in sequences, "a four of kickers: four solos or two pairs"
    check_round_trip(legal)
    standard = legal_moves(parse_cards("333444555666BR2222"), None, STANDARD)
    assert {kicker_labels(m) for m in standard}.isdisjoint({(13, 14), (12, 12, 12, 12), (27, 27)})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(RULESETS), st.booleans(), st.booleans())
def test_round_trip_property(seed, rules, rich, leading):
    rng = random.Random(seed)
    legal = position(rng, rules, rich, leading)
    check_round_trip(legal, rng.sample(legal, min(len(legal), 60)))


def test_errors_name_the_problem():
    legal = legal_moves(parse_cards("4444559K"), None, STANDARD)
    for bad in (-1, 309, True, 1.5, "3", None):
        for function in (label_text, kicker_kind, kicker_count, label_category):
            with pytest.raises(PaijuError, match=r"0\.\.308, got " + repr(bad).replace(".", r"\.")):
                function(bad)
        with pytest.raises(PaijuError, match=r"0\.\.308"):
            move_for(bad, (), legal)
    for bad in (-1, 28, False):
        with pytest.raises(PaijuError, match=f"0\\.\\.27, got {bad!r}"):
            kicker_mask([bad])
        with pytest.raises(PaijuError, match=r"0\.\.27"):
            kicker_choices(legal, [bad])
        with pytest.raises(PaijuError, match=r"0\.\.27"):
            move_for(268, (2, bad), legal)
    label = main_label(parse_move("444459", STANDARD))
    with pytest.raises(IllegalActionError, match=r"4444\+2 solos.*\[6, 6\] \(9 9\)"):
        move_for(label, (6, 6), legal)
    with pytest.raises(IllegalActionError, match=r"takes 2 kicker\(s\), got 1"):
        move_for(label, (6,), legal)
    with pytest.raises(IllegalActionError, match=r"label 294 \('3333'\)"):
        move_for(294, (), legal)
    with pytest.raises(IllegalActionError, match="from a Move"):
        main_label("3334")
    with pytest.raises(IllegalActionError, match="one label"):
        kicker_choices(legal, [])
    with pytest.raises(IllegalActionError, match="ascending"):
        kicker_choices(group_by_label(legal)[label], [6, 2])
    assert move_for(PASS_LABEL, (), legal_moves(parse_cards("33"), parse_move("44", STANDARD), STANDARD)) is PASS
