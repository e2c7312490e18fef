"""DouDizhu workloads of ``engine.py``: paiju's engine, and with ``--compare`` DouZero's, RLCard's and OpenSpiel's.

Workloads (each run lasts ``--seconds``; the figure is the median of ``--repeats`` runs, engines interleaved
run by run so that drift in the machine's speed touches all of them alike):

- ``random_games``: games/s of uniformly random play to the end, research rules (seat 0 landlord, no
  bidding), game ``i`` dealt from seed ``seed + i``. paiju: ``state.legal_actions()``, a seeded random
  choice, ``state.apply``. DouZero: ``douzero.env.game.GameEnv`` with random players on the same deals.
  RLCard: ``rlcard.make("doudizhu")`` stepped with random legal actions (RLCard's env always encodes its
  own state features at each step; it cannot be turned off). OpenSpiel: its own full game (see
  ``full_games_openspiel_rules``), which paiju's figure here does not cover: dealing and bidding.
- ``legal_moves``: calls/s of legal-move generation on a fixed set of mid-game positions (``--states``;
  each taken at a random decision of a seeded random game). paiju: ``legal_moves(hand, follow, rules)``.
  DouZero: ``GameEnv.get_legal_card_play_actions`` on the same hand and move to beat, in its card lists.
- ``encodings``: calls/s of DouZero's features of one decision (every legal play) on the same positions.
  paiju: ``features.encode(observation, legal)``. DouZero: ``get_obs`` on its information set of the same
  position (the game replayed on ``GameEnv``), its legal actions set to the same plays.
- ``encoded_games``: games/s of random play computing DouZero's features of every decision. paiju:
  ``features.encode``. DouZero: ``douzero.env.env.Env`` (its training environment, ``get_obs`` at every
  step) on its own numpy-seeded deals.

The 癞子 (wild-card) rules (``DouDizhuRules(laizi=True)``, research mode, one wild rank drawn with each deal) are
measured beside the classic game as the engine ``paiju_laizi`` of two workloads, so that the ratio ``paiju /
paiju_laizi`` is the classic game's speed over 癞子's:

- ``random_games``: as above, 癞子 games from the same seeds.
- ``legal_moves``: calls/s of ``wild.legal_moves(hand, follow, wild, rules)`` on ``--states`` 癞子 positions taken
  as the classic ones are (a random decision of the random 癞子 game dealt from ``seed + i``).

With ``--compare`` and OpenSpiel (``pyspiel``) importable, two more workloads under OpenSpiel's plays (paiju's
``DouDizhuRules(no_four_with_two=True)``; the few differences left are in ``openspiel_doudizhu``):

- ``full_games_openspiel_rules``: games/s of uniformly random full games, game ``i``'s choices from
  ``random.Random(seed + i)``. paiju: ``mode="full"``: a seeded shuffle, bidding (each seat bids once, 0-3,
  from a seeded first bidder; a new deal when all pass), play. OpenSpiel: ``state.legal_actions()``, a random
  choice, ``state.apply_action`` from ``new_initial_state()``: 52 chance actions (first card up, 51 cards),
  its bidding (bids go round until two passes follow a bid or a 3 is bid; about 1 game in 64 ends with
  three passes and no play), play.
- ``legal_moves_openspiel_rules``: calls/s of legal-move generation on ``--states`` positions taken as for
  ``legal_moves`` from research games under OpenSpiel's plays, replayed into OpenSpiel (deal, seat 0 bids
  3, each play by its action id); a game with a play OpenSpiel does not list is skipped for the next seed.
  paiju: ``legal_moves(hand, follow, rules)``. OpenSpiel: ``state.legal_actions()`` on its state of the
  same position.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import openspiel_doudizhu
import paiju
from common import BenchmarkConfig, Workload, importable, until
from paiju.agents.dmc.douzero_features import encode
from paiju.games.doudizhu import DouDizhuObservation, DouDizhuRules, Move, legal_moves, wild

RULES = DouDizhuRules()
LAIZI = DouDizhuRules(laizi=True)
OPENSPIEL_FULL_RULES = DouDizhuRules(mode="full", no_four_with_two=True)
DOUZERO_CARDS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
UNITS = {"random_games": "games/s", "legal_moves": "calls/s", "encodings": "calls/s", "encoded_games": "games/s",
         "full_games_openspiel_rules": "games/s", "legal_moves_openspiel_rules": "calls/s"}


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


def paiju_games(seed: int, encoded: bool, rules: DouDizhuRules = RULES) -> Workload:
    """Random games with paiju's engine (research mode unless ``rules`` say otherwise), optionally encoding
    every decision."""
    game = paiju.load_game("doudizhu")

    def run(seconds: float) -> float:
        numbers = itertools.count(seed)

        def one_game() -> int:
            number = next(numbers)
            state = game.new_state(number, rules)
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
    return [mid_game_position(number, RULES) for number in range(seed, seed + count)]


def mid_game_position(number: int, rules: DouDizhuRules) -> Position:
    """The position at a random decision of the random research game dealt from ``number``: the game played
    to its end with choices from ``random.Random(number)``, then a decision drawn from the same generator."""
    state = paiju.load_game("doudizhu").new_state(number, rules)
    rng = random.Random(number)
    seen = []
    played: list[Move] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        seen.append(Position(number, tuple(played), state.observation(state.current_player), tuple(legal)))
        played.append(legal[rng.randrange(len(legal))])
        state.apply(played[-1])
    return seen[rng.randrange(len(seen))]


def paiju_legal_moves(positions: list[Position], rules: DouDizhuRules = RULES) -> Workload:
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def call() -> int:
            position = next(cursor)
            legal_moves(position.hand, position.follow, rules)
            return 1

        return until(seconds, call)

    return run


def laizi_legal_moves(positions: list[Position]) -> Workload:
    """癞子 legal-move generation (``wild.legal_moves``, compiled when built) on 癞子 positions."""
    def run(seconds: float) -> float:
        cursor = itertools.cycle(positions)

        def call() -> int:
            position = next(cursor)
            wild.legal_moves(position.hand, position.follow, position.observation.wild, LAIZI)
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


# -- OpenSpiel ----------------------------------------------------------------------------------------


def openspiel_games(seed: int) -> Workload:
    """Random full games of OpenSpiel's ``dou_dizhu``: chance nodes, bids and plays alike a uniform choice
    among ``state.legal_actions()`` (its chance outcomes are uniform), from ``random.Random(seed + i)``."""
    spiel = openspiel_doudizhu.load_game()

    def run(seconds: float) -> float:
        numbers = itertools.count(seed)

        def one_game() -> int:
            rng = random.Random(next(numbers))
            state = spiel.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            return 1

        return until(seconds, one_game)

    return run


def openspiel_positions(count: int, seed: int) -> tuple[list[tuple[Position, Any]], list[int]]:
    """``count`` positions under OpenSpiel's plays (``mid_game_position`` of games ``seed``, ``seed + 1``, ...
    with ``openspiel_doudizhu.RULES``), each with OpenSpiel's state at it; and the numbers of the games
    skipped because OpenSpiel lists a play of theirs nowhere."""
    spiel = openspiel_doudizhu.load_game()
    found: list[tuple[Position, Any]] = []
    skipped = []
    for number in itertools.count(seed):
        if len(found) == count:
            break
        position = mid_game_position(number, openspiel_doudizhu.RULES)
        state = openspiel_doudizhu.replay(spiel, number, position.prefix)
        if state is None:
            skipped.append(number)
        else:
            found.append((position, state))
    return found, skipped


def openspiel_legal_moves(states: list[Any]) -> Workload:
    """OpenSpiel's ``state.legal_actions()`` on its states of the positions."""
    def run(seconds: float) -> float:
        cursor = itertools.cycle(states)

        def call() -> int:
            next(cursor).legal_actions()
            return 1

        return until(seconds, call)

    return run


