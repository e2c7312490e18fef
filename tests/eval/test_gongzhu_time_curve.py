"""A tiny run of the equal-time benchmark (``benchmarks/gongzhu_time_curve.py``, whose full runs measure): one
deal, a few milliseconds per decision, its JSON and PNG written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))
import gongzhu_time_curve


def test_the_curve_runs_end_to_end_and_writes_its_points_and_plot(tmp_path: Path, capsys) -> None:
    out, plot = tmp_path / "curve.json", tmp_path / "curve.png"
    gongzhu_time_curve.main(["--budgets", "2,4", "--deals", "1", "--seed", "5", "--agent", "search:worlds=2",
                             "--agent", "scrofazero:scenarios=4", "--out", str(out), "--plot", str(plot)])
    report = json.loads(out.read_text())
    assert report["command"].startswith("python benchmarks/gongzhu_time_curve.py --budgets 2,4")
    assert report["machine"]["cores"] and report["opponent"] == "mr-greed" and report["deals"] == 1
    assert [(row["agent"], row["budget_ms"]) for row in report["rows"]] == [
        ("search:worlds=2", 2), ("scrofazero:scenarios=4", 2), ("search:worlds=2", 4), ("scrofazero:scenarios=4", 4)]
    for row in report["rows"]:
        assert row["spec"] == f"{row['agent']},ms={row['budget_ms']}" and row["deals"] == 1
        assert row["decisions"] > 0 and 0 < row["median_ms"] <= row["p90_ms"]
        assert set(row["points_per_game"]) == {"value", "se", "low", "high", "n"}
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert "| `scrofazero:scenarios=4,ms=4` | 4 |" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "mr-greed"], "'mr-greed' takes no time budget"),
    (["--agent", "search:sims=8"], "sets its own budget"),
    (["--budgets", "10,fast"], "--budgets must be whole milliseconds"),
    (["--budgets", "0"], "at least 1 ms"),
])
def test_agents_without_a_time_budget_and_bad_budgets_are_refused(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit):
        gongzhu_time_curve.main(argv)
    assert message in capsys.readouterr().err
