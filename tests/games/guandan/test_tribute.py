"""Tribute and return: who pays whom, which cards, anti-tribute, double tribute, who leads, sealed gifts."""

import random

import pytest

from paiju.core.errors import IllegalActionError
from paiju.core.registry import register_game
from paiju.games.guandan import Deal, Gift, GuanDan, GuanDanRules, Standing, pack, parse_cards, parse_level
from paiju.games.guandan.cards import DECK, card_name, format_cards
from paiju.games.guandan.tribute import TributeRoles, back_cards, tribute_cards

GAME = register_game(GuanDan())


def deal_of(fixed: dict[int, str], fill_order: tuple[int, ...] = (0, 1, 2, 3)) -> Deal:
    """Each seat holds its ``fixed`` cards; the other cards fill the hands to 27, lowest cards first, the seats
    in ``fill_order`` (so the last seat filled gets the jokers that no seat was given)."""
    hands = {seat: parse_cards(fixed.get(seat, "")) for seat in range(4)}
    left = list(DECK)
    for cards in hands.values():
        for card in cards:
            left.remove(card)
    for seat in fill_order:
        missing = 27 - len(hands[seat])
        hands[seat] += left[:missing]
        left = left[missing:]
    return Deal.from_hands([format_cards(hands[seat]) for seat in range(4)])


def round_after(order: tuple[int, ...], deal: Deal, level: str = "5", levels: tuple[str, str] = ("5", "2")):
    """The state of the round after one that finished in ``order``, played at ``level``."""
    standing = Standing(round_number=1, levels=(parse_level(levels[0]), parse_level(levels[1])),
                        level=parse_level(level), previous_order=order)
    return GAME.from_deals([deal], GuanDanRules(), standing)


def gift(kind: str, name: str) -> Gift:
    return Gift(kind, parse_cards(name)[0])


def names(cards) -> list[str]:
    return [card_name(card) for card in cards]


def check_determinize(state) -> None:
    """Every seat's observation survives determinization (sealed gifts and all)."""
    for seat in range(4):
        observation = state.observation(seat)
        assert GAME.determinize(observation, random.Random(seat)).observation(seat) == observation


def test_the_4th_pays_the_1st_its_highest_card_and_gets_a_card_of_10_or_lower_back():
    state = round_after((0, 1, 2, 3), deal_of({3: "H5 H5 SA DA"}, fill_order=(3, 0, 1, 2)))
    assert state.phase == "tribute" and state.current_player == 3 and state.anti == ()
    assert state.legal_actions() == [gift("tribute", "SA"), gift("tribute", "DA")]
    before = state.to_record()
    for bad, message in [(gift("tribute", "H5"), "highest single card other than a wild card"),
                         (gift("tribute", "S2"), r"\(SA or DA\) at level 5, not S2"),
                         (gift("tribute", "HR"), "does not hold HR"),
                         (gift("back", "S2"), "must give a tribute card"),
                         (state.action_from_json(["Single", "2", ["S2"]]), "must give a card")]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply(bad)
        assert state.to_record() == before
    state.apply(gift("tribute", "DA"), seat=3)
    assert state.phase == "back" and state.current_player == 0
    assert "DA" in state.hand(0) and "DA" not in state.hand(3)
    assert all(state.observation(seat).tribute == ((3, 0, parse_cards("DA")[0]),) for seat in range(4))
    assert all(card_name(g.card)[1] in "23456789T" for g in state.legal_actions())
    with pytest.raises(IllegalActionError, match="rank 10 or lower, not DA"):
        state.apply(gift("back", "DA"))
    state.apply(gift("back", "C5"))  # a level card of rank 5 is a card of rank 10 or lower
    assert state.phase == "play" and state.current_player == 3  # the payer leads
    assert "C5" in state.hand(3) and len(state.hand(0)) == len(state.hand(3)) == 27
    assert state.observation(2).back == ((0, 3, parse_cards("C5")[0]),) and state.invariant_errors() == []


def test_the_tribute_skips_wild_cards_and_counts_level_cards_above_aces():
    level = parse_level("7")
    assert names(tribute_cards(pack(parse_cards("H7 H7 SA S7 D7 C3")), level)) == ["S7", "D7"]
    assert names(tribute_cards(pack(parse_cards("H7 SA DA SK")), level)) == ["SA", "DA"]
    assert names(tribute_cards(pack(parse_cards("H7 SB SA HR HR")), level)) == ["HR"]
    assert names(back_cards(pack(parse_cards("H7 S8 ST SJ SB")), level)) == ["H7", "S8", "ST"]
    assert names(back_cards(pack(parse_cards("SJ DJ SQ SA SB")), level)) == ["SJ", "DJ"]


