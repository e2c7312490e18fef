"""Round flow: dealing, tricks, 接风, skipping finished seats, refusals, records, rotation, observations."""

import json
import random

import pytest

from paiju.core.errors import IllegalActionError, PaijuError, RecordError
from paiju.core.registry import register_game
from paiju.games.guandan import PASS, ComboType, Deal, Gift, GuanDan, GuanDanRules, Standing, pack, parse_cards
from paiju.games.guandan.cards import UNIT
from paiju.games.guandan.combos import make_play
from paiju.games.guandan.deal import HAND_SIZE, holds

GAME = register_game(GuanDan())
FAST_HANDS = [
    "H3 H3 S3 S3 C3 C3 D3 D3 H4 H4 S4 S4 C4 C4 D4 D4 H5 H5 S5 S5 C5 C5 D5 D5 S6 C6 D6",
    "H7 H7 S7 S7 C7 C7 D7 D7 H8 H8 S8 S8 C8 C8 D8 D8 H9 H9 S9 S9 C9 C9 D9 D9 ST CT DT",
    "HJ HJ SJ SJ CJ CJ DJ DJ HQ HQ SQ SQ CQ CQ DQ DQ HK HK SK SK CK CK DK DK SA CA DA",
    "H6 H6 S6 C6 D6 HT HT ST CT DT HA HA SA CA DA H2 H2 S2 S2 C2 C2 D2 D2 SB SB HR HR",
]
"""Seats 0-2 each hold three 8-card bombs and a trips: played out in four plays."""
FAST = Deal.from_hands([hand.split() for hand in FAST_HANDS])


def fast_game(rules: GuanDanRules | None = None, leader: int = 0) -> object:
    standing = Standing.opening(rules or GuanDanRules(), leader)
    return GAME.from_deals([FAST], rules, standing)


def act(state, *texts: str) -> None:
    """Apply actions typed as card names (``pass`` to pass)."""
    for text in texts:
        state.apply(GAME.parse_action_text(state, text))


def test_a_new_game_deals_27_cards_each_and_a_seeded_seat_leads():
    leaders = set()
    for seed in range(12):
        state = GAME.new_state(seed)
        assert state.phase == "play" and state.deal_number == 0 and state.level == 0
        assert [len(state.hand(seat)) for seat in range(4)] == [HAND_SIZE] * 4
        assert sorted(card for seat in range(4) for card in state.hand(seat)) == sorted(
            name for hand in FAST_HANDS for name in hand.split())
        assert PASS not in state.legal_actions()
        leaders.add(state.current_player)
    assert leaders == {0, 1, 2, 3}


def test_same_seed_same_game_and_rotation_moves_hands_and_leader():
    a, b = GAME.new_state(9), GAME.new_state(9)
    assert a.to_record() == b.to_record() and a.to_record() != GAME.new_state(10).to_record()
    for shift in (1, 2, 3):
        rotated = GAME.rotated_state(9, None, shift)
        assert [rotated.hand((seat + shift) % 4) for seat in range(4)] == [a.hand(seat) for seat in range(4)]
        assert rotated.current_player == (a.current_player + shift) % 4
        assert rotated.to_record()["rotation"] == shift


def test_a_trick_ends_when_the_others_pass_and_its_last_player_leads():
    state = fast_game()
    act(state, "S6 C6 D6", "pass")
    assert state.current_player == 2 and state.greater[0] == 0
    act(state, "HJ HJ SJ SJ CJ CJ DJ DJ", "pass", "pass")
    assert state.current_player == 1 and state.greater[0] == 2
    act(state, "pass")
    assert state.current_player == 2 and state.greater is None
    assert state.legal_actions()[0] != PASS and PASS not in state.legal_actions()


def test_the_partner_leads_after_a_finisher_wins_the_trick():
    state = fast_game()
    act(state, "S6 C6 D6", "pass", "pass", "pass",
        "H3 H3 S3 S3 C3 C3 D3 D3", "pass", "pass", "pass",
        "H4 H4 S4 S4 C4 C4 D4 D4", "pass", "pass", "pass",
        "H5 H5 S5 S5 C5 C5 D5 D5")
    assert state.finished == [0] and state.current_player == 1
    act(state, "pass", "pass")
    assert state.current_player == 3
    act(state, "pass")
    assert state.current_player == 2 and state.greater is None  # 接风: seat 0's partner leads
    observation = state.observation(1)
    assert observation.finished == (0,) and observation.cards_left == (0, 27, 27, 27)


