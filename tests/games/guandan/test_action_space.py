"""The fixed index of abstract GuanDan actions: layout, keys of random legal plays and gifts, descriptions, the
concrete-play rule and the straight-flush material it keeps."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from paiju.core.errors import PaijuError
from paiju.games.guandan import ComboType, Gift, GuanDanRules, Play, pack, parse_cards, wild_card
from paiju.games.guandan.action_space import (
    ACTION_COUNT,
    DESCRIPTIONS,
    GIFT_OFFSET,
    KEYS,
    OFFSETS,
    WILD_PAIR,
    GiftKey,
    PlayKey,
    can_be_legal,
    choices,
    describe,
    impossible_count,
    index_of,
    indices_of,
    key_at,
    parse_description,
    straight_flush_material,
)
from paiju.games.guandan.cards import DECK, card_rank, card_suit, parse_level
from paiju.games.guandan.legal import legal_plays

GAME = paiju.load_game("guandan")
LOW_BITS = int("01" * 56, 2)


def expected_key(play: Play, level: int) -> PlayKey:
    """The abstract key from the play's cards, written out independently of the module."""
    cards = list(play.cards)
    wild = wild_card(level)
    naturals = [card for card in cards if card != wild]
    secondary = -1
    if play.type is ComboType.THREE_WITH_TWO:
        others = {card_rank(card) for card in naturals if card_rank(card) != play.rank}
        assert len(others) <= 1
        secondary = others.pop() if others else WILD_PAIR
    elif play.type is ComboType.STRAIGHT_FLUSH:
        suits = {card_suit(card) for card in naturals}
        assert len(suits) == 1
        secondary = suits.pop()
    elif play.type is ComboType.BOMB:
        secondary = len(cards)
    return PlayKey(play.type, play.rank, secondary, cards.count(wild))


def card_count(packed: int) -> int:
    return (packed & LOW_BITS).bit_count() + 2 * (packed & (LOW_BITS << 1)).bit_count()


def check_position(legal, hand: int, level: int) -> None:
    """Every legal action's index, key, description and mask, and the play chosen for each index."""
    indices = indices_of(legal, level)
    key_of_index: dict[int, object] = {}
    for action, index in zip(legal, indices, strict=True):
        assert index == index_of(action, level)
        assert 0 <= index < ACTION_COUNT and can_be_legal(index)
        key = expected_key(action, level) if isinstance(action, Play) else GiftKey(action.card)
        assert key_at(index) == key
        assert key_at(parse_description(describe(index))) == key
        assert key_of_index.setdefault(index, key) == key  # one index never holds two keys
    chosen = choices(legal, indices, hand, level)
    assert set(chosen) == set(indices)  # the mask: every index with a legal action
    material = straight_flush_material(hand, level)
    for index, action in chosen.items():
        assert action in legal and index_of(action, level) == index
        if isinstance(action, Play):
            group = [other for other, at in zip(legal, indices, strict=True) if at == index]
            costs = [card_count(other.packed & material) for other in group]
            assert card_count(action.packed & material) == min(costs)
            assert action == group[costs.index(min(costs))]


def test_layout_offsets_and_impossible_entries():
    assert ACTION_COUNT == len(KEYS) == len(set(KEYS)) == 1292
    assert {kind.name: offset for kind, offset in OFFSETS.items()} == {
        "PASS": 0, "SINGLE": 1, "PAIR": 31, "TRIPS": 76, "THREE_WITH_TWO": 115, "STRAIGHT": 739,
        "THREE_PAIR": 769, "TWO_TRIPS": 805, "BOMB": 844, "STRAIGHT_FLUSH": 1117, "JOKER_BOMB": 1237}
    assert GIFT_OFFSET == 1238 and key_at(GIFT_OFFSET + 53) == GiftKey(53)
    assert impossible_count() == 110
    assert len(set(DESCRIPTIONS)) == ACTION_COUNT
    assert all(parse_description(describe(index)) == index for index in range(ACTION_COUNT))
    assert not can_be_legal(KEYS.index(PlayKey(ComboType.BOMB, 5, 10, 1)))
    assert can_be_legal(KEYS.index(PlayKey(ComboType.BOMB, 5, 10, 2)))


