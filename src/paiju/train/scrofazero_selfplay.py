"""ScrofaZero actors: games under perfect information that teach the network (ScrofaZero §4, §8.7).

One ``ScrofaZeroWorker`` per actor process (or Ray actor). ``collect(index, games, weights, teacher)`` plays
``games`` whole games from the seeds of chunk ``index`` and returns every decision as a training position:

- **Self-play** (``teacher`` empty; the paper's loop): every player sees all hands ("double dummy"). At each
  step the player to move runs ``mcts.MctsSearch`` with ``training_simulations`` = 2 × legal cards (§8.6),
  leaves valued by the network; the card played is the searched one of highest Q (§4) and the position's policy
  target is the search's softmax(0.2·(Q − Q_max)) (the authors' code). The games are played in lock-step: one
  ``mcts.run`` drives the searches of every unfinished game, so one forward pass values a leaf of each.
- **Warm start** (``teacher`` an agent name such as ``mr-greed``): the four seats are that agent, each deciding
  from its own observation as in any match; the policy target is the card it chose (imitation). A choice of the
  trainer's user, off by default; the model's README says whether a shipped network used it. With
  ``sibling_rollouts`` = k > 0, every card the teacher did *not* play at a decision of two cards or more is
  also played, on a copy, and its position (the sibling) recorded with a value target only: the mean payoff of
  k games the teacher plays out from it (``mcts.RolloutEvaluator``), and no policy target (all zeros, so no
  policy loss). The teacher's own games show only the cards it plays, so a value learnt from them alone never
  sees why the other cards are worse, which is what the search asks of it (the MCTS compares exactly these
  siblings); the siblings teach that contrast.

A position is the 434 inputs of the full state for the player to move (``features.encode_state``; 0/1, kept as
uint8), its legal cards, the policy target and the value target, in score points for that player, chosen by
``value_target`` (``VALUE_TARGETS``):

- ``outcome`` (the paper's z, the default): the game's final payoff (``GongzhuState.payoffs``), a single-deal
  Monte-Carlo return;
- ``root``: the search's value of the position, the Q of the card played (``mcts.SearchResult.value``: the
  searched card of highest Q). This is the "greedy backup" of Willemsen, Baier & Kaisers, *Value targets in
  off-policy AlphaZero* (2021), rather than the visit-weighted mean of the root's children (the root's mean
  backed-up value, Abrams' "q", *Lessons from AlphaZero*, 2018): the game goes on with the card of highest Q,
  so its Q estimates the value of the play that follows — what z samples — whereas at 2 × legal cards
  simulations half of the visits are the one-per-card tries, and their mean values a near-uniform play. (The
  highest of a few noisy Q's leans high: the price of a lower variance than z's.) A decision with one legal card
  has no search; the card is forced, so its value is that of the next searched decision of the game (negated
  for the other team: partners share payoffs, the teams' sum to zero), or the outcome when none follows (the
  play is then forced to the end: the outcome is exact);
- ``mix``: the mean of the two, (outcome + root) / 2 (Abrams' compromise between z and q).

``root`` and ``mix`` need searches: the warm start's positions always take the outcome (the trainer refuses to
combine them). A decision with one legal card is recorded without a search (its policy target is that card).
The deals of chunk ``k`` come from ``derive_seed(seed, "chunk", k)`` and every search's generator from the
chunk's, so a run is a function of its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import torch

from paiju.agents import make_agent
from paiju.agents.scrofazero import mcts
from paiju.agents.scrofazero.evaluator import NetworkEvaluator
from paiju.agents.scrofazero.features import encode_batch, legal_masks
from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.games.gongzhu.cards import CARD_INDEX, NUM_CARDS
from paiju.games.gongzhu.game import Gongzhu
from paiju.games.gongzhu.state import GongzhuState

Weights = dict[str, np.ndarray]
"""The network's parameters as numpy arrays (what travels from the learner to the actors)."""
ValueTarget = Literal["outcome", "root", "mix"]
VALUE_TARGETS: tuple[ValueTarget, ...] = get_args(ValueTarget)
"""The value targets a position may take (the module docstring)."""


