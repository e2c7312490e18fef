"""The competition platform's messages built from GuanDan states (``paiju.serve.platform_messages``)."""

from __future__ import annotations

import random

import pytest

from paiju import load_game
from paiju.games.guandan import PASS, Gift, GuanDanState, pack, parse_cards, play_from_platform
from paiju.games.guandan.cards import parse_card, parse_level
from paiju.serve import platform_messages as messages

ACT_KEYS = {"type", "stage", "handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos", "curAction",
            "greaterPos", "greaterAction", "actionList", "indexRange"}


def new_game(seed: int = 3) -> GuanDanState:
    return load_game("guandan").new_state(seed)


def lead_and_follow(state: GuanDanState) -> tuple[int, object]:
    """Let the seat to move lead its first legal play; return the leader and that play."""
    leader = state.current_player
    assert leader is not None
    lead = state.legal_actions()[0]
    state.apply(lead, leader)
    return leader, lead


def test_beginning_sorts_the_hand_and_names_the_seat() -> None:
    hand = pack(parse_cards("HR D2 S2 H9 SB"))
    assert messages.beginning(hand, 2) == {"type": "notify", "stage": "beginning",
                                           "handCards": ["S2", "D2", "H9", "SB", "HR"], "myPos": 2}


def test_first_act_of_a_game_shows_only_the_own_hand_and_no_trick() -> None:
    state = new_game()
    seat = state.current_player
    legal = state.legal_actions()
    act = messages.act(state.observation(seat), messages.EMPTY_PLAY_AREA, legal)
    assert set(act) == ACT_KEYS
    assert act["type"] == "act" and act["stage"] == "play"
    assert act["handCards"] == state.hand(seat)
    assert act["publicInfo"] == [{"rest": 27, "playArea": None}] * 4
    assert (act["curPos"], act["curAction"], act["greaterPos"], act["greaterAction"]) == (-1, None, -1, None)
    assert (act["selfRank"], act["oppoRank"], act["curRank"]) == ("2", "2", "2")
    assert act["actionList"] == [action.to_platform() for action in legal]
    assert act["indexRange"] == len(legal) - 1


def test_act_when_following_shows_the_play_to_beat_and_the_play_area() -> None:
    state = new_game()
    leader, lead = lead_and_follow(state)
    area = messages.next_play_area(messages.EMPTY_PLAY_AREA, leader, lead, state.greater is None)
    follower = state.current_player
    act = messages.act(state.observation(follower), area, state.legal_actions())
    assert (act["curPos"], act["curAction"]) == (leader, lead.to_platform())
    assert (act["greaterPos"], act["greaterAction"]) == (leader, lead.to_platform())
    assert act["publicInfo"][leader] == {"rest": 27 - lead.size, "playArea": lead.to_platform()}
    assert act["publicInfo"][follower]["playArea"] is None
    assert act["actionList"][0] == ["PASS", "PASS", "PASS"]


def test_an_act_leading_a_new_trick_names_no_current_or_greater_play() -> None:
    state = new_game()
    area = messages.EMPTY_PLAY_AREA
    while not (state.history and state.greater is None):
        seat = state.current_player
        action = state.legal_actions()[0]  # a lead, then three passes
        state.apply(action, seat)
        area = messages.next_play_area(area, seat, action, state.greater is None)
    assert state.history[-1][1] == PASS  # the trick ended on the last pass
    act = messages.act(state.observation(state.current_player), area, state.legal_actions())
    assert (act["curPos"], act["curAction"], act["greaterPos"], act["greaterAction"]) == (-1, None, -1, None)
    assert act["publicInfo"] == [{"rest": rest, "playArea": None} for rest in state.observation(0).cards_left]
    assert "PASS" not in {action[0] for action in act["actionList"]}


def test_an_act_to_give_a_tribute_or_back_card_lists_gifts_only() -> None:
    state = load_game("guandan").new_state(3)
    rng = random.Random(3)
    for stage in ("tribute", "back"):
        while state.phase != stage:
            state.apply(rng.choice(state.legal_actions()))
        act = messages.act(state.observation(state.current_player), messages.EMPTY_PLAY_AREA, state.legal_actions())
        assert set(act) == ACT_KEYS and act["stage"] == stage
        assert (act["curPos"], act["curAction"], act["greaterPos"], act["greaterAction"]) == (-1, None, -1, None)
        assert act["actionList"] == [[stage, stage, [card]] for _, _, [card] in act["actionList"]]
        assert all(info["playArea"] is None and isinstance(info["rest"], int) for info in act["publicInfo"])
        assert [type(act[key]) for key in ("selfRank", "oppoRank", "curRank")] == [str] * 3


