"""GuanDan combinations: every type, wild-card readings, the spec's ordering cases, platform form."""

import pickle

import pytest

from paiju.core.errors import CardError, IllegalActionError
from paiju.games.guandan import PASS, ComboType, interpretations, pack, parse_cards, parse_level
from paiju.games.guandan.combos import make_play, play_from_platform


def readings(names: str, level: str) -> set[tuple[str, str]]:
    """(platform type, rank) of every reading of the cards at the level."""
    return {(play.type.platform, play.rank_name)
            for play in interpretations(parse_cards(names), parse_level(level))}


def play(value: list, level: str):
    return play_from_platform(value, None, parse_level(level))


@pytest.mark.parametrize(("cards", "expected"), [
    ("S3", {("Single", "3")}),
    ("HR", {("Single", "R")}),
    ("S9 D9", {("Pair", "9")}),
    ("SB SB", {("Pair", "B")}),
    ("C4 C4 D4", {("Trips", "4")}),
    ("S6 S6 D6 DK DK", {("ThreeWithTwo", "6")}),
    ("S3 H4 C5 D6 S7", {("Straight", "3")}),
    ("S5 D5 C6 D6 S7 S7", {("ThreePair", "5")}),
    ("S8 D8 C8 S9 C9 D9", {("TwoTrips", "8")}),
    ("S8 D8 C8 H8", {("Bomb", "8")}),
    ("S8 D8 C8 H8 S8 D8 C8 H8", {("Bomb", "8")}),
    ("H3 H4 H5 H6 H7", {("StraightFlush", "3")}),
    ("SB SB HR HR", {("Bomb", "JOKER")}),
])
def test_each_type_from_natural_cards(cards, expected):
    assert readings(cards, "2") == expected


@pytest.mark.parametrize("cards", [
    "S3 S4",  # two singles
    "SB HR",  # a small and a big joker are no pair
    "S3 H4 C5 D6",  # four cards in a row
    "S3 H4 C5 D6 S7 S8",  # a straight is exactly five cards
    "SQ HK CA D2 S3",  # no wrap-around
    "SK DK SA DA S2 D2",  # nor for tubes
    "S2 D2 C2 S4 D4 C4",  # plates are two consecutive trips
    "S5 S5 D5 SB HR",  # the pair of a full house: two equal jokers
    "SB SB HR",
    "S3 S3 S4 S4",  # two pairs
])
def test_no_reading(cards):
    assert readings(cards, "2") == set()


def test_five_of_a_rank_is_a_bomb_not_a_full_house():
    assert readings("S5 S5 D5 D5 C5", "2") == {("Bomb", "5")}


def test_full_house_with_a_joker_pair():
    assert readings("S5 S5 D5 SB SB", "2") == {("ThreeWithTwo", "5")}
    assert readings("S5 S5 D5 HR HR", "2") == {("ThreeWithTwo", "5")}


def test_the_ace_is_low_or_high_in_chains():
    assert readings("HA S2 C3 D4 H5", "9") == {("Straight", "A")}
    assert readings("HT SJ CQ DK HA", "9") == {("Straight", "T")}
    assert readings("SA DA S2 D2 S3 D3", "9") == {("ThreePair", "A")}
    assert readings("SQ DQ SK DK SA DA", "9") == {("ThreePair", "Q")}
    assert readings("SA DA CA S2 D2 C2", "9") == {("TwoTrips", "A")}
    assert readings("SK DK CK SA DA CA", "9") == {("TwoTrips", "K")}


def test_level_cards_take_their_face_value_in_chains():
    assert readings("S8 D9 CT DJ SQ", "9") == {("Straight", "8")}


# Wild cards (the heart level cards) --------------------------------------------------------------


def test_a_wild_card_stands_for_any_card_in_a_pair():
    assert readings("S5 H7", "7") == {("Pair", "5")}
    assert readings("S7 H7", "7") == {("Pair", "7")}


def test_wild_cards_alone_are_the_level_card():
    assert readings("H7", "7") == {("Single", "7")}
    assert readings("H7 H7", "7") == {("Pair", "7")}


def test_a_wild_card_never_stands_for_a_joker():
    assert readings("SB H7", "7") == set()
    assert readings("SB SB HR H7", "7") == set()
    assert readings("SB SB HR HR H7", "7") == set()


def test_the_heart_level_card_is_wild_only_at_its_level():
    assert readings("S5 H7", "8") == set()


