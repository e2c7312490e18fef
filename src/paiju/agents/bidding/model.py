"""The bid network and its model file.

``BidNet`` is a small MLP regressing, from ``hand_features``, the landlord's score per unit of base bid when
the hand becomes landlord (the three unknown public cards added) and the play agent plays every seat: full
scoring, ±2 × 2^(bombs + rocket + spring), so a plain win is +2 and a plain loss −2. Trained by squared
error on played games (``paiju.train.bid``), its output estimates that expectation.

A model file (``torch.save`` of plain data) holds ``format``, the widths, the decision thresholds
(``paiju.agents.bidding.agent.choose_bid``), how it was trained (``meta``) and the weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from paiju.agents.bidding.features import FEATURES, batch_features
from paiju.agents.model_files import atomic_torch_save, read_torch_file, require_model_format
from paiju.core.errors import PaijuError

FORMAT = "paiju-bid-1"
DEFAULT_HIDDEN = (128, 64)
DEFAULT_THRESHOLDS = (-0.1, 0.0, 0.1)
"""The shipped model's thresholds, tuned with `rules` playing (`weights/README.md`)."""


class BidNet(nn.Module):
    """MLP: features → hidden ReLU layers → the expected landlord score per unit of base bid."""

    def __init__(self, hidden: Sequence[int] = DEFAULT_HIDDEN) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = FEATURES
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        layers.append(nn.Linear(width, 1))
        self.body = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x).squeeze(-1)


@dataclass(slots=True)
class BidModel:
    """A bid network with its decision thresholds (estimates needed to bid 1, 2, 3) and training notes."""

    network: BidNet
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fresh(cls, hidden: Sequence[int] = DEFAULT_HIDDEN, seed: int = 0,
              thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> BidModel:
        torch.manual_seed(seed)
        return cls(BidNet(hidden), tuple(hidden), check_thresholds(thresholds, "thresholds"))

    def estimates(self, hands: Sequence[Sequence[int]]) -> np.ndarray:
        """The expected landlord score per unit of base bid of each 17-card hand."""
        self.network.eval()
        with torch.inference_mode():
            return self.network(torch.from_numpy(batch_features(hands))).numpy().astype(np.float64)

    def estimate(self, hand: Sequence[int]) -> float:
        return float(self.estimates([hand])[0])

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "hidden": list(self.hidden), "thresholds": list(self.thresholds),
                "meta": self.meta, "weights": {name: value.detach().clone()
                                               for name, value in self.network.state_dict().items()}}

    @classmethod
    def from_dict(cls, data: Any, source: str) -> BidModel:
        require_model_format(data, FORMAT, "bid model", source)
        try:
            hidden = tuple(int(size) for size in data["hidden"])
            network = BidNet(hidden)
            network.load_state_dict({name: value.float() for name, value in data["weights"].items()})
            thresholds = check_thresholds(data["thresholds"], f"{source}: thresholds")
            meta = dict(data.get("meta") or {})
        except PaijuError:
            raise
        except (KeyError, TypeError, ValueError, RuntimeError, AttributeError) as error:
            raise PaijuError(f"{source}: bad bid model file: {type(error).__name__}: {error}") from None
        return cls(network, hidden, thresholds, meta)


def check_thresholds(values: Sequence[float], what: str) -> tuple[float, float, float]:
    """Three non-decreasing numbers (bidding more never needs a weaker hand); ``PaijuError`` otherwise."""
    try:
        thresholds = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        raise PaijuError(f"{what}: expected three numbers, got {values!r}") from None
    if len(thresholds) != 3 or list(thresholds) != sorted(thresholds) or not all(np.isfinite(thresholds)):
        raise PaijuError(f"{what}: expected three finite non-decreasing numbers (to bid 1, 2, 3), got {values!r}")
    return thresholds  # type: ignore[return-value]


def save_model(model: BidModel, path: Path) -> None:
    """Write ``model`` to ``path`` atomically."""
    atomic_torch_save(model.to_dict(), Path(path))


def load_model(path: Path) -> BidModel:
    """Read a bid model file; ``PaijuError`` naming the file when it is missing, unreadable or not one."""
    path = Path(path)
    return BidModel.from_dict(read_torch_file(path, "bid model file"), str(path))


__all__ = ["DEFAULT_HIDDEN", "FORMAT", "BidModel", "BidNet", "check_thresholds", "load_model", "save_model"]
