"""Game flow: bidding, redeals, trick control, scoring (bombs, spring, anti-spring), refusals."""

import random

import pytest

import paiju
from paiju.core.errors import IllegalActionError, RecordError
from paiju.games.doudizhu import Deal, DouDizhuRules, parse_cards, parse_move
from paiju.games.doudizhu.cards import FULL_DECK

GAME = paiju.load_game("doudizhu")
FULL = DouDizhuRules(mode="full")


def deal(seat0: str, seat1: str, public: str, first: int = 0) -> Deal:
    """A deal with seat 2 holding the rest of the deck."""
    held = [a + b + c for a, b, c in zip(parse_cards(seat0), parse_cards(seat1), parse_cards(public), strict=True)]
    seat2 = tuple(n - h for n, h in zip(FULL_DECK, held, strict=True))
    return Deal((tuple(parse_cards(seat0)), tuple(parse_cards(seat1)), seat2), tuple(parse_cards(public)), first)


SHORT = deal("3456789TJQKA2222B", "33445566778899TTJ", "JQK")


def play(state, *moves: str) -> None:
    for text in moves:
        state.apply(state.action_from_json(text))


def test_research_mode_seat_zero_is_landlord_and_leads():
    state = GAME.from_deal(SHORT)
    assert state.phase == "play" and state.landlord == 0 and state.current_player == 0
    assert sum(state.hands[0]) == 20 and state.observation(1).public == tuple(parse_cards("JQK"))


def test_bidding_highest_bidder_becomes_landlord():
    state = GAME.from_deal(deal("3456789TJQKA2222B", "33445566778899TTJ", "JQK", first=1), FULL)
    assert state.phase == "bid" and state.current_player == 1
    assert state.legal_actions() == [0, 1, 2, 3]
    state.apply(1)
    assert state.legal_actions() == [0, 2, 3]
    with pytest.raises(IllegalActionError, match="not above the highest bid"):
        state.apply(1)
    state.apply(0)
    state.apply(2)
    assert state.phase == "play" and state.landlord == 0 and state.bid == 2 and state.current_player == 0
    assert sum(state.hands[0]) == 20


def test_a_bid_of_three_ends_bidding_at_once():
    state = GAME.new_state(5, FULL)
    first = state.current_player
    state.apply(3)
    assert state.landlord == first and state.phase == "play"


def test_all_pass_redeals_from_the_seed():
    state = GAME.new_state(11, FULL)
    first_deal = state.deals[0]
    for _ in range(3):
        state.apply(0)
    assert state.phase == "bid" and state.deal_number == 1 and state.deals[1] != first_deal
    again = GAME.new_state(11, FULL)
    for _ in range(3):
        again.apply(0)
    assert again.deals == state.deals


def test_cannot_pass_when_leading_and_must_beat_when_following():
    state = GAME.from_deal(SHORT)
    with pytest.raises(IllegalActionError, match="leads and may not pass"):
        state.apply(state.action_from_json(""))
    play(state, "3")
    with pytest.raises(IllegalActionError, match="does not beat"):
        state.apply(state.action_from_json("33"))
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply(parse_move("B", state.rules, state.follow))


def test_refused_actions_change_nothing():
    state = GAME.new_state(3, FULL)
    before = state.to_record()
    for bad in (7, -1, True, "33", None):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    with pytest.raises(IllegalActionError, match="out of turn"):
        state.apply(0, seat=(state.current_player + 1) % 3)
    assert state.to_record() == before


def test_control_returns_after_two_passes():
    state = GAME.from_deal(SHORT)
    play(state, "2222", "", "")
    assert state.current_player == 0 and state.follow is None
    assert state.bombs == 1 and state.multiplier == 2


def test_the_landlord_wins_with_a_bomb_in_research_mode():
    state = GAME.from_deal(SHORT)
    play(state, "2222", "", "", "3456789TJQKA", "", "", "J", "", "", "Q", "", "", "K", "", "", "B")
    assert state.is_terminal() and state.winner == 0
    assert state.result()["winner"] == "landlord" and state.payoffs() == [4.0, -2.0, -2.0]


def finish_quickly(state, rng: random.Random) -> None:
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("seed", range(30))
def test_payoffs_follow_the_scoring_rules(seed):
    for rules in (DouDizhuRules(), FULL):
        state = GAME.new_state(seed, rules)
        finish_quickly(state, random.Random(seed))
        payoffs = state.payoffs()
        result = state.result()
        landlord = state.landlord
        score = state.bid * 2 ** (state.bombs + state.spring)
        sign = 1 if result["winner"] == "landlord" else -1
        assert payoffs[landlord] == 2 * sign * score
        assert all(payoffs[s] == -sign * score for s in range(3) if s != landlord)
        assert sum(payoffs) == 0
        if rules.mode == "research":
            assert not state.spring


def test_spring_doubles_in_full_mode():
    # Seat 0 bids 3, then plays its whole hand in four plays nobody can beat.
    state = GAME.from_deal(deal("BR2222AAAAKKKKQQQ", "33334444555566667", "QJJ"), FULL)
    state.apply(3)
    play(state, "BR", "", "", "2222", "", "", "AAAA", "", "", "KKKK", "", "", "QQQQJJ")
    assert state.is_terminal() and state.spring and state.bombs == 4
    assert state.payoffs() == [2 * 3 * 32, -96, -96]


def test_anti_spring_doubles_in_full_mode():
    state = GAME.from_deal(deal("3456789TJQKA2BR22", "33445566778899TTJ", "KKK"), FULL)
    state.apply(1)
    state.apply(0)
    state.apply(0)
    play(state, "3", "J", "", "", "33445566778899TT")  # the landlord played once only
    assert state.is_terminal() and state.spring and state.winner == 1
    assert state.payoffs() == [-4.0, 2.0, 2.0]


def test_record_round_trip_and_bad_records():
    state = GAME.new_state(21, FULL)
    finish_quickly(state, random.Random(1))
    record = state.to_record()
    assert GAME.from_record(record).to_record() == record
    broken = {**record, "actions": [*record["actions"][:5], [0, "ZZ"]]}
    with pytest.raises(RecordError, match="action 5"):
        GAME.from_record(broken)
    with pytest.raises(RecordError, match="disagrees"):
        GAME.from_record({**record, "result": {**record["result"], "payoffs": [0, 0, 0]}})
    with pytest.raises(RecordError, match="not a DouDizhu record"):
        GAME.from_record({"game": "chess"})


def test_clone_is_independent():
    state = GAME.new_state(4)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.to_record()["actions"] == [] and len(copy.to_record()["actions"]) == 1


def test_determinize_keeps_what_the_seat_knows():
    rng = random.Random(0)
    state = GAME.new_state(8, FULL)
    for _ in range(25):
        state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    for seat in range(3):
        obs = state.observation(seat)
        sampled = GAME.determinize(obs, random.Random(seat))
        assert sampled.observation(seat).to_json() == obs.to_json()
        assert sampled.hands[seat] == state.hands[seat]
        assert sampled.invariant_errors() == []
