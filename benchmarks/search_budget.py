"""Strength of ``search`` against its game's baseline at several budgets, with the time each budget costs:
``python benchmarks/search_budget.py --game doudizhu --sims 50,100,200 --deals 100``.

For each simulation budget ``N`` (agent ``search:sims=N``, the game's other defaults) and each ``--options`` given
(a series: ``search:OPTIONS,sims=N``; e.g. ``--options "" --options "leaf=dmc,worlds=100"`` compares the defaults
with network leaves):

- **time**: the median milliseconds per decision over ``--positions`` play positions of baseline games
  (``search.py``'s positions and timing);
- **strength**: paiju's duplicate evaluation of ``search:sims=N`` against the baseline over ``--deals`` deals
  (DouDizhu: decks, role-swapped, A's duplicate score per deck; GuanDan: one-round games, A's game win rate;
  Gongzhu: points per game against two ``mr-greed``), with its 95 % interval.

It prints a table, writes the figures as JSON (``--out``) and strength against milliseconds as a PNG
(``--plot``). The benchmark measures and prints; it asserts nothing. Evaluations of a budget with
``--workers 2`` leave no core for the timing, so the timing runs first, alone.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Any

from common import machine
from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu
from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu
from paiju.eval.guandan import GuanDanEvalConfig, evaluate_guandan
from paiju.eval.stats import Estimate
from paiju.eval.team_duplicate import ScoreEstimate
from search import BASELINE, decision_times, positions

MEASURE = {"doudizhu": "A's duplicate score per deck vs rules", "guandan": "A's one-round game win rate vs rules",
           "gongzhu": "points per game vs two mr-greed"}


def strength(game: str, spec: str, deals: int, seed: int, workers: int) -> tuple[Estimate | ScoreEstimate, float]:
    """The evaluation's headline figure and its wall time in seconds."""
    baseline = BASELINE[game]
    if game == "doudizhu":
        report = evaluate_doudizhu(DouDizhuEvalConfig(spec, baseline, decks=deals, seed=seed, workers=workers),
                                   progress=False)
        return report.duplicate_score, report.wall_time_s
    if game == "guandan":
        guandan = evaluate_guandan(GuanDanEvalConfig(spec, baseline, deals=deals, seed=seed, workers=workers,
                                                     rounds=1), progress=False)
        return guandan.game_wins, guandan.wall_time_s
    gongzhu = evaluate_gongzhu(GongzhuEvalConfig(spec, baseline, deals=deals, seed=seed, workers=workers),
                               progress=False)
    return gongzhu.summary.per_game, gongzhu.wall_time_s


def plot(game: str, rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.5, 4.2))
    for options in dict.fromkeys(row["options"] for row in rows):
        series = [row for row in rows if row["options"] == options]
        xs = [row["median_ms"] for row in series]
        values = [row["strength"]["value"] for row in series]
        below = [row["strength"]["value"] - row["strength"]["low"] for row in series]
        above = [row["strength"]["high"] - row["strength"]["value"] for row in series]
        axes.errorbar(xs, values, yerr=[below, above], marker="o", capsize=4, label=options or "defaults")
        for row in series:
            axes.annotate(f"sims={row['sims']}", (row["median_ms"], row["strength"]["value"]),
                          textcoords="offset points", xytext=(6, -12), fontsize=8)
    if len({row["options"] for row in rows}) > 1:
        axes.legend(fontsize=7)
    axes.axhline(0.5 if game == "guandan" else 0.0, color="grey", linewidth=0.8, linestyle="--")
    axes.set_xscale("log")
    axes.set_xlabel("median ms per decision (one core)")
    axes.set_ylabel(MEASURE[game])
    axes.set_title(f"{game}: search strength against its budget ({rows[0]['deals']} deals, 95 % intervals)",
                   fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=tuple(BASELINE), default="doudizhu")
    parser.add_argument("--sims", default="50,100,200", help="simulation budgets, comma-separated")
    parser.add_argument("--options", action="append", default=None,
                        help="search options of a series, before sims= (repeat for several; default: none)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    budgets = [int(text) for text in args.sims.split(",")]
    runs = [(options, sims) for options in args.options or [""] for sims in budgets]
    specs = {run: "search:" + ",".join(part for part in (run[0], f"sims={run[1]}") if part) for run in runs}
    states = positions(args.game, args.positions, 5, args.seed)
    times = {run: decision_times(args.game, specs[run], states, profile=False) for run in runs}
    rows = []
    for run in runs:
        estimate, seconds = strength(args.game, specs[run], args.deals, args.seed, args.workers)
        rows.append({"options": run[0], "sims": run[1], "agent": specs[run], "deals": args.deals,
                     "median_ms": times[run]["median_ms"], "p90_ms": times[run]["p90_ms"],
                     "strength": estimate.to_json(), "eval_seconds": seconds})
        print(f"{specs[run]}: {times[run]['median_ms']:.0f} ms median, {MEASURE[args.game]} {estimate} "
              f"({args.deals} deals, {seconds:.0f} s)", flush=True)
    report = {"machine": machine(), "command": shlex.join(sys.argv), "game": args.game, "seed": args.seed,
              "measure": MEASURE[args.game], "rows": rows}
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    if args.plot:
        plot(args.game, rows, args.plot)
    print("| agent | median ms | p90 ms | " + MEASURE[args.game] + " | 95 % interval |")
    print("| --- | ---: | ---: | ---: | --- |")
    for row in rows:
        figure = row["strength"]
        print(f"| `{row['agent']}` | {row['median_ms']:.0f} | {row['p90_ms']:.0f} | {figure['value']:+.3f} "
              f"| [{figure['low']:.3f}, {figure['high']:.3f}] |")


if __name__ == "__main__":
    main()
