"""What Deep Monte-Carlo needs to know of a game: its roles, features, networks, fallback player, returns.

A decision is encoded as ``Decision``: the state features once, the action features of each legal action, and
``context``, arrays shared by every action of the decision (DouDizhu's history ``z``); a network input row is the
state followed by one action. Features
are small integers (card counts, one-hots, -1 flags), so samples travel and are stored as int8.

- **DouDizhu** (DouZero): one network per position — ``landlord``, ``down`` (plays after the landlord), ``up``
  — on paiju's DouZero encoder (``paiju.agents.dmc.douzero_features``). Self-play uses research mode (seat 0 is
  the landlord, no bidding); bids are made by the ``rules`` player's bid module. Return of every step of a
  seat: the objective ``wp`` gives +1 / -1 for a win / loss, ``adp`` the seat's payoff (landlord ±2, peasant
  ±1, doubled per bomb or rocket: paiju's research scoring). Features ``laizi`` train on 癞子 DouDizhu instead
  (``paiju.agents.dmc.laizi_features``: DouZero's plus the wild ranks and what each play's wild cards stand for).
- **GuanDan** (DanZero): one network shared by all seats, on the 513 + 54 features of the paper (``paper``) or, by
  default, on those and paiju's two blocks, who played the play to beat and the hand each action leaves (``plus``:
  516 + 174; ``paiju.agents.dmc.danzero_features``); tribute and return are decided by the ``rules`` player's
  heuristics (DanZero does the same). Return of a step (spec "DanZero", reward): its round's result for the player's
  team (+3 / +2 / +1 for the winners of 1st & 2nd / 1st & 3rd / 1st & 4th, negated for the losers), plus +1 / -1 for
  the game's winners / losers on the steps of the round that ends the game (our reading of "at the game's end every
  step also gets ±1": the steps of the final round, whose play decides the game). Features ``advice`` add the
  ``rules`` player's score of each action to ``plus`` (``paiju.agents.dmc.advice_features``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np
from torch import nn

from paiju.agents.dmc import advice_features, laizi_features
from paiju.agents.dmc import danzero_features as guandan_features
from paiju.agents.dmc import douzero_features as doudizhu_features
from paiju.agents.dmc.models import FeatureQNet, HistoryQNet, ModelConfig
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.agents.rules.guandan import GuanDanRulesAgent
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.game import State
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.guandan.levels import team
from paiju.games.guandan.rules import GuanDanRules

Objective = Literal["wp", "adp"]


@dataclass(frozen=True, slots=True)
class Decision:
    """The network inputs of one decision: the ``state`` features [s], the same for every legal action, each
    action's features ``actions`` [n_legal, a], and per-decision ``context`` arrays. A network's input row for
    action ``i`` is the state followed by the action (``row``, ``x``); the networks score a decision without
    repeating the state (``paiju.agents.dmc.models``)."""

    state: np.ndarray
    actions: np.ndarray
    context: dict[str, np.ndarray] = field(default_factory=dict)

    def row(self, index: int) -> np.ndarray:
        """The input row of action ``index`` [s + a]."""
        return np.concatenate([self.state, self.actions[index]])

    @property
    def x(self) -> np.ndarray:
        """Every action's input row [n_legal, s + a]."""
        return np.concatenate([np.broadcast_to(self.state, (len(self.actions), len(self.state))), self.actions],
                              axis=1)


class DMCAdapter(ABC):
    """One game as Deep Monte-Carlo sees it."""

    game: ClassVar[str]
    roles: ClassVar[tuple[str, ...]]
    """The networks, by name (a role's decisions all go to the same network)."""
    sides: ClassVar[tuple[tuple[int, ...], ...]]
    """The seats that win or lose together in a self-play game (``selfplay_rules``), side by side."""
    features: str
    """The encoder's name (``FEATURES``)."""

    @abstractmethod
    def role(self, observation: Any) -> str | None:
        """The network deciding this observation's move; ``None`` for decisions left to ``fallback``."""

    def accepts(self, observation: Any) -> bool:
        """Whether the networks of this encoder can play the game ``observation`` is from (its ruleset)."""
        return True

    @abstractmethod
    def encode(self, observation: Any, legal: Sequence[Any]) -> Decision:
        """Features of every legal action of the decision."""

    @abstractmethod
    def network(self, role: str, config: ModelConfig) -> nn.Module:
        """A freshly initialized network for ``role``."""

    @abstractmethod
    def fallback(self, seed: int) -> Agent:
        """The heuristic player making the decisions no network makes (bids, tribute)."""

    @abstractmethod
    def selfplay_rules(self) -> Any:
        """The ruleset self-play games are dealt under."""

    @abstractmethod
    def step_return(self, final: State, seat: int, deal: int, objective: Objective) -> float:
        """The Monte-Carlo return of a step taken by ``seat`` in deal (round) ``deal`` of the finished game."""


