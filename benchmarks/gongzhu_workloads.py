"""Gongzhu workloads of ``engine.py``: random games, and the decisions of each baseline agent.

- ``random_games``: games/s of uniformly random play to the end, game ``i`` dealt from seed ``seed + i``:
  ``state.legal_actions()``, a seeded random choice, ``state.apply``.
- ``decisions``: decisions/s of each registered Gongzhu agent (``random``, ``mr-if``, ``mr-greed``, ...) on a
  fixed set of mid-game positions (``--states``; each at a random decision of a seeded random game): one
  ``agent.act(observation, legal)`` per position, the agent built once with a fixed seed.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import paiju
from common import BenchmarkConfig, Workload, random_games, until
from paiju.agents import agent_names

UNITS = {"random_games": "games/s", "decisions": "decisions/s"}


def mid_game_positions(count: int, seed: int) -> list[tuple[Any, list[str]]]:
    """``count`` (observation, legal) pairs, each at a random decision of the random game dealt from ``seed + i``."""
    game = paiju.load_game("gongzhu")
    positions = []
    for number in range(seed, seed + count):
        rng = random.Random(number)
        state = game.new_state(number)
        for _ in range(rng.randrange(52)):
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        positions.append((state.observation(state.current_player), state.legal_actions()))
    return positions


def decisions(agent_name: str, positions: list[tuple[Any, list[str]]]) -> Workload:
    agent = paiju.make_agent(agent_name, "gongzhu", seed=1)

    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def one_decision() -> int:
            observation, legal = next(cursor)
            agent.act(observation, legal)
            return 1

        return until(seconds, one_decision)

    return run


def workloads(config: BenchmarkConfig) -> dict[str, dict[str, Workload]]:
    """Workload name -> engine (here: agent) name -> workload."""
    positions = mid_game_positions(config.states, config.seed)
    agents = [name for name in agent_names("gongzhu", bare=True) if name != "ext"]
    return {"random_games": {"paiju": random_games("gongzhu", config.seed)},
            "decisions": {name: decisions(name, positions) for name in agents}}


def details(config: BenchmarkConfig) -> dict[str, Any]:
    return {}
