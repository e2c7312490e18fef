import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import paiju.agents
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.eval.gongzhu import (
    WPG_DEALS,
    WPG_OPPONENT,
    GongzhuEvalConfig,
    GongzhuEvalReport,
    evaluate_gongzhu,
    rotated_deal,
    wpg_config,
)
from paiju.eval.intransitivity import intransitivity
from paiju.eval.matrix import MatrixConfig, score_matrix
from paiju.eval.team_duplicate import DealOutcome, DuplicateSummary
from paiju.eval.timing import DecisionTimes
from paiju.games.gongzhu import RANKS, GongzhuObservation


def rank(card: str) -> int:
    return RANKS.index(card[1:])


class Ducker(Agent):
    """Plays under: leads its lowest card; follows with its highest card below the trick's best, or its lowest;
    when void dumps SQ, then its highest heart, then its highest card but DJ and C10. Far stronger than random."""

    def act(self, observation: GongzhuObservation, legal: Sequence[str]) -> str:
        led = observation.led_suit
        if led is None:
            return min(legal, key=rank)
        if legal[0][0] == led:
            best = max((card for _, card in observation.trick if card[0] == led), key=rank)
            under = [card for card in legal if rank(card) < rank(best)]
            return max(under, key=rank) if under else min(legal, key=rank)
        if "SQ" in legal:
            return "SQ"
        hearts = [card for card in legal if card[0] == "H"]
        return max(hearts or [card for card in legal if card not in ("DJ", "C10")] or legal, key=rank)


class FirstCard(Agent):
    def act(self, observation: Any, legal: Sequence[str]) -> str:
        return legal[0]


@pytest.fixture(autouse=True)
def test_agents(monkeypatch: pytest.MonkeyPatch) -> None:
    paiju.agents.agent_names("gongzhu")  # load the built-in agents before adding the test ones
    monkeypatch.setitem(paiju.agents._FACTORIES, ("gongzhu", "test-ducker"), lambda argument, seed: Ducker())
    monkeypatch.setitem(paiju.agents._FACTORIES, ("gongzhu", "test-first"), lambda argument, seed: FirstCard())


def figures(report: GongzhuEvalReport) -> dict[str, Any]:
    """The report's JSON less what the machine decides: wall and decision times, workers."""
    result = report.to_json()
    del result["wall_time_s"], result["decision_times"], result["config"]["workers"]
    return result


def evaluate(agent_a: str, agent_b: str, deals: int = 30, seed: int = 3, workers: int = 1,
             ms: int | None = None) -> GongzhuEvalReport:
    return evaluate_gongzhu(GongzhuEvalConfig(agent_a, agent_b, deals=deals, seed=seed, workers=workers, ms=ms),
                            progress=False)


# -- duplicate evaluation ------------------------------------------------------------------------------


def test_rotated_deal_moves_every_hand_and_the_first_lead_one_seat_on() -> None:
    dealt, rotated = rotated_deal(99, 0), rotated_deal(99, 1)
    assert [rotated.observation((seat + 1) % 4).hand for seat in range(4)] == \
        [dealt.observation(seat).hand for seat in range(4)]
    assert (dealt.current_player, rotated.current_player) == (0, 1)


def test_same_seed_gives_identical_reports_for_any_number_of_workers() -> None:
    one, two = evaluate("random", "random", deals=40, workers=1), evaluate("random", "random", deals=40, workers=2)
    assert json.dumps(figures(one), sort_keys=True) == json.dumps(figures(two), sort_keys=True)
    assert one.outcomes == two.outcomes
    assert [o.results for o in evaluate("random", "random", deals=40, seed=4).outcomes] != \
        [o.results for o in one.outcomes]


def test_an_agent_against_itself_scores_exactly_zero_on_every_deal_pair() -> None:
    # Agents are seeded by the hand they hold, so the rotated game replays the first from the other side.
    report = evaluate("random", "random", deals=50)
    assert all(outcome.pair == 0 for outcome in report.outcomes)
    assert any(outcome.results[0] != 0 for outcome in report.outcomes)
    summary = report.summary
    assert (summary.per_game.value, summary.per_game.se) == (0, 0)
    assert summary.pairs_record.draws == 50
    assert summary.as_dealt.value == -summary.rotated.value


def test_a_stronger_partnership_wins_clearly_and_the_figures_agree() -> None:
    report = evaluate("test-ducker", "random", deals=60)
    summary = report.summary
    assert summary.per_game.low > 0
    assert summary.games_record.wins > summary.games_record.losses
    assert summary.per_deal_pair.value == pytest.approx(2 * summary.per_game.value)
    assert summary.per_deal_pair.se == pytest.approx(2 * summary.per_game.se)
    assert (summary.as_dealt.value + summary.rotated.value) / 2 == pytest.approx(summary.per_game.value)
    record = summary.games_record
    assert record.wins + record.draws + record.losses == summary.games == 120