def test_wild_cards_fill_a_straight_at_every_window_they_fit():
    assert readings("S3 D4 C5 H7 H7", "7") == {("Straight", "A"), ("Straight", "2"), ("Straight", "3")}


def test_four_of_a_suit_and_a_wild_card_are_a_straight_and_a_straight_flush():
    assert readings("S3 S4 S5 S6 H9", "9") == {("Straight", "2"), ("Straight", "3"),
                                              ("StraightFlush", "2"), ("StraightFlush", "3")}


def test_the_heart_level_card_completes_a_heart_straight_flush_as_itself():
    assert readings("H5 H6 H7 H8 H9", "7") == {("Straight", "5"), ("StraightFlush", "5")}


def test_the_same_cards_read_as_full_house_and_bomb():
    assert readings("S5 S5 D5 H7 H7", "7") == {("ThreeWithTwo", "5"), ("Bomb", "5")}


def test_a_wild_card_completes_either_trips():
    assert readings("S5 D5 S6 D6 H7", "7") == {("ThreeWithTwo", "5"), ("ThreeWithTwo", "6")}


def test_wild_cards_in_tubes_plates_and_bombs():
    assert readings("S5 D5 S6 H7 S7 D7", "7") == {("ThreePair", "5")}
    assert readings("S5 D5 C5 S6 H7 H7", "7") == {("TwoTrips", "5")}
    assert readings("S5 D5 H7 H7", "7") == {("Bomb", "5")}
    assert readings("S5 S5 C5 C5 D5 D5 H5 H5 H7 H7", "7") == {("Bomb", "5")}


# Ordering ------------------------------------------------------------------------------------------


def test_the_level_card_ranks_above_the_ace_in_singles_pairs_trips_and_full_houses():
    level = "9"
    nine, ace = play(["Single", "9", ["S9"]], level), play(["Single", "A", ["SA"]], level)
    assert nine.beats(ace, parse_level(level)) and not ace.beats(nine, parse_level(level))
    small, big = play(["Single", "B", ["SB"]], level), play(["Single", "R", ["HR"]], level)
    assert small.beats(nine, parse_level(level)) and big.beats(small, parse_level(level))
    full_nines = play(["ThreeWithTwo", "9", ["S9", "C9", "D9", "S3", "D3"]], level)
    full_aces = play(["ThreeWithTwo", "A", ["SA", "CA", "DA", "S3", "D3"]], level)
    assert full_nines.beats(full_aces, parse_level(level))
    assert not nine.beats(ace, parse_level("A")) and ace.beats(nine, parse_level("A"))


def test_straights_take_the_natural_order():
    level = parse_level("9")
    nine_up = play(["Straight", "9", ["S9", "CT", "DJ", "SQ", "HK"]], "9")
    ten_up = play(["Straight", "T", ["ST", "CJ", "DQ", "SK", "HA"]], "9")
    ace_low = play(["Straight", "A", ["SA", "C2", "D3", "S4", "H5"]], "9")
    two_up = play(["Straight", "2", ["S2", "C3", "D4", "S5", "H6"]], "9")
    assert ten_up.beats(nine_up, level) and not nine_up.beats(ten_up, level)
    assert two_up.beats(ace_low, level) and not ace_low.beats(two_up, level)


def test_bombs_more_cards_first_then_rank():
    level = parse_level("9")
    aces = play(["Bomb", "A", ["SA", "CA", "DA", "HA"]], "9")
    nines = play(["Bomb", "9", ["S9", "C9", "D9", "S9"]], "9")
    five_twos = play(["Bomb", "2", ["S2", "C2", "D2", "H2", "H2"]], "9")
    assert nines.beats(aces, level) and not aces.beats(nines, level)
    assert five_twos.beats(nines, level)


def test_straight_flush_between_five_and_six_card_bombs():
    level = parse_level("2")
    flush = play(["StraightFlush", "3", ["S3", "S4", "S5", "S6", "S7"]], "2")
    higher_flush = play(["StraightFlush", "4", ["D4", "D5", "D6", "D7", "D8"]], "2")
    same_flush = play(["StraightFlush", "3", ["D3", "D4", "D5", "D6", "D7"]], "2")
    four = play(["Bomb", "A", ["SA", "CA", "DA", "HA"]], "2")
    five = play(["Bomb", "A", ["SA", "CA", "DA", "HA", "HA"]], "2")
    six = play(["Bomb", "3", ["S3", "C3", "D3", "H3", "H3", "D3"]], "2")
    assert flush.beats(four, level) and flush.beats(five, level) and not flush.beats(six, level)
    assert six.beats(flush, level) and not five.beats(flush, level)
    assert higher_flush.beats(flush, level) and not flush.beats(higher_flush, level)
    assert not same_flush.beats(flush, level)


