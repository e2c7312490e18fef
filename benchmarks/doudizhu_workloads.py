"""DouDizhu workloads of ``engine.py``: paiju's engine, and with ``--compare`` DouZero's and RLCard's.

Workloads (each run lasts ``--seconds``; the figure is the median of ``--repeats`` runs, engines interleaved
run by run so that drift in the machine's speed touches all of them alike):

- ``random_games``: games/s of uniformly random play to the end, research rules (seat 0 landlord, no
  bidding), game ``i`` dealt from seed ``seed + i``. paiju: ``state.legal_actions()``, a seeded random
  choice, ``state.apply``. DouZero: ``douzero.env.game.GameEnv`` with random players on the same deals.
  RLCard: ``rlcard.make("doudizhu")`` stepped with random legal actions (RLCard's env always encodes its
  own state features at each step; it cannot be turned off).
- ``legal_moves``: calls/s of legal-move generation on a fixed set of mid-game positions (``--states``;
  each taken at a random decision of a seeded random game). paiju: ``legal_moves(hand, follow, rules)``.
  DouZero: ``GameEnv.get_legal_card_play_actions`` on the same hand and move to beat, in its card lists.
- ``encodings``: calls/s of DouZero's features of one decision (every legal play) on the same positions.
  paiju: ``features.encode(observation, legal)``. DouZero: ``get_obs`` on its information set of the same
  position (the game replayed on ``GameEnv``), its legal actions set to the same plays.
- ``encoded_games``: games/s of random play computing DouZero's features of every decision. paiju:
  ``features.encode``. DouZero: ``douzero.env.env.Env`` (its training environment, ``get_obs`` at every
  step) on its own numpy-seeded deals.

"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paiju
from common import BenchmarkConfig, Workload, importable, until
from paiju.games.doudizhu import DouDizhuObservation, DouDizhuRules, Move, legal_moves
from paiju.games.doudizhu.features import encode

RULES = DouDizhuRules()
DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
UNITS = {"random_games": "games/s", "legal_moves": "calls/s", "encodings": "calls/s", "encoded_games": "games/s"}


@dataclass(frozen=True, slots=True)
class Position:
    """A mid-game decision of the game dealt from ``number``: the plays before it, what the seat to move
    sees, and its legal plays."""

    number: int
    prefix: tuple[Move, ...]
    observation: DouDizhuObservation
    legal: tuple[Move, ...]

    @property
    def hand(self) -> tuple[int, ...]:
        return self.observation.hand

    @property
    def follow(self) -> Move | None:
        """The play to beat (None when leading)."""
        return self.observation.follow


def douzero_cards(counts: tuple[int, ...] | list[int]) -> list[int]:
    """Cards as DouZero writes them: 3..14 for 3..A, 17 for the 2, 20 and 30 for the jokers, sorted."""
    return [DOUZERO_CARDS[rank] for rank, n in enumerate(counts) for _ in range(n)]


# -- paiju --------------------------------------------------------------------------------------------


def paiju_games(seed: int, encoded: bool) -> Workload:
    """Random research-mode games with paiju's engine, optionally encoding every decision."""
    game = paiju.load_game("doudizhu")

    def run(seconds: float) -> float:
        numbers = itertools.count(seed)

        def one_game() -> int:
            number = next(numbers)
            state = game.new_state(number, RULES)
            rng = random.Random(number)
            while not state.is_terminal():
                legal = state.legal_actions()
                if encoded:
                    encode(state.observation(state.current_player), legal)
                state.apply(legal[rng.randrange(len(legal))])
            return 1

        return until(seconds, one_game)

    return run


def mid_game_positions(count: int, seed: int) -> list[Position]:
    """``count`` positions, each at a random decision of a random game dealt from ``seed + i``."""
    game = paiju.load_game("doudizhu")
    positions = []
    for number in range(seed, seed + count):
        state = game.new_state(number, RULES)
        rng = random.Random(number)
        seen = []
        played: list[Move] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            seen.append(Position(number, tuple(played), state.observation(state.current_player), tuple(legal)))
            played.append(legal[rng.randrange(len(legal))])
            state.apply(played[-1])
        positions.append(seen[rng.randrange(len(seen))])
    return positions


def paiju_legal_moves(positions: list[Position]) -> Workload:
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def call() -> int:
            position = next(cursor)
            legal_moves(position.hand, position.follow, RULES)
            return 1

        return until(seconds, call)

    return run


def paiju_encodings(positions: list[Position]) -> Workload:
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def call() -> int:
            position = next(cursor)
            encode(position.observation, position.legal)
            return 1

        return until(seconds, call)

    return run


# -- DouZero --------------------------------------------------------------------------------------------


def douzero_games(seed: int) -> Workload:
    """Random games on DouZero's ``GameEnv``, dealt as paiju deals games ``seed``, ``seed + 1``, ..."""
    from douzero.env.game import GameEnv

    class RandomPlayer:
        def __init__(self, rng: random.Random) -> None:
            self.rng = rng

        def act(self, infoset: Any) -> list[int]:
            return self.rng.choice(infoset.legal_actions)

    def run(seconds: float) -> float:
        numbers = itertools.count(seed)

        def one_game() -> int:
            number = next(numbers)
            rng = random.Random(number)
            env = GameEnv({position: RandomPlayer(rng) for position in ("landlord", "landlord_up", "landlord_down")})
            env.card_play_init(douzero_deal(number))
            while not env.game_over:
                env.step()
            return 1

        return until(seconds, one_game)

    return run


