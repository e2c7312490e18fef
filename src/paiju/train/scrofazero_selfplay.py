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
uint8), its legal cards, the policy target and the value target: the game's final payoff for that player
(``GongzhuState.payoffs``, score points, the Monte-Carlo return). A decision with one legal card is recorded
without a search (its target is that card). The deals of chunk ``k`` come from ``derive_seed(seed, "chunk", k)``
and every search's generator from the chunk's, so a run is a function of its seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

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
    """One game in progress and its decisions so far: (inputs, legal cards, policy target, seat)."""

    def __init__(self, state: GongzhuState) -> None:
        self.state = state
        self.steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        self.siblings: list[tuple[np.ndarray, np.ndarray, float]] = []
        """Positions of the cards not played, with their rollout values (warm start with sibling rollouts)."""

    def record(self, target: np.ndarray) -> None:
        state = self.state
        self.steps.append((encode_batch([state])[0].astype(np.uint8), legal_masks([state])[0], target,
                           state.to_move))

    def positions(self) -> Positions:
        payoffs = self.state.payoffs()
        played = Positions(np.stack([s[0] for s in self.steps]), np.stack([s[1] for s in self.steps]),
                           np.stack([s[2] for s in self.steps]).astype(np.float32),
                           np.array([payoffs[s[3]] for s in self.steps], dtype=np.float32))
        if not self.siblings:
            return played
        siblings = Positions(np.stack([s[0] for s in self.siblings]), np.stack([s[1] for s in self.siblings]),
                             np.zeros((len(self.siblings), NUM_CARDS), dtype=np.float32),
                             np.array([s[2] for s in self.siblings], dtype=np.float32))
        return Positions.concat([played, siblings])


def _one_hot(card: int) -> np.ndarray:
    target = np.zeros(NUM_CARDS, dtype=np.float32)
    target[card] = 1.0
    return target


class ScrofaZeroWorker:
    """One actor: its own copy of the network, refreshed from the learner's weights."""

    def __init__(self, model: ModelConfig, seed: int, sibling_rollouts: int = 0) -> None:
        torch.set_num_threads(1)
        self.game = Gongzhu()
        self.seed = seed
        self.sibling_rollouts = sibling_rollouts
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
        return GamesChunk(index, Positions.concat([game.positions() for game in played]), games)

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
                game.record(result.policy.astype(np.float32))
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


def weights_of(network: torch.nn.Module) -> Weights:
    return {name: value.detach().numpy().copy() for name, value in network.state_dict().items()}


__all__ = ["GamesChunk", "Positions", "ScrofaZeroWorker", "Weights", "weights_of"]
