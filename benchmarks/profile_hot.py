"""Where the engines spend their time: ``python benchmarks/profile_hot.py [--game GAME] [--seconds S]``.

For each game, three workloads run under cProfile and print their hottest functions with each one's share
of the workload's time (own time, as cProfile counts it; cProfile's own overhead inflates short functions
alike, so the shares rank the functions rather than time them):

- **random**: uniformly random play from seeded deals (``state.legal_actions``, a random choice, ``apply``);
- **rollouts**: worlds sampled from mid-game positions played out by the search's rollout policy (the rule
  bots; Gongzhu: ``mr-greed:1``), as the search does;
- **search**: the ``search`` agent (the game's default profile) deciding a few positions.

It prints which engine path was measured (compiled or reference, see ``paiju.native``).

    python benchmarks/profile_hot.py --game doudizhu --seconds 10
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

import paiju
from paiju import native
from paiju.agents import make_agent
from paiju.agents.search import PROFILES
from paiju.agents.search.rollout import Rollout
from search import RULES, positions

GAMES = ("doudizhu", "guandan", "gongzhu")


def random_play(game_name: str, seconds: float) -> None:
    game = paiju.load_game(game_name)
    rules = game.rules_from_json(RULES[game_name])
    deadline = time.perf_counter() + seconds
    number = 0
    while time.perf_counter() < deadline:
        state = game.new_state(number, rules)
        rng = random.Random(number)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        number += 1


def rollouts(game_name: str, seconds: float) -> None:
    game = paiju.load_game(game_name)
    profile = PROFILES[game_name]
    states = positions(game_name, 20, 3, 0)
    agents = [make_agent(profile.defaults.rollout, game_name, seat) for seat in range(game.num_players)]
    rng = random.Random(0)
    deadline = time.perf_counter() + seconds
    done = 0
    while time.perf_counter() < deadline:
        state = states[done % len(states)]
        world = game.determinize(state.observation(state.current_player), rng)
        Rollout(agents, state.current_player, profile.deal_value).play_out(world, world.deal_number)
        done += 1


def search(game_name: str, seconds: float) -> None:
    agent = make_agent("search", game_name, seed=1)
    deadline = time.perf_counter() + seconds
    for state in positions(game_name, 10, 5, 1):
        if time.perf_counter() > deadline:
            break
        agent.act(state.observation(state.current_player), state.legal_actions())


WORKLOADS: dict[str, Callable[[str, float], None]] = {"random": random_play, "rollouts": rollouts, "search": search}


def report(game_name: str, workload: str, seconds: float, top: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    WORKLOADS[workload](game_name, seconds)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]  # type: ignore[attr-defined]
    print(f"\n## {game_name} {workload} ({total:.1f} s profiled, engine path: {native.path()})")
    print("| share | own s | calls | function |\n| ---: | ---: | ---: | --- |")
    for (path, line, name), (_, calls, own, _, _) in rows:
        where = path.split("src/paiju/")[-1] if "src/paiju/" in path else path.rsplit("/", 1)[-1]
        print(f"| {100 * own / total:.1f} % | {own:.2f} | {calls:,} | `{name}` ({where}:{line}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, action="append", help="game(s) to profile (default: all)")
    parser.add_argument("--workload", choices=tuple(WORKLOADS), action="append", help="default: all")
    parser.add_argument("--seconds", type=float, default=5.0, help="profiled seconds per workload")
    parser.add_argument("--top", type=int, default=12, help="functions listed per workload")
    args = parser.parse_args()
    for game_name in args.game or GAMES:
        for workload in args.workload or WORKLOADS:
            report(game_name, workload, args.seconds, args.top)


if __name__ == "__main__":
    main()