class DouDizhuAdapter(DMCAdapter):
    game = "doudizhu"
    roles = ("landlord", "down", "up")
    sides = ((0,), (1, 2))  # research mode: seat 0 is the landlord

    def __init__(self, features: str) -> None:
        self.features = features
        self.laizi = features == "laizi"
        self.encoder = laizi_features if self.laizi else doudizhu_features
        self.action_size = laizi_features.ACTION if self.laizi else doudizhu_features.CARD_ROW

    def role(self, observation: Any) -> str | None:
        return observation.position if observation.phase == "play" else None

    def accepts(self, observation: Any) -> bool:
        """Classic networks play the classic game, 癞子 networks 癞子."""
        return bool(observation.rules.laizi) == self.laizi

    def encode(self, observation: Any, legal: Sequence[Any]) -> Decision:
        features = self.encoder.encode(observation, legal)
        state_size = features.x.shape[1] - self.action_size
        return Decision(features.x[0, :state_size], features.x[:, state_size:], {"z": features.z})

    def network(self, role: str, config: ModelConfig) -> nn.Module:
        x_size = self.encoder.LANDLORD_X if role == "landlord" else self.encoder.PEASANT_X
        return HistoryQNet(x_size, config)

    def fallback(self, seed: int) -> Agent:
        return DouDizhuRulesAgent(seed)

    def selfplay_rules(self) -> Any:
        return DouDizhuRules(mode="research", laizi=self.laizi)

    def step_return(self, final: State, seat: int, deal: int, objective: Objective) -> float:
        payoff = final.payoffs()[seat]
        return float(np.sign(payoff)) if objective == "wp" else float(payoff)


class GuanDanAdapter(DMCAdapter):
    game = "guandan"
    roles = ("player",)
    sides = ((0, 2), (1, 3))
    SIZES: ClassVar[dict[str, tuple[int, int]]] = {
        "plus": (guandan_features.PLUS_STATE_SIZE, guandan_features.PLUS_INPUT_SIZE),
        "paper": (guandan_features.STATE_SIZE, guandan_features.INPUT_SIZE),
        "advice": (advice_features.STATE_SIZE, advice_features.INPUT_SIZE)}
    """Each encoder's state size and input row size (state + action)."""

    def __init__(self, features: str) -> None:
        self.features = features
        self.state_size, self.input_size = self.SIZES[features]

    def role(self, observation: Any) -> str | None:
        return "player" if observation.phase == "play" else None

    def encode(self, observation: Any, legal: Sequence[Any]) -> Decision:
        if self.features == "plus":
            return Decision(*guandan_features.encode_plus(observation, legal))
        if self.features == "advice":
            return Decision(*advice_features.encode(observation, legal))
        return Decision(guandan_features.encode_state(observation), guandan_features.encode_actions(legal))

    def network(self, role: str, config: ModelConfig) -> nn.Module:
        return FeatureQNet(self.input_size, config)

    def fallback(self, seed: int) -> Agent:
        return GuanDanRulesAgent(seed)

    def selfplay_rules(self) -> Any:
        return GuanDanRules()

    def step_return(self, final: State, seat: int, deal: int, objective: Objective) -> float:
        rounds = final.rounds  # type: ignore[attr-defined]
        value = float(rounds[deal].outcome.scores[team(seat)])
        winner = final.winner  # type: ignore[attr-defined]
        if deal == len(rounds) - 1 and winner is not None:
            value += 1.0 if team(seat) == winner else -1.0
        return value


FEATURES: dict[str, tuple[str, ...]] = {"doudizhu": ("paper", "laizi"), "guandan": ("plus", "paper", "advice")}
"""Each game's encoders, its default first."""
ADAPTERS: dict[tuple[str, str], DMCAdapter] = {
    **{("doudizhu", features): DouDizhuAdapter(features) for features in FEATURES["doudizhu"]},
    **{("guandan", features): GuanDanAdapter(features) for features in FEATURES["guandan"]},
}
GAMES = tuple(FEATURES)


def adapter_for(game: str, features: str = "") -> DMCAdapter:
    """The DMC adapter of ``game`` (DouDizhu, GuanDan) reading ``features`` (empty: the game's default)."""
    if game not in FEATURES:
        raise PaijuError(f"Deep Monte-Carlo has no encoder for {game!r}; it trains on: {', '.join(GAMES)}")
    if features and features not in FEATURES[game]:
        raise PaijuError(f"{game} DMC features must be one of {', '.join(FEATURES[game])}, got {features!r}")
    return ADAPTERS[game, features or FEATURES[game][0]]


__all__ = ["ADAPTERS", "FEATURES", "GAMES", "DMCAdapter", "Decision", "DouDizhuAdapter", "GuanDanAdapter", "Objective",
           "adapter_for"]
