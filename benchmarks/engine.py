"""Engine throughput, measured and printed: ``python benchmarks/engine.py --game GAME [--compare] [--json]``.

Each game's workloads are in ``benchmarks/<game>_workloads.py`` (their docstrings say exactly what each
measures). Each run of a workload lasts ``--seconds``; the figure is the median of ``--repeats`` runs, the
engines (or agents) interleaved run by run so that drift in the machine's speed touches all of them alike.
With ``--compare`` the public engines paiju is compared with run too, when importable (DouDizhu: DouZero,
RLCard and OpenSpiel, from ``pip install -e '.[compare]'``), and the ratios paiju / other come from this
run's medians.

The benchmark measures and prints; it asserts no time. ``--json`` prints one JSON object with the machine,
the command, every run, the medians and the ratios.

    python benchmarks/engine.py --game doudizhu --seconds 3 --compare --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import shlex
import statistics
import sys
from collections.abc import Callable
from typing import Any

from common import BenchmarkConfig, machine

GAMES = ("doudizhu", "gongzhu", "guandan")


def measure(config: BenchmarkConfig, progress: Callable[[str], None]) -> dict[str, Any]:
    """Run every workload ``config.repeats`` times per engine; runs, medians and ratios paiju / other."""
    module = importlib.import_module(f"{config.game}_workloads")
    table = module.workloads(config)
    for engines in table.values():  # warm up: interned moves, lazily built tables, imports
        for workload in engines.values():
            workload(min(0.5, config.seconds))
    runs: dict[str, dict[str, list[float]]] = {name: {engine: [] for engine in engines}
                                               for name, engines in table.items()}
    for repeat in range(config.repeats):
        for name, engines in table.items():
            for engine, workload in engines.items():
                runs[name][engine].append(workload(config.seconds))
                progress(f"run {repeat + 1}/{config.repeats} {name} {engine}: {runs[name][engine][-1]:,.1f} "
                         f"{module.UNITS[name]}")
    results: dict[str, Any] = {}
    for name, by_engine in runs.items():
        medians = {engine: statistics.median(rates) for engine, rates in by_engine.items()}
        results[name] = {
            "unit": module.UNITS[name], "runs": by_engine, "median": medians,
            "ratio": {f"paiju/{engine}": medians["paiju"] / rate for engine, rate in medians.items()
                      if engine != "paiju" and "paiju" in medians},
        }
    return {
        "command": shlex.join(["python", *sys.argv]), "machine": machine(),
        "config": {"game": config.game, "seconds": config.seconds, "repeats": config.repeats,
                   "states": config.states, "seed": config.seed, "compare": config.compare},
        **module.details(config), "workloads": results,
    }


def table_text(report: dict[str, Any]) -> str:
    """The medians and ratios as a Markdown table."""
    lines = ["| workload | engine | median | unit | paiju / engine |", "| --- | --- | ---: | --- | ---: |"]
    for name, result in report["workloads"].items():
        for engine, median in result["median"].items():
            ratio = result["ratio"].get(f"paiju/{engine}")
            lines.append(f"| {name} | {engine} | {median:,.1f} | {result['unit']} | "
                         f"{'' if ratio is None else f'{ratio:.2f}x'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="doudizhu", choices=GAMES, help="game to measure")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each run (default 3)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per workload and engine (default 5)")
    parser.add_argument("--states", type=int, default=1000, help="fixed mid-game positions per workload")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    parser.add_argument("--compare", action="store_true", help="also measure public engines if importable")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.repeats < 1 or args.states < 1:
        parser.error("--seconds must be positive, --repeats and --states at least 1")
    config = BenchmarkConfig(args.seconds, args.repeats, args.states, args.seed, args.compare, args.game)
    report = measure(config, progress=lambda line: print(line, file=sys.stderr))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{report['machine']['cpu']}, {report['machine']['cores']} cores, Python {report['machine']['python']}")
        print(table_text(report))


if __name__ == "__main__":
    main()
