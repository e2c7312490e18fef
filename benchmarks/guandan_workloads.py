"""GuanDan workloads of ``engine.py``: random rounds, and legal-play generation on fresh hands and on mid-game
positions.

- ``random_rounds``: one-round games/s of uniformly random play to the end through the engine
  (``GuanDanRules(rounds=1)``), game ``i`` dealt from seed ``seed + i``: ``state.legal_actions()``, a choice
  drawn from ``random.Random(seed + i)``, ``state.apply``.
- ``legal_fresh``: calls/s of ``legal_plays(hand, level)`` on freshly dealt 27-card hands, leading
  (``--states`` hands, cycled). Deal ``i`` shuffles the 108 cards with ``random.Random(seed + i)``, takes
  the first 27 and draws the level from the same generator, so about 44 % of the hands hold a wild card,
  as in play.
- ``legal_mid_game``: calls/s of ``legal_plays(hand, level, follow)`` on mid-game positions (``--states``):
  for round ``i``, four seats play uniformly random legal plays from the deal of ``seed + i`` — tricks,
  passes, seats leaving when their hand is empty, the partner leading after a finished player — until one
  team has finished or three players have; one decision of the round is drawn. Leads and follows mix as
  in play.
- ``legal_fresh_cpu``, ``legal_mid_game_cpu``: the same calls per CPU second of this process
  (``time.process_time``), steadier than the wall-clock figures when other programs share the machine.

``details`` reports the mean number of legal plays per call of each position set.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from common import BenchmarkConfig, Workload, random_games, until
from paiju.games.guandan import GuanDanRules
from paiju.games.guandan.cards import DECK, NUM_RANKS, pack
from paiju.games.guandan.combos import PASS, Play
from paiju.games.guandan.legal import legal_plays

UNITS = {"random_rounds": "games/s", "legal_fresh": "calls/s", "legal_mid_game": "calls/s",
         "legal_fresh_cpu": "calls/CPU-s", "legal_mid_game_cpu": "calls/CPU-s"}
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
        if play == PASS:
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


def legal_plays_rate(positions: list[Position], per_cpu_second: bool = False) -> Workload:
    """Calls of ``legal_plays`` per wall-clock second (or per CPU second of this process) over ``positions``,
    cycled."""
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)
        calls = 0

        def call() -> int:
            nonlocal calls
            position = next(cursor)
            legal_plays(position.hand, position.level, position.follow)
            calls += 1
            return 1

        cpu = time.process_time()
        rate = until(seconds, call)
        return calls / (time.process_time() - cpu) if per_cpu_second else rate

    return run


def workloads(config: BenchmarkConfig) -> dict[str, dict[str, Workload]]:
    """Workload name -> engine name -> workload."""
    fresh = fresh_hands(config.states, config.seed)
    mid_game = mid_game_positions(config.states, config.seed)
    return {"random_rounds": {"paiju": random_games("guandan", config.seed, GuanDanRules(rounds=1))},
            "legal_fresh": {"paiju": legal_plays_rate(fresh)},
            "legal_mid_game": {"paiju": legal_plays_rate(mid_game)},
            "legal_fresh_cpu": {"paiju": legal_plays_rate(fresh, per_cpu_second=True)},
            "legal_mid_game_cpu": {"paiju": legal_plays_rate(mid_game, per_cpu_second=True)}}


def plays_per_call(positions: list[Position]) -> float:
    """Mean number of legal plays per position."""
    return statistics.mean(len(legal_plays(p.hand, p.level, p.follow)) for p in positions)


def details(config: BenchmarkConfig) -> dict[str, Any]:
    return {"legal_plays_per_call": {
        "fresh": plays_per_call(fresh_hands(config.states, config.seed)),
        "mid_game": plays_per_call(mid_game_positions(config.states, config.seed))}}
