"""The Q(state, action) networks of Deep Monte-Carlo: one row of features per legal action, one value out.

- DouDizhu (DouZero, Zha et al. 2021, Fig. 2): an LSTM over the last 15 moves (``z``, 5 × 162) whose final
  hidden state is concatenated with the state + action features ``x`` (373 landlord / 484 peasant), then an
  MLP with ReLU → 1. DouZero's sizes are LSTM 128 and MLP 512 × 5.
- GuanDan (DanZero §IV-A): an MLP with tanh over the 567 state + action features → 1; DanZero's sizes are
  512 × 5.

The history and the state are the same for every legal action of a decision: ``score`` runs the LSTM and the
state's share of the first layer once per decision (DouZero's actors run the whole network once per legal
action), then the rest per action. Training passes whole rows, one ``z`` per sample, to ``forward``.

Default sizes are smaller than the papers' (``ModelConfig``): chosen for training on CPUs, where the learner's
forward and backward passes bound the frames per second (``benchmarks/training.py`` measures both).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

HISTORY_ROW = 162
"""DouZero's history row: three moves of 54 card entries."""


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """Network sizes: ``hidden`` MLP widths; ``lstm`` the history summary's size (DouDizhu only); ``features``
    the encoder the network reads (``paiju.agents.dmc.adapters.FEATURES``; empty: the game's default)."""

    hidden: tuple[int, ...] = (256, 256, 256)
    lstm: int = 64
    features: str = ""

    def to_json(self) -> dict[str, object]:
        return {"hidden": list(self.hidden), "lstm": self.lstm, "features": self.features}

    @classmethod
    def from_json(cls, value: dict[str, object]) -> ModelConfig:
        """Sizes from a model file; a file that names no features predates the choice and holds a network of
        the paper's (``paper``)."""
        hidden = value.get("hidden", list(cls().hidden))
        lstm = value.get("lstm", cls().lstm)
        features = value.get("features", "paper")
        if not isinstance(hidden, list) or not hidden or not all(isinstance(h, int) and h > 0 for h in hidden):
            raise ValueError(f"model 'hidden' must be a non-empty list of positive integers, got {hidden!r}")
        if not isinstance(lstm, int) or lstm <= 0:
            raise ValueError(f"model 'lstm' must be a positive integer, got {lstm!r}")
        if not isinstance(features, str):
            raise ValueError(f"model 'features' must be a name, got {features!r}")
        return cls(hidden=tuple(hidden), lstm=lstm, features=features)


def score_actions(mlp: nn.Sequential, shared: torch.Tensor, actions: torch.Tensor,
                  owner: torch.Tensor | None = None) -> torch.Tensor:
    """``mlp`` over the rows ``[shared, action]`` without repeating ``shared``: its first layer applied as
    ``W_shared · shared + b`` once per decision, plus ``W_action · action`` per row (the same sum, a fraction of
    the work when the shared part is most of the row). ``shared`` [d, S] holds one row per decision, ``actions``
    [r, a] the action rows and ``owner`` [r] the decision of each (``None``: one decision). Returns [r]."""
    first = mlp[0]
    width = actions.shape[1]
    base = F.linear(shared, first.weight[:, :-width], first.bias)
    hidden = F.linear(actions, first.weight[:, -width:]) + (base[0] if owner is None else base[owner])
    for layer in list(mlp)[1:]:
        hidden = layer(hidden)
    return hidden.squeeze(-1)


def _mlp(inputs: int, hidden: tuple[int, ...], activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [nn.Linear(inputs, width), activation()]
        inputs = width
    layers.append(nn.Linear(inputs, 1))
    return nn.Sequential(*layers)


class HistoryQNet(nn.Module):
    """DouZero's network: LSTM over ``z`` [b, 5, 162], concatenated with ``x`` [n, d], MLP (ReLU) → [n]."""

    def __init__(self, x_size: int, config: ModelConfig) -> None:
        super().__init__()
        self.lstm = nn.LSTM(HISTORY_ROW, config.lstm, batch_first=True)
        self.mlp = _mlp(x_size + config.lstm, config.hidden, nn.ReLU)

    def forward(self, x: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        _, (summary, _) = self.lstm(z)
        summary = summary[-1]
        if summary.shape[0] != x.shape[0]:
            summary = summary.expand(x.shape[0], -1)
        return self.mlp(torch.cat([summary, x], dim=1)).squeeze(-1)

    def score(self, state: torch.Tensor, actions: torch.Tensor, z: torch.Tensor,
              owner: torch.Tensor | None = None) -> torch.Tensor:
        """Q of decisions' actions [r, 54] from their states [d, s] (one decision: [s]) and histories ``z``
        [d, 5, 162]: ``forward`` of the rows ``[state, action]`` with the LSTM and the state's share of the first
        layer computed once a decision (``score_actions``; ``owner`` [r]: each row's decision)."""
        _, (summary, _) = self.lstm(z)
        return score_actions(self.mlp, torch.cat([summary[-1], state.reshape(len(z), -1)], dim=1), actions, owner)


class FeatureQNet(nn.Module):
    """DanZero's network: MLP (tanh) over ``x`` [n, d] → [n]."""

    def __init__(self, x_size: int, config: ModelConfig) -> None:
        super().__init__()
        self.mlp = _mlp(x_size, config.hidden, nn.Tanh)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mlp(x).squeeze(-1)

    def score(self, state: torch.Tensor, actions: torch.Tensor, owner: torch.Tensor | None = None) -> torch.Tensor:
        """Q of decisions' actions [r, 54] from their states [d, 513] (one decision: [513]): ``forward`` of the
        rows ``[state, action]`` with the state's share of the first layer computed once a decision
        (``score_actions``; ``owner`` [r]: each row's decision)."""
        return score_actions(self.mlp, state.reshape(-1, state.shape[-1]), actions, owner)


__all__ = ["HISTORY_ROW", "FeatureQNet", "HistoryQNet", "ModelConfig", "score_actions"]