def test_finished_seats_are_skipped_and_need_no_pass():
    state = fast_game()
    act(state, "S6 C6 D6", "pass", "pass", "pass",
        "H3 H3 S3 S3 C3 C3 D3 D3", "pass", "pass", "pass",
        "H4 H4 S4 S4 C4 C4 D4 D4", "pass", "pass", "pass",
        "H5 H5 S5 S5 C5 C5 D5 D5",
        "H7 H7 S7 S7 C7 C7 D7 D7")  # seat 1 beats the finisher's last bomb
    assert state.current_player == 2
    act(state, "pass", "pass")  # seats 2 and 3 pass: seat 0 has finished and is not asked
    assert state.current_player == 1 and state.greater is None
    act(state, "ST CT DT")
    assert state.current_player == 2
    act(state, "pass")
    assert state.current_player == 3
    act(state, "pass")
    assert state.current_player == 1 and state.greater is None


def test_the_round_ends_when_both_partners_have_finished():
    state = fast_game(GuanDanRules(rounds=1))
    act(state, "S6 C6 D6", "pass", "pass", "pass",
        "H3 H3 S3 S3 C3 C3 D3 D3", "pass", "pass", "pass",
        "H4 H4 S4 S4 C4 C4 D4 D4", "pass", "pass", "pass",
        "H5 H5 S5 S5 C5 C5 D5 D5", "pass", "pass", "pass",
        "SA CA DA", "pass", "pass",
        "HJ HJ SJ SJ CJ CJ DJ DJ", "pass", "pass",
        "HQ HQ SQ SQ CQ CQ DQ DQ", "pass", "pass")
    assert not state.is_terminal()
    act(state, "HK HK SK SK CK CK DK DK")
    assert state.is_terminal() and state.current_player is None and state.legal_actions() == []
    result = state.result()
    assert result["payoffs"] == [3.0, -3.0, 3.0, -3.0]
    assert result["rounds"][0]["order"] == [0, 2, 3, 1] and result["rounds"][0]["levels"] == ["5", "2"]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(PASS)


def test_the_next_round_is_dealt_at_once_with_the_winners_level():
    state = fast_game(GuanDanRules(rounds=2))
    act(state, "S6 C6 D6", "pass", "pass", "pass",
        "H3 H3 S3 S3 C3 C3 D3 D3", "pass", "pass", "pass",
        "H4 H4 S4 S4 C4 C4 D4 D4", "pass", "pass", "pass",
        "H5 H5 S5 S5 C5 C5 D5 D5", "pass", "pass", "pass",
        "SA CA DA", "pass", "pass",
        "HJ HJ SJ SJ CJ CJ DJ DJ", "pass", "pass",
        "HQ HQ SQ SQ CQ CQ DQ DQ", "pass", "pass",
        "HK HK SK SK CK CK DK DK")
    assert state.deal_number == 1 and state.level == 3 and len(state.deals) == 2
    assert [len(state.hand(seat)) for seat in range(4)] == [HAND_SIZE] * 4
    observation = state.observation(1)
    assert observation.round_number == 1 and observation.history == () and observation.previous_order == (0, 2, 3, 1)
    assert (observation.self_level, observation.oppo_level) == (0, 3) and observation.team_scores == (3, -3)
    assert state.phase in ("tribute", "play")


def refused_actions(state) -> list[tuple[object, str]]:
    """Actions seat 0 may not take as the first leader of ``fast_game``, and the words their refusal uses."""
    trips = parse_cards("H3 S3 C3")
    return [
        (PASS, "leads the trick and may not pass"),
        (state.action_from_json(["Pair", "6", ["S6", "S6"]]), "does not hold S6 S6"),
        (make_play(ComboType.TRIPS, 2, trips), "is not a reading of its cards"),
        (Gift("tribute", trips[0]), "must play a combination"),
        ("S6", "must play a combination"),
    ]


def test_refusals_name_the_problem_and_change_nothing():
    state = fast_game()
    before = state.to_record()
    for action, message in refused_actions(state):
        with pytest.raises(IllegalActionError, match=message):
            state.apply(action)
        assert state.to_record() == before and state.invariant_errors() == []


def test_a_play_that_does_not_beat_names_both_plays_in_platform_form():
    state = fast_game()
    act(state, "H3 H3 S3 S3 C3 C3 D3 D3")
    before = state.to_record()
    with pytest.raises(IllegalActionError) as error:
        state.apply(state.action_from_json(["Trips", "7", ["H7", "S7", "C7"]]))
    assert "['Trips', '7', ['H7', 'S7', 'C7']] does not beat" in str(error.value)
    assert "['Bomb', '3', ['H3', 'H3', 'S3', 'S3', 'C3', 'C3', 'D3', 'D3']] played by seat 0" in str(error.value)
    with pytest.raises(IllegalActionError, match="out of turn"):
        state.apply(PASS, seat=3)
    assert state.to_record() == before


