"""Promotion, the level of the next round, winning at A (paper rule, strict_a, a_attempts), payoffs."""

import pytest

from paiju.core.errors import PaijuError
from paiju.core.registry import register_game
from paiju.games.guandan import PASS, Deal, GuanDan, GuanDanRules, Standing, parse_level
from paiju.games.guandan.levels import ACE, settle

GAME = register_game(GuanDan())
A, K, Q = ACE, parse_level("K"), parse_level("Q")
FAST = Deal.from_hands([hand.split() for hand in [
    "H3 H3 S3 S3 C3 C3 D3 D3 H4 H4 S4 S4 C4 C4 D4 D4 H5 H5 S5 S5 C5 C5 D5 D5 S6 C6 D6",
    "H7 H7 S7 S7 C7 C7 D7 D7 H8 H8 S8 S8 C8 C8 D8 D8 H9 H9 S9 S9 C9 C9 D9 D9 ST CT DT",
    "HJ HJ SJ SJ CJ CJ DJ DJ HQ HQ SQ SQ CQ CQ DQ DQ HK HK SK SK CK CK DK DK SA CA DA",
    "H6 H6 S6 C6 D6 HT HT ST CT DT HA HA SA CA DA H2 H2 S2 S2 C2 C2 D2 D2 SB SB HR HR",
]])


def standing(levels: tuple[int, int], level: int | None = None, failures: tuple[int, int] = (0, 0)) -> Standing:
    return Standing(round_number=3, levels=levels, level=levels[0] if level is None else level, a_failures=failures,
                    team_scores=(1, -1), previous_order=(0, 1, 2, 3))


@pytest.mark.parametrize(("order", "gain"), [((0, 2, 1, 3), 3), ((0, 1, 2, 3), 2), ((0, 1, 3, 2), 1)])
def test_the_1st_players_team_goes_up_3_2_or_1_levels(order, gain):
    outcome = settle(standing((4, 6)), order, GuanDanRules())
    assert outcome.winners == 0 and outcome.promotion == gain and outcome.scores == (gain, -gain)
    assert outcome.after.levels == (4 + gain, 6) and outcome.after.level == 4 + gain
    assert outcome.after.team_scores == (1 + gain, -1 - gain) and outcome.after.previous_order == order
    assert outcome.after.round_number == 4 and not outcome.game_over and outcome.game_winner is None
    lost = settle(standing((4, 6)), (1, 3, 0, 2), GuanDanRules())
    assert lost.after.levels == (4, 9) and lost.after.level == 9 and lost.scores == (-3, 3)


def test_levels_stop_at_a():
    for start in (Q, K):
        outcome = settle(standing((start, 0)), (0, 2, 1, 3), GuanDanRules())
        assert outcome.after.levels == (A, 0) and not outcome.game_over


@pytest.mark.parametrize(("order", "paper", "strict"), [((0, 2, 1, 3), True, True), ((2, 1, 0, 3), True, False),
                                                         ((0, 1, 3, 2), False, False)])
def test_a_team_at_a_wins_with_its_partner_2nd_or_3rd(order, paper, strict):
    for rules, wins in ((GuanDanRules(), paper), (GuanDanRules(strict_a=True), strict)):
        outcome = settle(standing((A, 5)), order, rules)
        assert outcome.game_over == wins and outcome.game_winner == (0 if wins else None)
        if not wins:
            assert outcome.after.levels == (A, 5) and outcome.after.level == A and outcome.after.a_failures == (1, 0)


def test_winning_at_a_needs_a_round_played_at_a():
    outcome = settle(standing((A, 5), level=5), (0, 2, 1, 3), GuanDanRules())
    assert not outcome.game_over and outcome.after.level == A and outcome.after.a_failures == (0, 0)