@dataclass
class Positions:
    """Training positions: ``x`` [n, 434] uint8, ``legal`` [n, 52] bool, ``policy`` [n, 52] and ``value`` [n]
    float32 (the module docstring)."""

    x: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.value)

    @staticmethod
    def concat(parts: list[Positions]) -> Positions:
        return Positions(*(np.concatenate([getattr(p, name) for p in parts]) for name in Positions.fields()))

    @staticmethod
    def fields() -> tuple[str, ...]:
        return "x", "legal", "policy", "value"

    def take(self, rows: np.ndarray) -> Positions:
        return Positions(*(getattr(self, name)[rows] for name in Positions.fields()))


@dataclass
class GamesChunk:
    """What an actor sends back: its positions and how many games they came from."""

    index: int
    positions: Positions
    games: int


class _Game:
    """One game in progress and its decisions so far: (inputs, legal cards, policy target, seat, the search's value
    for that seat or None where there was no search)."""

    def __init__(self, state: GongzhuState) -> None:
        self.state = state
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, float | None]] = []
        self.siblings: list[tuple[np.ndarray, np.ndarray, float]] = []
        """Positions of the cards not played, with their rollout values (warm start with sibling rollouts)."""

    def record(self, target: np.ndarray, searched: float | None = None) -> None:
        state = self.state
        self.steps.append((encode_batch([state])[0].astype(np.uint8), legal_masks([state])[0], target,
                           state.to_move, searched))

    def positions(self, value_target: ValueTarget = "outcome") -> Positions:
        played = Positions(np.stack([s[0] for s in self.steps]), np.stack([s[1] for s in self.steps]),
                           np.stack([s[2] for s in self.steps]).astype(np.float32), self.values(value_target))
        if not self.siblings:
            return played
        siblings = Positions(np.stack([s[0] for s in self.siblings]), np.stack([s[1] for s in self.siblings]),
                             np.zeros((len(self.siblings), NUM_CARDS), dtype=np.float32),
                             np.array([s[2] for s in self.siblings], dtype=np.float32))
        return Positions.concat([played, siblings])

    def values(self, value_target: ValueTarget) -> np.ndarray:
        """The decisions' value targets (float32, the module docstring)."""
        payoffs = self.state.payoffs()
        outcome = np.array([payoffs[s[3]] for s in self.steps], dtype=np.float64)
        if value_target == "outcome":
            return outcome.astype(np.float32)
        root = self.searched_values(payoffs[0])
        return (root if value_target == "root" else (outcome + root) / 2).astype(np.float32)

    def searched_values(self, team_outcome: float) -> np.ndarray:
        """Each decision's search value for its player: its root value, or at a decision of one card that of the
        next searched decision, or ``team_outcome`` (team 0's final payoff) when none follows, seen from the
        player's team."""
        values = np.empty(len(self.steps))
        following = team_outcome
        for row in reversed(range(len(self.steps))):
            seat, searched = self.steps[row][3:]
            sign = 1 - 2 * (seat & 1)
            if searched is not None:
                following = sign * searched
            values[row] = sign * following
        return values


def _one_hot(card: int) -> np.ndarray:
    target = np.zeros(NUM_CARDS, dtype=np.float32)
    target[card] = 1.0
    return target