def test_every_legal_action_is_held_and_round_trips_through_json():
    state = GAME.new_state(4)
    rng = random.Random(4)
    for _ in range(40):
        seat = state.current_player
        hand = state.hands[seat]
        for action in state.legal_actions():
            assert holds(hand, action.packed)
            assert state.action_from_json(json.loads(json.dumps(GAME.action_to_json(action)))) == action
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], seat=seat)


def test_observations_hide_other_hands_and_follow_the_protocol():
    state = GAME.new_state(2)
    rng = random.Random(2)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    observation = state.observation(1)
    encoded = observation.to_json()
    assert set(encoded) == {"hand", "level", "self_level", "oppo_level", "history", "greater", "cards_left",
                            "finished", "round", "previous_order", "tribute", "back", "anti_tribute"}
    assert encoded["hand"] == state.hand(1) and encoded["level"] == "2"
    assert all(len(entry) == 2 and len(entry[1]) == 3 for entry in encoded["history"])
    assert observation.partner == 3 and observation.hand_cards == parse_cards(state.hand(1))
    other = GAME.determinize(observation, random.Random(5))
    assert other.observation(1) == observation
    assert [other.hand(seat) for seat in (0, 2, 3)] != [state.hand(seat) for seat in (0, 2, 3)]


def test_records_replay_and_name_the_first_bad_action():
    state = GAME.new_state(6, GuanDanRules(rounds=2))
    rng = random.Random(6)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "guandan" and len(record["deals"]) == 2 and record["result"]["payoffs"]
    assert GAME.from_record(record).to_record() == record
    partial = dict(record, actions=record["actions"][:50])
    del partial["result"]
    partial["deals"] = record["deals"][:1]
    assert GAME.from_record(partial).to_record() == partial
    broken = json.loads(json.dumps(record))
    broken["actions"][3][0] = (broken["actions"][3][0] + 1) % 4
    with pytest.raises(RecordError, match=r"action 3 .* does not replay: seat \d acted out of turn"):
        GAME.from_record(broken)
    with pytest.raises(RecordError, match="not a GuanDan record"):
        GAME.from_record({"game": "doudizhu"})
    with pytest.raises(RecordError, match="disagrees"):
        GAME.from_record(dict(record, result={"payoffs": [9, 9, 9, 9]}))


def test_a_game_from_given_deals_draws_later_deals_from_its_seed():
    a = GAME.from_deals([FAST], GuanDanRules(rounds=2), seed=3)
    assert a.hands == list(FAST.hands)
    with pytest.raises(PaijuError):
        Deal.from_hands([hand.split() for hand in FAST_HANDS[:3]] + [FAST_HANDS[3].split()[:-1]])
    assert pack(parse_cards(FAST_HANDS[0])) == FAST.hands[0]


def test_typed_actions():
    state = fast_game()
    assert GAME.parse_action_text(state, "S6 C6 D6") == state.action_from_json(["Trips", "6", ["S6", "C6", "D6"]])
    with pytest.raises(IllegalActionError, match="no legal play"):
        GAME.parse_action_text(state, "S6 HA")
    with pytest.raises(IllegalActionError, match="not JSON"):
        GAME.parse_action_text(state, "[oops")
    assert GAME.parse_action_text(state, '["Trips", "6", ["S6", "C6", "D6"]]').type.platform == "Trips"


def test_a_finished_game_determinizes_to_a_finished_game():
    state = GAME.new_state(8, GuanDanRules(rounds=2))
    rng = random.Random(8)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.phase == "over" and observation.to_move is None and observation.round_number == 1
        other = GAME.determinize(observation, random.Random(seat))
        assert other.is_terminal() and other.observation(seat) == observation and other.payoffs() == state.payoffs()


def test_invariant_errors_report_lost_and_extra_cards():
    state = GAME.new_state(1)
    assert state.invariant_errors() == []
    single = next(card for card in range(54) if (state.hands[0] >> (2 * card)) & 3 == 1)
    state.hands[0] += UNIT[single]  # a second copy of a card seat 0 holds once: a third copy in all
    problems = state.invariant_errors()
    assert any(problem.startswith("cards not conserved") for problem in problems)
    assert any("hand sizes [28, 27, 27, 27]" in problem for problem in problems)