def test_failed_attempts_at_a_drop_a_team_to_2():
    rules = GuanDanRules(a_attempts=2)
    first = settle(standing((A, 5)), (1, 3, 0, 2), rules)
    assert first.after.levels == (A, 8) and first.after.a_failures == (1, 0) and first.after.level == 8
    second = settle(standing((A, 5), level=A, failures=(1, 0)), (1, 0, 3, 2), rules)
    assert second.after.levels == (0, 7) and second.after.a_failures == (0, 0) and second.after.level == 7
    both = settle(standing((A, A), failures=(1, 0)), (0, 3, 1, 2), rules)
    assert both.after.levels == (0, A) and both.after.a_failures == (0, 1) and both.after.level == 0
    assert settle(standing((A, A)), (1, 0, 3, 2), GuanDanRules()).game_winner == 1


def test_a_fixed_number_of_rounds_ends_the_game():
    rules = GuanDanRules(rounds=4)
    assert settle(standing((2, 2)), (0, 1, 2, 3), rules).game_over
    assert not settle(standing((2, 2)), (0, 1, 2, 3), GuanDanRules(rounds=5)).game_over


def test_rules_parse_and_refuse():
    rules = GAME.rules_from_json({"rounds": 3, "start_level": "10", "a_attempts": 2, "strict_a": True})
    assert rules == GuanDanRules(rounds=3, start_level="T", a_attempts=2, strict_a=True)
    assert GuanDanRules.from_json(rules.to_json()) == rules and rules.start_rank == parse_level("T")
    for bad, message in [({"rounds": 0}, "rounds"), ({"start_level": "Z"}, "unknown level"),
                         ({"a_attempts": True}, "a_attempts"), ({"levels": 3}, "unknown GuanDan rule option")]:
        with pytest.raises(PaijuError, match=message):
            GAME.rules_from_json(bad)


def play_round(state, order: tuple[int, ...]) -> None:
    """Play the current round so that the seats finish in ``order``: the next seat due to finish plays its
    largest legal play, every other seat passes or, leading, plays its first legal play."""
    start = state.deal_number
    while not state.is_terminal() and state.deal_number == start:
        seat = state.current_player
        legal = state.legal_actions()
        due = next(s for s in order if s not in state.finished)
        if state.phase != "play":
            state.apply(legal[0])
        elif seat == due:
            state.apply(max(legal, key=lambda play: play.size))
        else:
            state.apply(PASS if PASS in legal else legal[0])
    assert tuple(state.rounds[-1].outcome.order[:len(order)]) == order


@pytest.mark.parametrize(("order", "wins"), [((0, 2), True), ((0, 1, 2), True), ((0, 1, 3), False)])
def test_a_game_at_a_ends_with_a_win_at_a(order, wins):
    state = GAME.from_deals([FAST], GuanDanRules(), Standing(round_number=0, levels=(A, K), level=A), seed=1)
    play_round(state, order)
    assert state.is_terminal() == wins
    if wins:
        assert state.payoffs() == [1.0, -1.0, 1.0, -1.0] and state.result()["winner"] == 0
        assert state.result()["rounds"][0]["order"][:len(order)] == list(order)
    else:
        assert state.deal_number == 1 and state.level == A and state.observation(0).a_failures == (1, 0)


def test_a_full_game_to_a_and_its_payoffs():
    state = GAME.from_deals([FAST, FAST], GuanDanRules(start_level="Q"))
    play_round(state, (0, 2))
    assert state.anti == (3,) and state.current_player == 0  # seat 3 holds both big jokers: no tribute
    assert state.level == A and state.observation(1).oppo_level == A
    play_round(state, (0, 2))
    result = state.result()
    assert state.payoffs() == [1.0, -1.0, 1.0, -1.0] and result["winner"] == 0
    assert result["levels"] == ["A", "Q"] and result["team_scores"] == [6, -6]
    assert [entry["level"] for entry in result["rounds"]] == ["Q", "A"]
    assert [entry["anti_tribute"] for entry in result["rounds"]] == [[], [3]]