def test_play_notices_name_the_highest_play_of_the_trick() -> None:
    single = play_from_platform(["Single", "5", ["S5"]], None, parse_level("2"))
    assert messages.play(1, single, None) == {"type": "notify", "stage": "play", "curPos": 1,
                                              "curAction": ["Single", "5", ["S5"]], "greaterPos": 1,
                                              "greaterAction": ["Single", "5", ["S5"]]}
    passed = messages.play(2, PASS, (1, single))
    assert (passed["curPos"], passed["curAction"]) == (2, ["PASS", "PASS", "PASS"])
    assert (passed["greaterPos"], passed["greaterAction"]) == (1, ["Single", "5", ["S5"]])


def test_play_area_keeps_each_seats_last_move_until_the_trick_ends() -> None:
    single = play_from_platform(["Single", "5", ["S5"]], None, parse_level("2"))
    area = messages.next_play_area(messages.EMPTY_PLAY_AREA, 1, single, trick_over=False)
    area = messages.next_play_area(area, 2, PASS, trick_over=False)
    assert area == (None, ["Single", "5", ["S5"]], ["PASS", "PASS", "PASS"], None)
    assert messages.next_play_area(area, 3, PASS, trick_over=True) == messages.EMPTY_PLAY_AREA


def test_gift_and_anti_tribute_notices() -> None:
    assert messages.gifts("tribute", [(3, 0, parse_card("HA"))]) == {"type": "notify", "stage": "tribute",
                                                                    "result": [[3, 0, "HA"]]}
    assert messages.gifts("back", [(0, 3, parse_card("S5"))])["result"] == [[0, 3, "S5"]]
    assert messages.anti_tribute([1, 3]) == {"type": "notify", "stage": "anti-tribute", "antiNums": 2,
                                             "antiPos": [1, 3]}


def test_episode_game_and_match_endings() -> None:
    rest = [(1, pack(parse_cards("H2 C4"))), (3, pack(parse_cards("D7")))]
    assert messages.episode_over([2, 0, 1, 3], parse_level("A"), rest) == {
        "type": "notify", "stage": "episodeOver", "order": [2, 0, 1, 3], "curRank": "A",
        "restCards": [[1, ["H2", "C4"]], [3, ["D7"]]]}
    assert messages.game_over(1, 3) == {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 3}
    assert messages.game_result([0, 1, 0, None]) == {"type": "notify", "stage": "gameResult",
                                                     "victoryNum": [2, 1, 2, 1], "draws": [1, 1, 1, 1]}


def test_default_action_is_the_pass_when_legal_else_the_first() -> None:
    state = new_game()
    assert messages.default_index(state.legal_actions()) == 0
    lead_and_follow(state)
    legal = state.legal_actions()
    assert legal[messages.default_index(legal)] == PASS
    gifts = [Gift("tribute", card) for card in parse_cards("SA DA")]
    assert messages.default_index(gifts) == 0


def test_a_valid_answer_gives_its_index() -> None:
    assert messages.read_answer('{"actIndex": 0}', 0) == 0
    assert messages.read_answer(' {"actIndex": 7} ', 7) == 7


@pytest.mark.parametrize(("text", "problem"), [
    ("act 3", "not JSON"),
    ("[3]", "JSON object"),
    ('{"index": 3}', "JSON object"),
    ('{"actIndex": 3, "seat": 1}', "unknown keys ['seat']"),
    ('{"actIndex": 8}', "from 0 to indexRange (7)"),
    ('{"actIndex": -1}', "from 0 to indexRange (7)"),
    ('{"actIndex": true}', "got 'true'"),
    ('{"actIndex": 1.0}', "got '1.0'"),
    ('{"actIndex": "1"}', "must be an integer"),
    ("[" * 100_000, "nested too deeply"),
    ('{"actIndex": ' + "9" * 5000 + "}", "too many digits"),
    ('{"actIndex": 1e400}', "must be an integer"),
])
def test_a_bad_answer_is_refused_with_the_reason(text: str, problem: str) -> None:
    with pytest.raises(messages.AnswerError) as refusal:
        messages.read_answer(text, 7)
    assert problem in str(refusal.value)


def test_error_message() -> None:
    assert messages.error("no act is pending") == {"type": "error", "message": "no act is pending"}
