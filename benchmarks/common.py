"""What every benchmark of ``engine.py`` shares: the configuration, the timing loop, machine facts."""

from __future__ import annotations

import importlib.metadata
import itertools
import os
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paiju

Workload = Callable[[float], float]
"""Runs for about the given seconds and returns its rate (units per second)."""


@dataclass(frozen=True, slots=True)
class BenchmarkConfig:
    """What to measure and how long."""

    seconds: float
    """Length of one run of one workload on one engine."""
    repeats: int
    """Runs per workload and engine; the median is reported."""
    states: int
    """Number of mid-game positions for the legal-move workload."""
    seed: int
    """First deal's seed; everything else follows from it."""
    compare: bool
    """Also run the public engines paiju is compared with (those importable)."""
    game: str = "doudizhu"
    """The game measured."""


def until(seconds: float, step: Callable[[], int]) -> float:
    """Call ``step`` (returning units done) until ``seconds`` have passed; units per second."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += step()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def machine() -> dict[str, Any]:
    """Facts about the machine and the software measured."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), cpu)
    except OSError:
        pass
    versions = {}
    for package in ("paiju", "numpy", "douzero", "rlcard", "open_spiel"):
        try:
            versions[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            versions[package] = None
    return {
        "cpu": cpu, "cores": os.cpu_count(), "usable_cores": len(os.sched_getaffinity(0)),
        "python": platform.python_version(), "implementation": platform.python_implementation(),
        "platform": platform.platform(), "versions": versions,
    }




def random_games(game_name: str, seed: int, rules: Any = None) -> Workload:
    """Games/s of uniformly random play to the end: game ``i`` dealt from seed ``seed + i``, the choices from
    ``random.Random(seed + i)``; ``state.legal_actions()``, a random choice, ``state.apply``."""
    game = paiju.load_game(game_name)

    def run(seconds: float) -> float:
        numbers = itertools.count(seed)

        def one_game() -> int:
            number = next(numbers)
            state = game.new_state(number, rules)
            rng = random.Random(number)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
            return 1

        return until(seconds, one_game)

    return run
