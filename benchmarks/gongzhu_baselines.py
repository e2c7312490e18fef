"""Calibrate Gongzhu's hand-written players against ScrofaZero Table 2, and time Mr. Greed's decisions.

    python benchmarks/gongzhu_baselines.py --deals 1024 --workers 2           # the three pairings
    python benchmarks/gongzhu_baselines.py --timing 200                       # decision times only

Each pairing plays ``--deals`` deals twice in duplicate (``paiju.eval.gongzhu``: team A at seats 0 and 2,
the second play rotated one seat) and prints team A's mean points per game with its standard error; the
authors' figures (Table 2) are If vs Random +194, Greed vs Random +275, Greed vs If +80. ``--timing N`` plays
N games of four Mr. Greeds and prints the median and 99th percentile of the time per decision that had more
than one legal card, and of all decisions.
"""

from __future__ import annotations

import argparse
import statistics
import time

from paiju.agents import register_agent
from paiju.agents.rules.gongzhu_greed import GongzhuGreedAgent, make_greed_agent
from paiju.agents.rules.gongzhu_if import make_if_agent
from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu
from paiju.games.gongzhu import Gongzhu

# Registered at import, so that spawned evaluation workers (which import this script) know them too.
register_agent("gongzhu", "mr-if", make_if_agent)
register_agent("gongzhu", "mr-greed", make_greed_agent)

PAIRINGS = (("mr-if", "random", 194.0), ("mr-greed", "random", 275.0), ("mr-greed", "mr-if", 80.0))
"""(team A, team B, ScrofaZero Table 2's A − B points per game)."""


def calibrate(deals: int, seed: int, workers: int) -> None:
    """Print each pairing's duplicate result beside the paper's."""
    for agent_a, agent_b, paper in PAIRINGS:
        config = GongzhuEvalConfig(agent_a=agent_a, agent_b=agent_b, deals=deals, seed=seed, workers=workers)
        report = evaluate_gongzhu(config, progress=False)
        per_game = report.summary.per_game
        print(f"{agent_a:>9} vs {agent_b:<7} {per_game.value:+8.1f} ± {per_game.se:5.1f} per game "
              f"(paper {paper:+.0f}; {report.summary.games} games, {report.wall_time_s:.0f} s)", flush=True)


def timing(games: int, seed: int) -> None:
    """Print Mr. Greed's decision times over ``games`` games of four Mr. Greeds."""
    game = Gongzhu()
    choices: list[float] = []
    forced: list[float] = []
    for number in range(games):
        state = game.new_state(seed + number)
        agents = [GongzhuGreedAgent(seed + 4 * number + seat) for seat in range(4)]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            observation, legal = state.observation(seat), state.legal_actions()
            started = time.perf_counter()
            card = agents[seat].act(observation, legal)
            (choices if len(legal) > 1 else forced).append(time.perf_counter() - started)
            state.apply(card)
    for label, times in (("decisions with a choice", choices), ("all decisions", choices + forced)):
        times = sorted(times)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"{label}: {len(times)}, median {1000 * statistics.median(times):.2f} ms, "
              f"p99 {1000 * p99:.2f} ms, max {1000 * times[-1]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timing", type=int, default=0, help="only time Mr. Greed over this many games")
    arguments = parser.parse_args()
    if arguments.timing:
        timing(arguments.timing, arguments.seed)
    else:
        calibrate(arguments.deals, arguments.seed, arguments.workers)


if __name__ == "__main__":
    main()
