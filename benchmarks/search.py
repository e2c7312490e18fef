"""Speed of the ``search`` agent, measured and printed: ``python benchmarks/search.py [--game GAME] [--spec SPEC]``.

- Positions: ``--positions`` decisions with more than one legal action in the play phase, taken from games
  between the game's baseline players (``rules``; Gongzhu: ``mr-greed``), game ``i`` dealt from seed
  ``--seed + i``, one decision in ``--every`` kept (GuanDan: one-round games).
- **rollouts**: on each position in turn, one world (``game.determinize`` of the observation) played out to
  the end of the deal by the search's rollout policy at every seat (``paiju.agents.search.rollout``), for
  ``--seconds``: rollouts per second and simulated decisions per second.
- **decisions**: the agent ``--spec`` (default ``search``: the game's defaults) deciding every position once:
  the median, 90th percentile and maximum time per decision, and simulations per decision (median, minimum).
- ``--profile``: cProfile's top functions over the decisions, by own time.

The benchmark measures and prints; it asserts no time. ``--json`` prints one JSON object.

    python benchmarks/search.py --game doudizhu --positions 40
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import shlex
import statistics
import sys
import time
from typing import Any

import paiju
from common import machine
from paiju.agents import make_agent
from paiju.agents.search import PROFILES, SearchAgent
from paiju.agents.search.rollout import Rollout
from paiju.core.game import State

BASELINE = {"doudizhu": "rules", "guandan": "rules", "gongzhu": "mr-greed"}
RULES = {"doudizhu": {}, "guandan": {"rounds": 1}, "gongzhu": {}}


def positions(game_name: str, count: int, every: int, seed: int) -> list[State]:
    """Every ``every``-th play decision with a choice in seeded games between baseline players."""
    game = paiju.load_game(game_name)
    rules = game.rules_from_json(RULES[game_name])
    found: list[State] = []
    number = seed
    seen = 0
    while len(found) < count:
        state = game.new_state(number, rules)
        players = [make_agent(BASELINE[game_name], game_name, number * 4 + seat) for seat in range(game.num_players)]
        while not state.is_terminal() and len(found) < count:
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) > 1 and state.phase == "play":
                seen += 1
                if seen % every == 0:
                    found.append(state.clone())
            state.apply(players[seat].act(state.observation(seat), legal))
        number += 1
    return found


def rollout_rate(game_name: str, states: list[State], seconds: float) -> dict[str, float]:
    """Rollouts and simulated actions per second from worlds of ``states``, by the default rollout policy (only
    the play-outs are timed: sampling the worlds and counting their actions are not)."""
    game = paiju.load_game(game_name)
    profile = PROFILES[game_name]
    agents = [make_agent(profile.defaults.rollout, game_name, seat) for seat in range(game.num_players)]
    rng = random.Random(0)
    rollouts = actions = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = states[rollouts % len(states)]
        seat = state.current_player
        world = game.determinize(state.observation(seat), rng)
        before = len(world.to_record()["actions"])
        start = time.perf_counter()
        Rollout(agents, seat, profile.deal_value).play_out(world, world.deal_number)
        elapsed += time.perf_counter() - start
        actions += len(world.to_record()["actions"]) - before
        rollouts += 1
    return {"rollouts_per_s": rollouts / elapsed, "actions_per_s": actions / elapsed,
            "actions_per_rollout": actions / rollouts}


def decision_times(game_name: str, spec: str, states: list[State], profile: bool) -> dict[str, Any]:
    """Each position decided once by ``spec``: times (ms) and simulations per decision."""
    agent = make_agent(spec, game_name, seed=1)
    assert isinstance(agent, SearchAgent)
    times, simulations = [], []
    profiler = cProfile.Profile() if profile else None
    for state in states:
        seat = state.current_player
        observation, legal = state.observation(seat), state.legal_actions()
        if profiler:
            profiler.enable()
        start = time.perf_counter()
        agent.act(observation, legal)
        times.append(1000 * (time.perf_counter() - start))
        if profiler:
            profiler.disable()
        simulations.append(agent.simulations)
    if profiler:
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(20)
    times.sort()
    return {"spec": spec, "options": repr(agent.options), "decisions": len(times),
            "median_ms": statistics.median(times), "p90_ms": times[int(0.9 * (len(times) - 1))],
            "max_ms": times[-1], "median_simulations": statistics.median(simulations),
            "min_simulations": min(simulations)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=(*PROFILES, "all"), default="all")
    parser.add_argument("--spec", default="search", help="the agent timed on the positions")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of the rollout measurement")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = list(PROFILES) if args.game == "all" else [args.game]
    report: dict[str, Any] = {"machine": machine(), "command": shlex.join(sys.argv), "games": {}}
    for game_name in games:
        states = positions(game_name, args.positions, args.every, args.seed)
        report["games"][game_name] = {
            "rollouts": rollout_rate(game_name, states, args.seconds),
            "decisions": decision_times(game_name, args.spec, states, args.profile),
        }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print("| game | rollout policy | rollouts/s | actions/s | actions/rollout | spec | median ms | p90 ms | max ms "
          "| sims/decision (median, min) |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for game_name, figures in report["games"].items():
        rollouts, decisions = figures["rollouts"], figures["decisions"]
        print(f"| {game_name} | {PROFILES[game_name].defaults.rollout} | {rollouts['rollouts_per_s']:,.1f} "
              f"| {rollouts['actions_per_s']:,.0f} | {rollouts['actions_per_rollout']:.1f} | `{decisions['spec']}` "
              f"| {decisions['median_ms']:,.0f} | {decisions['p90_ms']:,.0f} | {decisions['max_ms']:,.0f} "
              f"| {decisions['median_simulations']:g}, {decisions['min_simulations']} |")


if __name__ == "__main__":
    main()
