"""GuanDan legal-play generation throughput: workloads for ``engine.py``, also runnable alone.

Workloads (a ``Workload`` runs for about the given seconds and returns calls per second):

- ``fresh_hands(count, seed)``: the leads of freshly dealt 27-card hands. Deal ``i`` shuffles the 108 cards
  with ``random.Random(seed + i)``, takes the first 27 and draws the level from the same generator (so
  about 44 % of the hands hold a wild card, as in play).
- ``mid_game_positions(count, seed)``: positions at a random decision of a random round dealt from
  ``seed + i``: four seats play uniformly random legal plays (``legal_plays``) — tricks, passes, seats
  leaving when their hand is empty, the partner leading after a finished player — until one team has
  finished or three players have; one decision of the round is drawn. Leads and follows mix as in play.
- ``legal_plays_rate(positions)``: calls of ``legal_plays(hand, level, follow)`` per second, cycling
  through the positions.
- ``plays_per_call(positions)``: mean number of plays per call, to read the rates by.

    python benchmarks/guandan_workloads.py --seconds 2 --repeats 5

prints the median of the runs for both workloads. The script measures and prints; it asserts no time.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from paiju.games.guandan.cards import DECK, NUM_RANKS, pack
from paiju.games.guandan.combos import PASS, Play
from paiju.games.guandan.legal import legal_plays

Workload = Callable[[float], float]
"""Runs for about the given seconds and returns its rate (calls per second)."""
HAND_SIZE = 27
SEATS = 4


@dataclass(frozen=True, slots=True)
class Position:
    """A decision: the hand to move (packed), the level, and the play to beat (``None`` when leading)."""

    hand: int
    level: int
    follow: Play | None


def fresh_hands(count: int, seed: int) -> list[Position]:
    """``count`` freshly dealt 27-card hands, leading, each at a random level."""
    positions = []
    for number in range(seed, seed + count):
        rng = random.Random(number)
        deck = list(DECK)
        rng.shuffle(deck)
        positions.append(Position(pack(deck[:HAND_SIZE]), rng.randrange(NUM_RANKS), None))
    return positions


def random_round(number: int) -> list[Position]:
    """Every decision of one round of uniformly random play dealt from ``number``."""
    rng = random.Random(number)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [pack(deck[HAND_SIZE * seat:HAND_SIZE * (seat + 1)]) for seat in range(SEATS)]
    level = rng.randrange(NUM_RANKS)
    seat = rng.randrange(SEATS)
    follow: Play | None = None
    follow_seat = seat
    passes = 0
    finished: list[int] = []
    decisions = []
    while True:
        legal = legal_plays(hands[seat], level, follow)
        decisions.append(Position(hands[seat], level, follow))
        play = legal[rng.randrange(len(legal))]
        if play is PASS:
            passes += 1
        else:
            hands[seat] -= play.packed
            follow, follow_seat, passes = play, seat, 0
            if not hands[seat]:
                finished.append(seat)
                if len(finished) == SEATS - 1 or (seat + 2) % SEATS in finished:
                    return decisions
        active = [s for s in range(SEATS) if s not in finished]
        if passes >= len([s for s in active if s != follow_seat]):  # the trick is over
            follow, passes = None, 0
            partner = (follow_seat + 2) % SEATS
            seat = follow_seat if follow_seat in active else partner if partner in active else \
                _next_active(follow_seat, active)
        else:
            seat = _next_active(seat, active)


def _next_active(seat: int, active: list[int]) -> int:
    return next(s % SEATS for s in range(seat + 1, seat + SEATS + 1) if s % SEATS in active)


def mid_game_positions(count: int, seed: int) -> list[Position]:
    """One random decision from each of ``count`` random rounds dealt from ``seed``, ``seed + 1``, ..."""
    positions = []
    for number in range(seed, seed + count):
        decisions = random_round(number)
        positions.append(decisions[random.Random(number).randrange(len(decisions))])
    return positions


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


def legal_plays_rate(positions: list[Position]) -> Workload:
    """Calls of ``legal_plays`` per second over ``positions``, cycled."""
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def call() -> int:
            position = next(cursor)
            legal_plays(position.hand, position.level, position.follow)
            return 1

        return until(seconds, call)

    return run


def plays_per_call(positions: list[Position]) -> float:
    """Mean number of legal plays per position."""
    return statistics.mean(len(legal_plays(p.hand, p.level, p.follow)) for p in positions)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each run (default 2)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per workload (default 5)")
    parser.add_argument("--states", type=int, default=1000, help="positions per workload (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed")
    args = parser.parse_args(argv)
    workloads = {"fresh 27-card hands": fresh_hands(args.states, args.seed),
                 "mid-game positions": mid_game_positions(args.states, args.seed)}
    for name, positions in workloads.items():
        rate = legal_plays_rate(positions)
        rate(min(0.5, args.seconds))  # warm up: interned plays, lazily built tables
        runs = [rate(args.seconds) for _ in range(args.repeats)]
        print(f"{name}: median {statistics.median(runs):,.0f} calls/s over {args.repeats} runs "
              f"({', '.join(f'{r:,.0f}' for r in runs)}); {plays_per_call(positions):,.1f} plays per call")


if __name__ == "__main__":
    main()
