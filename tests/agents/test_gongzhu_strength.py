"""Mr. If and Mr. Greed against Mr. Random and each other over 64 duplicate deal pairs (ScrofaZero Table 2
ordering: Greed > If > Random). The full calibration, 1024 deals: benchmarks/gongzhu_baselines.py."""

import pytest

import paiju.agents
from paiju.agents.rules.gongzhu_greed import make_greed_agent
from paiju.agents.rules.gongzhu_if import make_if_agent
from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu

DEALS = 64


@pytest.fixture(autouse=True)
def baselines(monkeypatch: pytest.MonkeyPatch) -> None:
    paiju.agents.agent_names("gongzhu")  # load the built-in agents first
    monkeypatch.setitem(paiju.agents._FACTORIES, ("gongzhu", "mr-if"), make_if_agent)
    monkeypatch.setitem(paiju.agents._FACTORIES, ("gongzhu", "mr-greed"), make_greed_agent)


def per_game(agent_a: str, agent_b: str) -> tuple[float, float]:
    """Team A's mean points per game against team B, and its standard error, over DEALS deals × 2."""
    report = evaluate_gongzhu(GongzhuEvalConfig(agent_a, agent_b, deals=DEALS, seed=2024), progress=False)
    return report.summary.per_game.value, report.summary.per_game.se


@pytest.mark.parametrize(("agent_a", "agent_b", "at_least"), [
    ("mr-if", "random", 120.0),  # Table 2: +194; 1024 deals here: about +183
    ("mr-greed", "random", 200.0),  # Table 2: +275; 1024 deals here: about +274
    ("mr-greed", "mr-if", 20.0),  # Table 2: +80; 1024 deals here: about +76
])
def test_beats_by_a_clear_margin(agent_a: str, agent_b: str, at_least: float) -> None:
    value, se = per_game(agent_a, agent_b)
    assert value > at_least, f"{agent_a} vs {agent_b}: {value:+.1f} ± {se:.1f} per game"
