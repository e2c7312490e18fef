"""GuanDan cards: platform names, canonical order, packed sets, levels and wild cards."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core.errors import CardError
from paiju.games.guandan.cards import (
    BIG_JOKER,
    DECK,
    SMALL_JOKER,
    card_name,
    card_rank,
    card_suit,
    format_cards,
    level_name,
    pack,
    parse_card,
    parse_cards,
    parse_level,
    unpack,
    wild_card,
)


def test_every_card_name_round_trips():
    names = [card_name(card) for card in range(54)]
    assert names[:5] == ["H2", "S2", "C2", "D2", "H3"]
    assert names[-4:] == ["CA", "DA", "SB", "HR"]
    assert len(set(names)) == 54
    assert [parse_card(name) for name in names] == list(range(54))


def test_names_are_case_insensitive_and_ten_may_be_written_10():
    assert parse_card("h9") == parse_card("H9")
    assert parse_card("S10") == parse_card("ST")
    assert parse_card("sb") == SMALL_JOKER
    assert parse_card("HR") == BIG_JOKER


@pytest.mark.parametrize("name", ["", "H1", "X9", "HB", "SR", "BJ", "H", "9H", "S11"])
def test_unknown_names_raise_card_error(name):
    with pytest.raises(CardError, match="unknown card"):
        parse_card(name)


def test_a_card_must_be_a_string():
    with pytest.raises(CardError, match="string"):
        parse_card(9)


def test_parse_cards_sorts_canonically_and_accepts_a_string():
    assert format_cards(parse_cards(["HR", "S2", "DA", "H2", "SB"])) == ["H2", "S2", "DA", "SB", "HR"]
    assert parse_cards("H9 ST, SB") == parse_cards(["SB", "ST", "H9"])


def test_more_than_two_copies_is_an_error():
    assert parse_cards(["H9", "H9"]) == [parse_card("H9")] * 2
    with pytest.raises(CardError, match="more than 2 copies of H9"):
        parse_cards(["H9", "S9", "H9", "H9"])


def test_the_two_decks():
    assert len(DECK) == 108
    assert all(DECK.count(card) == 2 for card in range(54))
    assert list(DECK) == sorted(DECK)


def test_ranks_and_suits():
    assert (card_rank(parse_card("H2")), card_suit(parse_card("H2"))) == (0, 0)
    assert (card_rank(parse_card("DA")), card_suit(parse_card("DA"))) == (12, 3)
    assert (card_rank(SMALL_JOKER), card_rank(BIG_JOKER)) == (13, 14)
    assert card_suit(BIG_JOKER) == -1


@given(st.lists(st.integers(0, 53), max_size=40))
def test_pack_and_unpack_round_trip(cards):
    cards = [card for card in cards if cards.count(card) <= 2]
    assert unpack(pack(cards)) == sorted(cards)


def test_packed_rank_bytes_hold_the_suits():
    packed = pack(parse_cards(["H5", "S5", "S5", "D5", "SB", "HR", "HR"]))
    profile = packed.to_bytes(14, "little")
    assert profile[3] == 0b01_00_10_01  # D:1, C:0, S:2, H:1
    assert profile[13] == 0b10_01  # big joker 2, small joker 1


@pytest.mark.parametrize(("text", "level"), [("2", 0), ("9", 7), ("T", 8), ("10", 8), ("j", 9), ("A", 12)])
def test_levels(text, level):
    assert parse_level(text) == level
    assert level_name(level) == text.upper().replace("10", "T")


@pytest.mark.parametrize("text", ["1", "B", "", "JOKER", None, 7])
def test_unknown_levels_raise_card_error(text):
    with pytest.raises(CardError, match="unknown level"):
        parse_level(text)


def test_the_wild_cards_are_the_heart_level_cards():
    assert card_name(wild_card(parse_level("7"))) == "H7"
    assert card_name(wild_card(parse_level("A"))) == "HA"