def test_descriptions_are_readable():
    level = parse_level("7")
    named = {describe(index_of(play, level)) for play in legal_plays(pack(parse_cards("S9 H7")), level)}
    assert named == {"single 9", "single 7, 1 wild", "pair of 9s, 1 wild"}
    named = {describe(index_of(play, level)) for play in legal_plays(pack(parse_cards("S5 D5 C5 H7 H7")), level)}
    assert {"full house 5s over wild pair, 2 wilds", "5-card bomb of 5s, 2 wilds"} <= named
    assert describe(index_of(Gift("tribute", parse_cards("H9")[0]), level)) == "gift H9"
    assert describe(0) == "pass" and describe(1237) == "joker bomb"


def test_bad_indices_and_descriptions_are_refused():
    for bad in (-1, ACTION_COUNT, True, "3"):
        with pytest.raises(PaijuError, match="action index is an integer"):
            key_at(bad)
    with pytest.raises(PaijuError, match="described as 'pair of 1s'"):
        parse_description("pair of 1s")
    with pytest.raises(PaijuError, match="Play or a Gift"):
        index_of(5, 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_random_hands_leading_and_following(seed):
    rng = random.Random(seed)
    level = rng.randrange(13)
    deck = list(DECK)
    rng.shuffle(deck)
    hand = pack(deck[:rng.randint(1, 27)])
    if rng.random() < 0.5:  # hold the wild cards more often than a deal would
        hand = pack(card for card in deck[:rng.randint(5, 25)] if card != wild_card(level))
        hand += pack([wild_card(level)] * 2)
    check_position(legal_plays(hand, level, None), hand, level)
    other = pack(deck[27:27 + rng.randint(1, 27)])
    follow = rng.choice(legal_plays(other, level, None))
    check_position(legal_plays(hand, level, follow), hand, level)


def test_games_with_tribute_and_returns():
    rules = GuanDanRules(rounds=None, start_level="Q")
    phases = set()
    for seed in range(3):
        state = GAME.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            phases.add(state.phase)
            check_position(legal, state.hands[state.current_player], state.standing.level)
            state.apply(rng.choice(legal))
    assert {"tribute", "back", "play"} <= phases


@pytest.mark.parametrize("seed", range(30))
def test_straight_flush_material_is_the_cards_of_the_straight_flush_leads(seed):
    rng = random.Random(seed)
    level = rng.randrange(13)
    suited = [card for card in DECK if card < 52]
    rng.shuffle(suited)
    hand = pack(suited[:27])
    wild = wild_card(level)
    leads = [play for play in legal_plays(hand, level, None) if play.type is ComboType.STRAIGHT_FLUSH]
    expected = 0
    for play in leads:
        for card in set(play.cards) - {wild}:
            expected |= 3 << (2 * card)
    assert straight_flush_material(hand, level) == expected


def test_the_rule_keeps_straight_flush_cards():
    level = parse_level("2")
    hand = pack(parse_cards("H5 H6 H7 H8 H9 S9 CK DK SK"))
    legal = legal_plays(hand, level, None)
    chosen = choices(legal, indices_of(legal, level), hand, level)
    single_nine = KEYS.index(PlayKey(ComboType.SINGLE, parse_level("9"), -1, 0))
    assert chosen[single_nine].cards == tuple(parse_cards("S9"))  # H9 comes first but is straight-flush material
    pair_nine = KEYS.index(PlayKey(ComboType.PAIR, parse_level("9"), -1, 0))
    assert chosen[pair_nine].cards == tuple(parse_cards("H9 S9"))  # the only pair of 9s


def test_the_richest_measured_hand_collapses_into_the_index():
    level = parse_cards(["H3"])[0] // 4
    hand = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 42]
    packed = pack([*hand, wild_card(level), wild_card(level)])
    plays = legal_plays(packed, level, None)
    assert len(plays) > 17_000
    indices = indices_of(plays, level)
    assert 100 < len(set(indices)) < ACTION_COUNT
    assert all(can_be_legal(index) for index in set(indices))
