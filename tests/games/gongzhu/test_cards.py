"""Card names, parsing, card order and masks."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core.errors import CardError
from paiju.games.gongzhu import CARD_NAMES, parse_card, parse_cards, sort_cards
from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, SUIT_MASKS, cards_of, mask_of, rank_of, suit_of


def test_one_deck_of_52_named_cards_in_suit_then_rank_order():
    assert len(CARD_NAMES) == len(set(CARD_NAMES)) == 52
    assert CARD_NAMES[:13] == ("S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "SJ", "SQ", "SK", "SA")
    assert (CARD_NAMES[13], CARD_NAMES[26], CARD_NAMES[39], CARD_NAMES[51]) == ("H2", "D2", "C2", "CA")
    assert all(CARD_INDEX[name] == index for index, name in enumerate(CARD_NAMES))


@pytest.mark.parametrize(("text", "name"), [("SQ", "SQ"), ("sq", "SQ"), (" h10 ", "H10"), ("dJ", "DJ"), ("c10", "C10"),
                                            ("Ha", "HA")])
def test_parse_card_ignores_case_and_gives_the_canonical_name(text, name):
    assert parse_card(text) == name


@pytest.mark.parametrize("text", ["S1", "S11", "ST", "10S", "X5", "", "S", "SQQ", "H 10", "joker"])
def test_parse_card_names_what_is_wrong(text):
    with pytest.raises(CardError, match=f"unknown card {text!r}.*suit letter S/H/D/C"):
        parse_card(text)


def test_parse_card_refuses_non_strings():
    with pytest.raises(CardError, match="a card is a string"):
        parse_card(12)  # type: ignore[arg-type]


def test_parse_cards_keeps_order_and_refuses_repeats():
    assert parse_cards("SQ h10, DJ  c10") == ("SQ", "H10", "DJ", "C10")
    assert parse_cards("") == ()
    with pytest.raises(CardError, match="SQ appear more than once"):
        parse_cards("SQ H2 sq")


def test_sort_cards_suit_then_rank():
    assert sort_cards(["CA", "H10", "S2", "HJ", "H9", "DQ", "SA"]) == ("S2", "SA", "H9", "H10", "HJ", "DQ", "CA")


def test_suit_and_rank_of_a_name():
    assert (suit_of("H10"), rank_of("H10"), suit_of("SQ"), rank_of("SQ")) == ("H", "10", "S", "Q")


def test_suit_masks_partition_the_deck():
    assert sum(SUIT_MASKS) == FULL_MASK
    assert cards_of(SUIT_MASKS[1]) == tuple(name for name in CARD_NAMES if name[0] == "H")


@given(st.sets(st.sampled_from(CARD_NAMES)))
def test_masks_round_trip_in_card_order(cards):
    mask = mask_of(cards)
    assert mask.bit_count() == len(cards)
    assert cards_of(mask) == sort_cards(cards)