def test_the_joker_bomb_beats_everything():
    level = parse_level("2")
    jokers = play(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], "2")
    ten = make_play(ComboType.BOMB, 5, parse_cards("S7 S7 C7 C7 D7 D7 H7 H7 H2 H2"))
    flush = play(["StraightFlush", "T", ["HT", "HJ", "HQ", "HK", "HA"]], "2")
    assert jokers.beats(ten, level) and jokers.beats(flush, level)
    assert not ten.beats(jokers, level) and not jokers.beats(jokers, level)


def test_bombs_beat_every_other_type_and_types_do_not_mix():
    level = parse_level("2")
    four = play(["Bomb", "3", ["S3", "C3", "D3", "H3"]], "2")
    pair = play(["Pair", "A", ["SA", "CA"]], "2")
    single = play(["Single", "R", ["HR"]], "2")
    assert four.beats(pair, level) and four.beats(single, level) and not pair.beats(four, level)
    assert not pair.beats(single, level) and not single.beats(pair, level)
    assert pair.beats(PASS, level) and not PASS.beats(pair, level)


# Play objects and platform form --------------------------------------------------------------------


def test_platform_forms():
    assert PASS.to_platform() == ["PASS", "PASS", "PASS"]
    jokers = make_play(ComboType.JOKER_BOMB, 15, parse_cards("SB HR SB HR"))
    assert jokers.to_platform() == ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]
    straight = play(["Straight", "A", ["H5", "SA", "D4", "C3", "C2"]], "9")
    assert straight.to_platform() == ["Straight", "A", ["C2", "C3", "D4", "H5", "SA"]]
    assert str(straight) == "Straight A C2 C3 D4 H5 SA" and repr(straight) == "Play(Straight A C2 C3 D4 H5 SA)"


def test_plays_are_values():
    first = play(["Pair", "5", ["S5", "H7"]], "7")
    second = make_play(ComboType.PAIR, 3, parse_cards("H7 S5"))
    assert first == second and hash(first) == hash(second) and len({first, second}) == 1
    assert first != make_play(ComboType.PAIR, 5, parse_cards("H7 S5"))  # same cards, another reading
    assert pickle.loads(pickle.dumps(first)) == first
    assert (first.type, first.rank, first.size, first.cards) == (ComboType.PAIR, 3, 2, tuple(parse_cards("S5 H7")))
    assert first.packed == pack(parse_cards("S5 H7"))
    assert first.wilds(parse_level("7")) == 1 and first.wilds(parse_level("5")) == 0
    assert PASS != 0 and PASS.rank == -1 and PASS.size == 0 and PASS.is_pass
    with pytest.raises(TypeError, match="beats"):
        assert first < second


def test_play_from_platform_checks_the_hand():
    hand = pack(parse_cards("S5 H7 D9"))
    assert play_from_platform(["Pair", "5", ["S5", "H7"]], hand, parse_level("7")).size == 2
    with pytest.raises(IllegalActionError, match="not in the hand"):
        play_from_platform(["Pair", "9", ["S9", "D9"]], hand, parse_level("7"))


@pytest.mark.parametrize(("value", "error", "message"), [
    ("Pair", IllegalActionError, "a play is"),
    (["Pair", "5"], IllegalActionError, "a play is"),
    (["Pair", "5", []], IllegalActionError, "non-empty"),
    (["Pair", "5", ["S5", "X5"]], CardError, "unknown card"),
    (["Pair", "6", ["S5", "H7"]], IllegalActionError, "reads as: Pair 5"),
    (["Straight", "3", ["S3", "S4"]], IllegalActionError, "no combination"),
    (["PASS", "PASS", ["S3"]], IllegalActionError, "a pass is"),
])
def test_bad_platform_plays(value, error, message):
    with pytest.raises(error, match=message):
        play(value, "7")


def test_pass_in_platform_form():
    assert play(["PASS", "PASS", "PASS"], "7") is PASS