def test_a_receiver_without_a_card_of_10_or_lower_returns_a_lowest_card():
    receiver = "HJ HJ SJ SJ CJ CJ DJ DJ HQ HQ SQ SQ CQ CQ DQ DQ HK HK SK SK CK CK DK DK HA HA SA"
    state = round_after((0, 1, 2, 3), deal_of({0: receiver, 3: "DA"}, fill_order=(3, 1, 2, 0)))
    state.apply(gift("tribute", "DA"))
    assert [card_name(g.card) for g in state.legal_actions()] == ["HJ", "SJ", "CJ", "DJ"]
    state.apply(gift("back", "CJ"))
    assert state.phase == "play" and "CJ" in state.hand(3)


def test_a_payer_holding_both_big_jokers_pays_nothing_and_the_1st_leads():
    state = round_after((2, 1, 0, 3), deal_of({3: "HR HR"}, fill_order=(0, 1, 2, 3)))
    assert state.phase == "play" and state.current_player == 2 and state.anti == (3,)
    assert all(state.observation(seat).anti_tribute == (3,) and state.observation(seat).tribute == ()
               for seat in range(4))
    check_determinize(state)


@pytest.mark.parametrize(("jokers", "anti"), [({1: "HR", 3: "HR"}, (1, 3)), ({3: "HR HR"}, (3,)),
                                               ({1: "HR HR"}, (1,))])
def test_two_payers_holding_both_big_jokers_between_them_pay_nothing(jokers, anti):
    state = round_after((0, 2, 3, 1), deal_of(jokers, fill_order=(0, 2, 1, 3) if len(anti) == 2 else (1, 3, 0, 2)))
    assert TributeRoles.from_order((0, 2, 3, 1)) == TributeRoles(payers=(1, 3), receivers=(0, 2))
    assert state.phase == "play" and state.anti == anti and state.current_player == 0
    check_determinize(state)


def test_double_tribute_the_higher_card_goes_to_the_1st_and_its_payer_leads():
    deal = deal_of({1: "SB", 3: "HR"}, fill_order=(1, 3, 0, 2))
    state = round_after((0, 2, 1, 3), deal, level="2")
    assert state.phase == "tribute" and state.current_player == 1  # the 1st player's next seat decides first
    state.apply(gift("tribute", "SB"), seat=1)
    assert state.current_player == 3 and state.observation(3).tribute == () and "SB" in state.hand(1)
    check_determinize(state)
    state.apply(gift("tribute", "HR"), seat=3)
    sb, hr = parse_cards("SB HR")
    assert state.tributes == ((1, 2, sb), (3, 0, hr))
    assert state.phase == "back" and state.current_player == 0
    state.apply(state.legal_actions()[0], seat=0)
    assert state.current_player == 2 and state.observation(2).back == () and state.observation(0).back == ()
    check_determinize(state)
    state.apply(state.legal_actions()[-1], seat=2)
    assert [entry[:2] for entry in state.backs] == [(0, 3), (2, 1)]
    assert state.phase == "play" and state.current_player == 3 and state.invariant_errors() == []
    check_determinize(state)


def test_equal_tributes_go_by_seat_order_from_the_1st_player():
    state = round_after((2, 0, 3, 1), deal_of({1: "SB", 3: "SB"}, fill_order=(1, 3, 0, 2)), level="2")
    assert state.current_player == 3  # seat 2 finished 1st: seat 3 comes first after it
    state.apply(gift("tribute", "SB"))
    state.apply(gift("tribute", "SB"))
    sb = parse_cards("SB")[0]
    assert state.tributes == ((3, 2, sb), (1, 0, sb))
    state.apply(state.legal_actions()[0])  # seat 2 returns first, to seat 3
    state.apply(state.legal_actions()[0])  # then seat 0, to seat 1
    assert [entry[:2] for entry in state.backs] == [(2, 3), (0, 1)]
    assert state.current_player == 3


def test_the_4th_pays_the_1st_even_as_partners():
    state = round_after((0, 1, 3, 2), deal_of({2: "DA"}, fill_order=(2, 0, 1, 3)))
    assert state.current_player == 2
    state.apply(state.legal_actions()[0])
    assert state.tributes[0][:2] == (2, 0)
    state.apply(state.legal_actions()[0])
    assert state.phase == "play" and state.current_player == 2
