"""Time and nodes of the exact DouDizhu endgame solver (``paiju.games.doudizhu.solver``) by position size, printed:
``python benchmarks/doudizhu_solver.py [--sizes 6,8,...,28] [--per-size 40] [--json]``.

- Positions: from games between three ``rules`` players in research mode, game ``i`` dealt from seed
  ``--seed + i`` (the players seeded ``i``, ``i + 1``, ``i + 2``). For each size N the first position of a game
  whose three hands hold N cards or fewer in all is kept (a play may take the total below N), until
  ``--per-size`` positions of that size are found or ``--max-games`` games were played. Many games end before
  their total falls to a small N, so small sizes need more games.
- Timed: ``solve(position, limit=--limit, seconds=--seconds)``, a fresh transposition table each time, measured
  with ``time.perf_counter``; nodes are the positions the search expanded.

Per size: the positions found, the share solved within the limits, the median, 90th percentile and maximum
seconds and nodes (over every position, unsolved ones counting what they spent), and how often the side to move
wins among the solved. The benchmark measures and prints; it asserts no time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass
from typing import Any

import paiju
from common import machine
from paiju.games.doudizhu import DouDizhuRules, DouDizhuState
from paiju.games.doudizhu.solver import solve
from paiju.games.doudizhu.solver_position import Position, position_from_state

RULES = DouDizhuRules()


@dataclass(frozen=True, slots=True)
class Timed:
    """One solved (or unknown) position and what solving it cost."""

    size: int
    position: Position
    solved: bool
    mover_wins: bool | None
    seconds: float
    nodes: int


def positions(sizes: list[int], per_size: int, seed: int, max_games: int) -> dict[int, list[Position]]:
    """Up to ``per_size`` positions per size from seeded games of ``rules`` players (see the docstring)."""
    game = paiju.load_game("doudizhu")
    found: dict[int, list[Position]] = {size: [] for size in sizes}
    for number in range(seed, seed + max_games):
        if all(len(kept) >= per_size for kept in found.values()):
            break
        agents = [paiju.make_agent("rules", "doudizhu", seed=number + s) for s in range(3)]
        state: DouDizhuState = game.new_state(number, RULES)  # type: ignore[assignment]
        waiting = [size for size in sizes if len(found[size]) < per_size]
        while not state.is_terminal() and waiting:
            total = sum(sum(hand) for hand in state.hands)
            for size in [s for s in waiting if total <= s]:
                found[size].append(position_from_state(state))
                waiting.remove(size)
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    return found


def measure(found: dict[int, list[Position]], limit: int, seconds: float) -> list[Timed]:
    timed = []
    for size, kept in found.items():
        for position in kept:
            solution = solve(position, limit=limit, seconds=seconds)
            timed.append(Timed(size, position, solution.solved, solution.mover_wins, solution.seconds,
                               solution.nodes))
    return timed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(timed: list[Timed], sizes: list[int]) -> list[dict[str, Any]]:
    rows = []
    for size in sizes:
        group = [t for t in timed if t.size == size]
        if not group:
            rows.append({"size": size, "positions": 0})
            continue
        times = [t.seconds for t in group]
        nodes = [float(t.nodes) for t in group]
        solved = [t for t in group if t.solved]
        rows.append({
            "size": size, "positions": len(group), "mean_cards": statistics.mean(t.position.total_cards for t in group),
            "solved": len(solved) / len(group),
            "median_s": statistics.median(times), "p90_s": percentile(times, 0.9), "max_s": max(times),
            "median_nodes": statistics.median(nodes), "p90_nodes": percentile(nodes, 0.9), "max_nodes": max(nodes),
            "mover_wins": sum(1 for t in solved if t.mover_wins) / len(solved) if solved else None,
        })
    return rows


def table_text(rows: list[dict[str, Any]]) -> str:
    lines = ["| size | positions | mean cards | solved | median ms | p90 ms | max ms | median nodes | p90 nodes "
             "| max nodes | mover wins |", "|" + " --- |" * 11]
    for row in rows:
        if not row["positions"]:
            lines.append(f"| {row['size']} | 0 |" + " |" * 9)
            continue
        wins = "-" if row["mover_wins"] is None else f"{row['mover_wins']:.0%}"
        lines.append(
            f"| {row['size']} | {row['positions']} | {row['mean_cards']:.1f} | {row['solved']:.0%} "
            f"| {1000 * row['median_s']:.1f} | {1000 * row['p90_s']:.1f} | {1000 * row['max_s']:.0f} "
            f"| {row['median_nodes']:.0f} | {row['p90_nodes']:.0f} | {row['max_nodes']:.0f} | {wins} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="6,8,10,12,14,16,18,20,24,28",
                        help="total cards left, comma-separated")
    parser.add_argument("--per-size", type=int, default=40, help="positions per size (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--max-games", type=int, default=5000, help="games played at most to find positions")
    parser.add_argument("--limit", type=int, default=1_000_000, help="node limit per position")
    parser.add_argument("--seconds", type=float, default=10.0, help="time limit per position")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    found = positions(sizes, args.per_size, args.seed, args.max_games)
    print(f"positions found: {sum(len(kept) for kept in found.values())}", file=sys.stderr)
    rows = summary(measure(found, args.limit, args.seconds), sizes)
    report = {"machine": machine(), "limit": args.limit, "seconds": args.seconds, "seed": args.seed, "rows": rows}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    facts = report["machine"]
    print(f"{facts['cpu']}, {facts['cores']} cores, Python {facts['python']}; limit {args.limit} nodes or "
          f"{args.seconds} s per position")
    print(table_text(rows))


if __name__ == "__main__":
    main()
