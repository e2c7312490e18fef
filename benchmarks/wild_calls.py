"""癞子 legal-move calls and random games counted in instructions, which a noisy machine does not change:
``python benchmarks/wild_calls.py --count`` (needs ``valgrind``) or, to time them, ``python benchmarks/wild_calls.py``.

- ``repeated``: the ``legal_moves`` workload of ``engine.py`` (the 1,000 癞子 positions ``mid_game_position``
  takes from the games dealt from 0..999, called in turn), after one pass that makes every play and table:
  what a call costs on positions met before.
- ``distinct``: 3,000 positions taken the same way from the games dealt from 100,000 on, each called once after
  the lists kept under parts of the hand are dropped (``_wild_fast.keep_at_most``): what a call costs on a hand
  not seen before, less the making of its plays (a first pass made them).
- ``games``: the ``random_games`` workload of ``engine.py`` for 癞子, 200 games dealt from 0..199 played to their
  end by uniformly random choices, in a fresh process, the garbage collector on: what making the plays of hands
  never seen before costs (each first sight of a play whose wild cards substitute makes its ``Move``).

``--count`` runs this script under ``valgrind --tool=callgrind`` twice per workload, with and without the measured
passes, and prints the difference in instructions per call or game (the Python loop that makes the calls included,
as ``engine.py``'s harness is in its figures). Without ``--count`` it prints calls per second (median of 5 passes)
and games per second (one pass: a second would meet the plays the first made).
The script measures and prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

import paiju
from paiju.games.doudizhu import DouDizhuRules, _wild_fast

LAIZI = DouDizhuRules(laizi=True)

WORKLOADS = {"repeated": (0, 1000, 10), "distinct": (100_000, 3000, 1)}
"""Name: first game, positions, measured passes."""
GAMES = 200
"""Random games of the ``games`` workload."""


def positions(first: int, count: int) -> list[tuple]:
    """The hand, play to follow and wild ranks of ``engine.py``'s 癞子 position of each game ``first ..``."""
    from doudizhu_workloads import mid_game_position  # numpy, whose threads would blur the count: not under valgrind

    return [(p.hand, p.follow, p.observation.wild) for p in
            (mid_game_position(number, LAIZI) for number in range(first, first + count))]


def prepared(cases: list[tuple]) -> list[tuple]:
    """The positions, each called once: every play and table made."""
    for hand, follow, wild in cases:
        _wild_fast.legal_moves(hand, follow, wild, LAIZI)
    return cases


def drop_kept_lists() -> None:
    """Drop the lists kept under parts of the hand (``distinct``), the bounds unchanged, and make the empty table."""
    _wild_fast.keep_at_most(*_wild_fast.keep_at_most(1, 0))
    _wild_fast.legal_moves([3, 1, *[0] * 13], None, (5,), LAIZI)


def rate(name: str, cases: list[tuple]) -> float:
    """Calls per second of the workload's measured passes (the garbage collector off, as ``timeit`` has it: a
    collection of the whole heap would cost more than thousands of calls)."""
    legal_moves = _wild_fast.legal_moves
    repeat = WORKLOADS[name][2]
    gc.disable()
    start = time.perf_counter()
    for _ in range(repeat):
        for hand, follow, wild in cases:
            legal_moves(hand, follow, wild, LAIZI)
    seconds = time.perf_counter() - start
    gc.enable()
    return repeat * len(cases) / seconds


def random_games(count: int) -> float:
    """Games per second of ``count`` random 癞子 games dealt from 0, as ``engine.py``'s ``random_games`` plays them."""
    game = paiju.load_game("doudizhu")
    start = time.perf_counter()
    for number in range(count):
        state = game.new_state(number, LAIZI)
        rng = random.Random(number)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return count / (time.perf_counter() - start)


def instructions(name: str, saved: str, measured: bool) -> int:
    """Instructions of a run of this script on the saved positions (valgrind's count)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
               "--run", name, "--positions", saved, *(["--measured"] if measured else [])]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}  # the same string hashes, so the same count, every run
    report = subprocess.run(command, capture_output=True, text=True, check=True, env=environment).stderr
    return int(re.search(r"refs:\s+([\d,]+)", report).group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", action="store_true", help="instructions per call or game, under valgrind")
    parser.add_argument("--only", choices=[*WORKLOADS, "games"], help="this workload alone")
    parser.add_argument("--run", choices=[*WORKLOADS, "games"], help=argparse.SUPPRESS)
    parser.add_argument("--measured", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--positions", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run == "games":
        if args.measured:
            random_games(GAMES)
        return
    if args.run:
        with open(args.positions, "rb") as saved:
            cases = prepared(pickle.load(saved))
        if args.run == "distinct":
            drop_kept_lists()
        if args.measured:
            rate(args.run, cases)
        return
    for name, (first, count, repeat) in WORKLOADS.items():
        if args.only not in (None, name):
            continue
        cases = positions(first, count)
        if args.count:  # the positions are made here, once: random play under valgrind would take long
            with tempfile.NamedTemporaryFile(suffix=".pickle") as saved:
                pickle.dump(cases, saved)
                saved.flush()
                measured, baseline = (instructions(name, saved.name, run) for run in (True, False))
            print(f"{name}: {(measured - baseline) / (count * repeat):,.0f} instructions a call")
            continue
        prepared(cases)
        rates = []
        for _ in range(5):
            if name == "distinct":
                drop_kept_lists()
            rates.append(rate(name, cases))
        print(f"{name}: {statistics.median(rates):,.0f} calls/s (median of 5)")
    if args.only not in (None, "games"):
        return
    if args.count:
        measured, baseline = (instructions("games", "", run) for run in (True, False))
        print(f"games: {(measured - baseline) / GAMES:,.0f} instructions a game")
    else:
        print(f"games: {random_games(GAMES):,.1f} games/s")


if __name__ == "__main__":
    main()