def douzero_legal_moves(positions: list[Position]) -> Workload:
    """DouZero's own legal-move generation (``GameEnv.get_legal_card_play_actions``) on the positions."""
    generate = douzero_generator()
    converted = [(douzero_cards(p.hand), douzero_cards(p.follow.counts) if p.follow else []) for p in positions]

    def run(seconds: float) -> float:
        cursor = itertools.cycle(converted)

        def call() -> int:
            generate(*next(cursor))
            return 1

        return until(seconds, call)

    return run


def douzero_generator() -> Callable[[list[int], list[int]], list[list[int]]]:
    """DouZero's legal moves of a hand facing a move to beat (``[]`` when leading), as its ``GameEnv`` makes them."""
    from douzero.env.game import GameEnv

    env = GameEnv({})
    env.acting_player_position = "landlord"

    def generate(hand: list[int], rival: list[int]) -> list[list[int]]:
        env.info_sets["landlord"].player_hand_cards = hand
        env.card_play_action_seq = [rival] if rival else []
        return env.get_legal_card_play_actions()

    return generate


def douzero_deal(number: int) -> dict[str, list[int]]:
    """``GameEnv.card_play_init``'s deal for paiju's research-mode game ``number`` (seat 0 the landlord)."""
    dealt = paiju.load_game("doudizhu").new_state(number, RULES).deals[0]
    return {
        "landlord": douzero_cards([a + b for a, b in zip(dealt.hands[0], dealt.public, strict=True)]),
        "landlord_down": douzero_cards(dealt.hands[1]),
        "landlord_up": douzero_cards(dealt.hands[2]),
        "three_landlord_cards": douzero_cards(dealt.public),
    }


def douzero_infosets(positions: list[Position]) -> list[Any]:
    """DouZero's information set of each position (its plays replayed on ``GameEnv``), with paiju's legal plays."""
    from douzero.env.game import GameEnv

    class Scripted:
        def __init__(self) -> None:
            self.action: list[int] = []

        def act(self, infoset: Any) -> list[int]:
            return self.action

    infosets = []
    for position in positions:
        players = {name: Scripted() for name in ("landlord", "landlord_down", "landlord_up")}
        env = GameEnv(players)
        env.card_play_init(douzero_deal(position.number))
        for move in position.prefix:
            players[env.acting_player_position].action = douzero_cards(move.counts)
            env.step()
        infoset = env.game_infoset
        infoset.legal_actions = [douzero_cards(move.counts) for move in position.legal]
        infosets.append(infoset)
    return infosets


def douzero_encodings(positions: list[Position]) -> Workload:
    """DouZero's ``get_obs`` on the positions' information sets."""
    from douzero.env.env import get_obs

    infosets = douzero_infosets(positions)

    def run(seconds: float) -> float:
        cursor = itertools.cycle(infosets)

        def call() -> int:
            get_obs(next(cursor))
            return 1

        return until(seconds, call)

    return run


def douzero_encoded_games(seed: int) -> Workload:
    """Random games on DouZero's training environment (``Env``, features at every step)."""
    import numpy as np
    from douzero.env.env import Env

    def run(seconds: float) -> float:
        np.random.seed(seed)
        rng = random.Random(seed)
        env = Env("adp")

        def one_game() -> int:
            observation = env.reset()
            done = False
            while not done:
                observation, _, done, _ = env.step(rng.choice(observation["legal_actions"]))
            return 1

        return until(seconds, one_game)

    return run


# -- RLCard ------------------------------------------------------------------------------------------


def rlcard_games(seed: int) -> Workload:
    """Random games on RLCard's DouDizhu environment."""
    import rlcard

    def run(seconds: float) -> float:
        env = rlcard.make("doudizhu", config={"seed": seed})
        rng = random.Random(seed)

        def one_game() -> int:
            state, _ = env.reset()
            while not env.is_over():
                state, _ = env.step(rng.choice(list(state["legal_actions"])))
            return 1

        return until(seconds, one_game)

    return run


# -- the run -------------------------------------------------------------------------------------------


def workloads(config: BenchmarkConfig) -> dict[str, dict[str, Workload]]:
    """Workload name -> engine name -> workload, for the engines this run measures."""
    positions = mid_game_positions(config.states, config.seed)
    table: dict[str, dict[str, Workload]] = {
        "random_games": {"paiju": paiju_games(config.seed, encoded=False)},
        "legal_moves": {"paiju": paiju_legal_moves(positions)},
        "encodings": {"paiju": paiju_encodings(positions)},
        "encoded_games": {"paiju": paiju_games(config.seed, encoded=True)},
    }
    if config.compare and importable("douzero.env.game"):
        table["random_games"]["douzero"] = douzero_games(config.seed)
        table["legal_moves"]["douzero"] = douzero_legal_moves(positions)
        table["encodings"]["douzero"] = douzero_encodings(positions)
        table["encoded_games"]["douzero"] = douzero_encoded_games(config.seed)
    if config.compare and importable("rlcard"):
        table["random_games"]["rlcard"] = rlcard_games(config.seed)
    return table


def details(config: BenchmarkConfig) -> dict[str, Any]:
    """Plays per legal-move call on the benchmark's positions, per engine (both list the same plays)."""
    positions = mid_game_positions(config.states, config.seed)
    per_call = {"paiju": statistics.mean(len(legal_moves(p.hand, p.follow, RULES)) for p in positions)}
    if config.compare and importable("douzero.env.game"):
        generate = douzero_generator()
        per_call["douzero"] = statistics.mean(
            len(generate(douzero_cards(p.hand), douzero_cards(p.follow.counts) if p.follow else []))
            for p in positions)
    return {"legal_moves_per_call": per_call}