def test_swapping_the_partnerships_negates_every_deal_pair() -> None:
    forward, backward = evaluate("test-ducker", "random"), evaluate("random", "test-ducker")
    assert [o.pair for o in forward.outcomes] == [-o.pair for o in backward.outcomes]


def test_report_json_and_table() -> None:
    report = evaluate("test-first", "random", deals=5)
    result = json.loads(json.dumps(report.to_json()))
    assert result["config"] == {"agent_a": "test-first", "agent_b": "random", "deals": 5, "seed": 3, "workers": 1,
                                "backend": "local", "address": None, "ms": None}
    assert result["game"] == "gongzhu"
    assert result["wpg"] is None
    assert result["games"] == 10 and result["per_game"]["n"] == 5
    assert result["paiju_version"] and result["wall_time_s"] > 0
    assert result["seated"] == {"a": "test-first", "b": "random"} and result["time_budget"] is None
    for team in ("a", "b"):  # every decision with a choice, both games of every deal
        times = result["decision_times"][team]
        assert times["decisions"] == sum(len(o.decision_seconds["ab".index(team)]) for o in report.outcomes) > 5
        assert 0 <= times["median_ms"] <= times["p90_ms"]
    summary, times = report.table()
    assert summary.row_count == 6 and times.row_count == 2


def test_decision_times_are_the_median_and_nearest_rank_p90_of_decisions_with_a_choice() -> None:
    assert DecisionTimes.of([0.5, 0.125, 0.25, 0.375]) == DecisionTimes(4, 312.5, 500.0)
    assert DecisionTimes.of([i / 1000 for i in range(1, 11)]).p90_ms == pytest.approx(9.0)
    assert DecisionTimes.of([]) == DecisionTimes(0, None, None)
    outcomes = [DealOutcome(0, (0.0, 0.0), (), ((0.25, 0.75), ())), DealOutcome(1, (0.0, 0.0), (), ((0.5,), ()))]
    report = GongzhuEvalReport(GongzhuEvalConfig("random", "random"), DuplicateSummary.of(outcomes), tuple(outcomes),
                               1.0, "0")
    assert report.decision_times == (DecisionTimes(3, 500.0, 750.0), DecisionTimes(0, None, None))
    assert report.to_json()["decision_times"]["b"] == {"decisions": 0, "median_ms": None, "p90_ms": None}


def test_a_time_budget_goes_to_every_agent_that_takes_one_and_the_report_names_them() -> None:
    config = GongzhuEvalConfig("search:policy=mr-greed", "random", ms=40)
    assert config.seated == ("search:policy=mr-greed,ms=40", "random")
    assert GongzhuEvalConfig("scrofazero", "search", ms=5).seated == ("scrofazero:ms=5", "search:ms=5")
    assert GongzhuEvalConfig("scrofazero:ss", "mr-greed", ms=5).seated == ("scrofazero:ss,ms=5", "mr-greed")
    assert GongzhuEvalConfig("scrofazero:perfect", "mr-greed", ms=5).seated == ("scrofazero:perfect", "mr-greed")
    assert GongzhuEvalConfig("search", "random").seated == ("search", "random")
    report = evaluate("search:worlds=2", "random", deals=1, ms=2)
    result = json.loads(json.dumps(report.to_json()))
    assert result["config"]["ms"] == 2
    assert result["seated"] == {"a": "search:worlds=2,ms=2", "b": "random"}
    assert result["time_budget"] == {"ms": 2, "timed": ["search:worlds=2,ms=2"], "untimed": ["random"]}
    assert result["decision_times"]["a"]["decisions"] > 0
    summary, times = report.table()
    assert "A: search:worlds=2,ms=2" in "".join(summary.columns[0].cells)
    assert "2 ms per decision" in str(times.title) and "(no time budget)" in "".join(times.columns[1].cells)