class ScrofaZeroWorker:
    """One actor: its own copy of the network, refreshed from the learner's weights."""

    def __init__(self, model: ModelConfig, seed: int, sibling_rollouts: int = 0,
                 value_target: ValueTarget = "outcome") -> None:
        check_value_target(value_target)
        torch.set_num_threads(1)
        self.game = Gongzhu()
        self.seed = seed
        self.sibling_rollouts = sibling_rollouts
        self.value_target = value_target
        self.network = ScrofaNet(model, seed)
        self.evaluator = NetworkEvaluator(self.network)

    def set_weights(self, weights: Weights) -> None:
        self.network.load_state_dict({name: torch.from_numpy(value) for name, value in weights.items()})
        self.network.eval()

    def collect(self, index: int, games: int, weights: Weights | None = None, teacher: str = "") -> GamesChunk:
        """Play ``games`` games from chunk ``index``'s seeds: self-play searches, or ``teacher``'s games."""
        if weights is not None:
            self.set_weights(weights)
        chunk_seed = derive_seed(self.seed, "chunk", index)
        states = [self.game.new_state(derive_seed(chunk_seed, "game", number)) for number in range(games)]
        played = self._teach(states, teacher, chunk_seed) if teacher else self._self_play(states, chunk_seed)
        return GamesChunk(index, Positions.concat([game.positions(self.value_target) for game in played]), games)

    def _self_play(self, states: list[GongzhuState], chunk_seed: int) -> list[_Game]:
        rng = random.Random(chunk_seed)
        games = [_Game(state) for state in states]
        while not all(game.state.over for game in games):
            searching = []
            for game in games:
                state = game.state
                if state.over:
                    continue
                legal = state.legal_mask()
                if legal.bit_count() == 1:
                    card = legal.bit_length() - 1
                    game.record(_one_hot(card))
                    state.play(card)
                    continue
                searching.append(game)
            searches = [mcts.MctsSearch(game.state, mcts.training_simulations(game.state),
                                        random.Random(rng.getrandbits(64))) for game in searching]
            for game, result in zip(searching, mcts.run(searches, self.evaluator), strict=True):
                game.record(result.policy.astype(np.float32), result.value)
                game.state.play(result.card)
        return games

    def _teach(self, states: list[GongzhuState], teacher: str, chunk_seed: int) -> list[_Game]:
        games = []
        rollouts = mcts.RolloutEvaluator(lambda seed: make_agent(teacher, "gongzhu", seed),
                                         derive_seed(chunk_seed, "siblings"))
        for number, state in enumerate(states):
            agents = [make_agent(teacher, "gongzhu", derive_seed(chunk_seed, "teacher", number, seat))
                      for seat in range(4)]
            game = _Game(state)
            while not state.over:
                seat = state.to_move
                legal = state.legal_actions()
                card = agents[seat].act(state.observation(seat), legal)
                game.record(_one_hot(CARD_INDEX[card]))
                if self.sibling_rollouts and len(legal) > 1:
                    game.siblings.extend(_sibling(state, other, rollouts, self.sibling_rollouts)
                                         for other in legal if other != card)
                state.apply(card)
            games.append(game)
        return games


def _sibling(state: GongzhuState, card: str, rollouts: mcts.RolloutEvaluator,
             count: int) -> tuple[np.ndarray, np.ndarray, float]:
    """The position after ``card`` is played in ``state`` (not changed): its inputs, legal cards and value target,
    the mean payoff for its player to move of ``count`` games played out from it (the module docstring)."""
    child = state.clone()
    child.apply(card)
    if child.over:
        raise PaijuError("a sibling comes from a decision of two cards or more, so its game is not over")
    values = [rollouts.rollout(child, repeat) for repeat in range(count)]
    return encode_batch([child])[0].astype(np.uint8), legal_masks([child])[0], float(np.mean(values))


def check_value_target(value_target: str) -> None:
    """``PaijuError`` unless ``value_target`` is one of ``VALUE_TARGETS``."""
    if value_target not in VALUE_TARGETS:
        raise PaijuError(f"value_target must be one of {', '.join(VALUE_TARGETS)}, got {value_target!r}")


def weights_of(network: torch.nn.Module) -> Weights:
    """The parameters as numpy arrays on the CPU (the learner's network may be on a GPU)."""
    return {name: value.detach().cpu().numpy().copy() for name, value in network.state_dict().items()}


__all__ = ["VALUE_TARGETS", "GamesChunk", "Positions", "ScrofaZeroWorker", "ValueTarget", "Weights",
           "check_value_target", "weights_of"]