# -- the run -------------------------------------------------------------------------------------------


def workloads(config: BenchmarkConfig) -> dict[str, dict[str, Workload]]:
    """Workload name -> engine name -> workload, for the engines this run measures."""
    positions = mid_game_positions(config.states, config.seed)
    laizi_positions = [mid_game_position(number, LAIZI) for number in range(config.seed, config.seed + config.states)]
    table: dict[str, dict[str, Workload]] = {
        "random_games": {"paiju": paiju_games(config.seed, encoded=False),
                         "paiju_laizi": paiju_games(config.seed, encoded=False, rules=LAIZI)},
        "legal_moves": {"paiju": paiju_legal_moves(positions), "paiju_laizi": laizi_legal_moves(laizi_positions)},
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
    if config.compare and importable("pyspiel"):
        table["random_games"]["openspiel"] = openspiel_games(config.seed)
        table["full_games_openspiel_rules"] = {
            "paiju": paiju_games(config.seed, encoded=False, rules=OPENSPIEL_FULL_RULES),
            "openspiel": openspiel_games(config.seed)}
        pairs, _ = openspiel_positions(config.states, config.seed)
        table["legal_moves_openspiel_rules"] = {
            "paiju": paiju_legal_moves([position for position, _ in pairs], openspiel_doudizhu.RULES),
            "openspiel": openspiel_legal_moves([state for _, state in pairs])}
    return table


def details(config: BenchmarkConfig) -> dict[str, Any]:
    """Plays per legal-move call on the benchmark's positions, per engine (both list the same plays); with
    OpenSpiel, the same on its positions, the games skipped, and where the two engines' plays differ."""
    positions = mid_game_positions(config.states, config.seed)
    laizi_positions = [mid_game_position(number, LAIZI) for number in range(config.seed, config.seed + config.states)]
    per_call = {"paiju": statistics.mean(len(legal_moves(p.hand, p.follow, RULES)) for p in positions),
                "paiju_laizi": statistics.mean(len(wild.legal_moves(p.hand, p.follow, p.observation.wild, LAIZI))
                                               for p in laizi_positions)}
    if config.compare and importable("douzero.env.game"):
        generate = douzero_generator()
        per_call["douzero"] = statistics.mean(
            len(generate(douzero_cards(p.hand), douzero_cards(p.follow.counts) if p.follow else []))
            for p in positions)
    report: dict[str, Any] = {"legal_moves_per_call": per_call}
    if config.compare and importable("pyspiel"):
        pairs, skipped = openspiel_positions(config.states, config.seed)
        rules = openspiel_doudizhu.RULES
        report["openspiel_rules"] = {
            "legal_moves_per_call": {
                "paiju": statistics.mean(len(legal_moves(p.hand, p.follow, rules)) for p, _ in pairs),
                "openspiel": statistics.mean(len(state.legal_actions()) for _, state in pairs)},
            "leads": sum(p.follow is None or p.follow.is_pass for p, _ in pairs) / len(pairs),
            "skipped_games": skipped,
            "check": openspiel_doudizhu.check([(p.hand, p.follow, state) for p, state in pairs]),
        }
    return report