@pytest.mark.parametrize(("agent", "ms", "message"), [
    ("search:sims=50", 10, r"'search:sims=50' sets its own budget \(sims=\), but ms=10 gives"),
    ("search:ms=5", 10, r"sets its own budget \(ms=\)"),
    ("scrofazero:ss,simulations=20", 10, r"sets its own budget \(simulations=\)"),
    ("random", 0, "ms must be a positive integer"),
    ("random", True, "ms must be a positive integer"),
])
def test_a_time_budget_beside_an_agent_s_own_or_a_bad_one_is_refused(agent: str, ms: Any, message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        GongzhuEvalConfig(agent, "random", ms=ms)


def test_wpg_is_two_copies_against_mr_greed_over_1024_deal_pairs() -> None:
    config = wpg_config("random", seed=5, workers=3)
    assert config == GongzhuEvalConfig("random", WPG_OPPONENT, deals=WPG_DEALS, seed=5, workers=3)
    assert (WPG_OPPONENT, WPG_DEALS) == ("mr-greed", 1024)
    assert config.is_wpg and not GongzhuEvalConfig("random", "mr-greed", deals=10).is_wpg
    outcomes = [DealOutcome(0, (80.0, -20.0)), DealOutcome(1, (40.0, 0.0))]
    report = GongzhuEvalReport(config, DuplicateSummary.of(outcomes), tuple(outcomes), 1.0, "0")
    assert report.wpg == report.to_json()["wpg"] == 25.0
    assert "WPG" in str(report.table()[0].title)


@pytest.mark.parametrize(("options", "message"), [
    ({"agent_a": ""}, "agent_a must be a non-empty agent spec"),
    ({"deals": 0}, "deals must be a positive integer"),
    ({"workers": True}, "workers must be a positive integer"),
    ({"seed": "1"}, "seed must be an integer"),
])
def test_bad_configurations_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        GongzhuEvalConfig(**{"agent_a": "random", "agent_b": "random", **options})


def test_unknown_agents_are_refused_before_play() -> None:
    with pytest.raises(PaijuError, match="unknown agent 'nobody' for gongzhu"):
        evaluate("random", "nobody")


# -- score matrix --------------------------------------------------------------------------------------


AGENTS = ("test-ducker", "random", "test-first")


def test_score_matrix_plays_every_pair_on_the_same_deals() -> None:
    report = score_matrix(MatrixConfig("gongzhu", AGENTS, deals=25, seed=8, bootstrap=200), progress=False)
    xi = report.xi
    assert np.array_equal(xi, -xi.T) and not np.any(np.diag(xi))
    for (i, j), summary in report.pairs.items():
        alone = evaluate(AGENTS[i], AGENTS[j], deals=25, seed=8).summary
        assert summary == alone
        assert xi[i, j] == pytest.approx(alone.per_game.value)
        assert report.se[i, j] == report.se[j, i] == pytest.approx(alone.per_game.se)
    assert xi[0, 1] > 0  # the ducker beats random
    assert report.intransitivity == pytest.approx(intransitivity(xi))
    assert report.bootstrap is not None and report.bootstrap.value == pytest.approx(report.intransitivity)
    assert report.bootstrap.low <= report.bootstrap.value <= report.bootstrap.high


def test_score_matrix_is_reproducible_and_serialisable() -> None:
    config = MatrixConfig("gongzhu", AGENTS, deals=10, seed=2, bootstrap=50)
    first, again = score_matrix(config, progress=False), score_matrix(config, progress=False)
    assert np.array_equal(first.xi, again.xi) and first.bootstrap == again.bootstrap
    result = json.loads(json.dumps(first.to_json()))
    assert result["agents"] == list(AGENTS)
    assert result["se"][0][0] is None and result["xi"][1][0] == -result["xi"][0][1]
    assert len(result["pairs"]) == 3 and result["pairs"][0]["a"] == "test-ducker"
    assert result["intransitivity_bootstrap"]["resamples"] == 50
    matrix, epsilon = first.table()
    assert matrix.row_count == 3 and epsilon.row_count == 1


def test_two_agents_have_a_matrix_but_no_intransitivity() -> None:
    report = score_matrix(MatrixConfig("gongzhu", ("random", "random:copy"), deals=5, bootstrap=0), progress=False)
    assert report.intransitivity is None and report.bootstrap is None
    assert report.xi[0, 1] == 0  # the same agent under another name: common random numbers cancel exactly
    matrix, epsilon = report.table()
    assert matrix.row_count == 2
    assert next(iter(epsilon.columns[0].cells)) == "needs three agents"


@pytest.mark.parametrize(("options", "message"), [
    ({"game": "doudizhu"}, "no duplicate score matrix for game 'doudizhu'"),
    ({"agents": ("random",)}, "at least two agents"),
    ({"agents": ("random", "random")}, "repeated: random"),
    ({"bootstrap": 1}, "bootstrap must be 0"),
    ({"deals": -1}, "deals must be a positive integer"),
])
def test_bad_matrix_configurations_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        MatrixConfig(**{"game": "gongzhu", "agents": ("random", "test-first"), **options})
