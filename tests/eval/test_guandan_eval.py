"""GuanDan duplicate evaluation: reproducible for any number of workers, counts add up, a better team wins."""

import pytest

from paiju.agents import register_agent
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.eval.guandan import OUTCOMES, GuanDanEvalConfig, evaluate_guandan


class MostCards(Agent):
    """Sheds as many cards as it can each turn, never passes when it can play (a test baseline)."""

    name = "most-cards"

    def act(self, observation, legal):
        return max(legal, key=lambda action: getattr(action, "size", 0))


register_agent("guandan", "most-cards", lambda argument, seed: MostCards())


def without_time_and_workers(report):
    data = report.to_json()
    data.pop("wall_time_s")
    data["config"].pop("workers")
    return data


def test_same_seed_same_report_with_one_or_two_workers():
    one = evaluate_guandan(GuanDanEvalConfig("random", "random", deals=6, seed=4, workers=1, rounds=1), False)
    two = evaluate_guandan(GuanDanEvalConfig("random", "random", deals=6, seed=4, workers=2, rounds=1), False)
    assert without_time_and_workers(one) == without_time_and_workers(two)


def test_an_agent_against_itself_scores_exactly_zero_and_counts_add_up():
    report = evaluate_guandan(GuanDanEvalConfig("random", "random", deals=5, seed=1, rounds=2), progress=False)
    assert report.games == 10
    assert report.rounds == sum(report.outcomes.values()) == 20
    assert set(report.outcomes) <= set(OUTCOMES)
    assert report.round_result.value == 0
    assert report.levels_gained[0].value == pytest.approx(report.levels_gained[1].value)
    single = evaluate_guandan(GuanDanEvalConfig("random", "random", deals=5, seed=1, rounds=1), progress=False)
    assert single.game_wins.value == pytest.approx(0.5)  # one round: no draws, and every deal pair cancels


def test_a_better_team_wins_more_rounds():
    report = evaluate_guandan(GuanDanEvalConfig("most-cards", "random", deals=25, seed=2, rounds=1), False)
    assert report.round_result.value > 0.5
    assert report.game_wins.value > 0.6


def test_bad_configurations_are_refused():
    with pytest.raises(PaijuError, match="deals must be a positive integer"):
        GuanDanEvalConfig("random", "random", deals=0)
    with pytest.raises(PaijuError, match="rounds"):
        GuanDanEvalConfig("random", "random", rounds=0)
