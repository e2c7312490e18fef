"""Gongzhu agents at equal time per decision, strength against milliseconds:
``python benchmarks/gongzhu_time_curve.py --budgets 10,30,100 --deals 128``.

For each budget X (milliseconds per decision, ``--budgets``) and each ``--agent`` (default ``scrofazero`` and
``search``; agents that take a time budget, ``paiju.eval.timing``), paiju's duplicate evaluation
(``paiju.eval.gongzhu``, ``GongzhuEvalConfig.ms``) of the agent with ``ms=X`` as team A's partners against two
``--opponent`` (default ``mr-greed``, ScrofaZero's yardstick) on the same ``--deals`` deals from ``--seed``:

- **strength**: team A's points per game with its 95 % t interval over the deals;
- **time**: team A's median and 90th-percentile decision time, measured during that evaluation (decisions with more
  than one legal card; the x axis of the plot), since a budget is a target that an agent may overshoot.

Budgets are the outer loop, so that a change in the machine's load during the run falls on every agent alike. It
prints a table and writes the figures as JSON (``--out``: each point's agent, budget, measured times, points per
game and interval, deals; with the command and the machine) and points per game against the measured median
milliseconds as a PNG (``--plot``: one line per agent, 95 % interval bars). The benchmark measures and prints; it
asserts no time. A time budget makes play depend on the machine's speed and load, so the points are not
reproducible from the seed alone; give each of ``--workers`` a core of its own.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from common import machine
from paiju.core.errors import PaijuError
from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu
from paiju.eval.timing import TIMED_AGENTS, timed_spec


def point(agent: str, budget: int, opponent: str, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """One evaluation of ``agent`` with ``budget`` ms per decision against ``opponent``: the JSON row."""
    report = evaluate_gongzhu(GongzhuEvalConfig(agent, opponent, deals=deals, seed=seed, workers=workers, ms=budget),
                              progress=False)
    times = report.decision_times[0]
    return {"agent": agent, "spec": report.config.seated[0], "budget_ms": budget, "median_ms": times.median_ms,
            "p90_ms": times.p90_ms, "decisions": times.decisions, "points_per_game": report.summary.per_game.to_json(),
            "deals": deals, "eval_seconds": report.wall_time_s}


def plot(rows: list[dict[str, Any]], opponent: str, path: Path) -> None:
    """Points per game (95 % interval bars) against the measured median ms per decision, one line per agent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    figure, axes = plt.subplots(figsize=(6.5, 4.2))
    for agent in dict.fromkeys(row["agent"] for row in rows):
        series = [row for row in rows if row["agent"] == agent]
        xs = [row["median_ms"] for row in series]
        points = [row["points_per_game"] for row in series]
        values = [each["value"] for each in points]
        below = [0.0 if each["low"] is None else each["value"] - each["low"] for each in points]
        above = [0.0 if each["high"] is None else each["high"] - each["value"] for each in points]
        axes.errorbar(xs, values, yerr=[below, above], marker="o", capsize=4, label=agent)
        for row, value in zip(series, values, strict=True):
            axes.annotate(f"ms={row['budget_ms']}", (row["median_ms"], value), textcoords="offset points",
                          xytext=(6, -12), fontsize=8)
    axes.axhline(0.0, color="grey", linewidth=0.8, linestyle="--")
    axes.legend(fontsize=8)
    axes.set_xscale("log")
    budgets = sorted({row["budget_ms"] for row in rows})
    axes.set_xticks(budgets, labels=[str(budget) for budget in budgets])
    axes.xaxis.set_minor_formatter(NullFormatter())
    axes.set_xlabel("measured median ms per decision (ticks: the budgets)")
    axes.set_ylabel(f"points per game against two {opponent}")
    axes.set_title(f"Gongzhu at equal time per decision ({rows[0]['deals']} deals × 2, 95 % intervals)", fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", default="10,30,100", help="milliseconds per decision, comma-separated")
    parser.add_argument("--agent", action="append", dest="agents", default=None,
                        help=f"an agent with a time budget ({', '.join(TIMED_AGENTS)}), options but no budget "
                             f"(repeat for several; default: scrofazero and search)")
    parser.add_argument("--opponent", default="mr-greed")
    parser.add_argument("--deals", type=int, default=128)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("gongzhu_time_curve.json"))
    parser.add_argument("--plot", type=Path, default=Path("gongzhu_time_curve.png"))
    args = parser.parse_args(argv)
    try:
        budgets = [int(text) for text in args.budgets.split(",")]
    except ValueError:
        parser.error(f"--budgets must be whole milliseconds separated by commas, got {args.budgets!r}")
    if any(budget < 1 for budget in budgets):
        parser.error(f"--budgets must be at least 1 ms each, got {args.budgets!r}")
    agents = args.agents or ["scrofazero", "search"]
    for spec in agents:
        try:
            timed = timed_spec(spec, budgets[0])
        except PaijuError as error:
            parser.error(str(error))
        if timed == spec:
            parser.error(f"{spec!r} takes no time budget; an --agent is one of {', '.join(TIMED_AGENTS)}")
    rows = []
    for budget in budgets:
        for agent in agents:
            row = point(agent, budget, args.opponent, args.deals, args.seed, args.workers)
            rows.append(row)
            figure = row["points_per_game"]
            print(f"{row['spec']}: median {row['median_ms']:.1f} ms, p90 {row['p90_ms']:.1f} ms; "
                  f"{figure['value']:+.1f} points per game ({args.deals} deals, {row['eval_seconds']:.0f} s)",
                  flush=True)
    command = ["python", f"benchmarks/{Path(__file__).name}", *(sys.argv[1:] if argv is None else argv)]
    report = {"machine": machine(), "command": shlex.join(command),
              "opponent": args.opponent, "seed": args.seed, "deals": args.deals, "workers": args.workers,
              "measure": f"team A's points per game against two {args.opponent}", "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    plot(rows, args.opponent, args.plot)
    print("| agent | budget ms | median ms | p90 ms | points per game | 95 % interval |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        figure = row["points_per_game"]
        interval = "-" if figure["low"] is None else f"[{figure['low']:+.1f}, {figure['high']:+.1f}]"
        print(f"| `{row['spec']}` | {row['budget_ms']} | {row['median_ms']:.1f} | {row['p90_ms']:.1f} "
              f"| {figure['value']:+.1f} | {interval} |")
    print(f"written: {args.out}, {args.plot}")


if __name__ == "__main__":
    main()
