"""ScrofaNet: ScrofaZero's policy-value network (ScrofaZero §8.3, §8.8; the authors' ``PV_NET_2``).

Fully connected with skip connections: the 434 inputs (``features``) go through three ReLU layers
``width1 → width2 → width3``, then ``blocks`` residual blocks ``x ← relu(b(relu(a(x)))) + x`` of two
``width3``-wide linear layers, then one linear layer to 53 outputs: 52 policy logits (card order) and the value,
multiplied by ``VALUE_SCALE`` = 10 so that the layer works in tens of points (the authors' ``VALUE_RENORMAL``).
The paper's size (``PAPER_CONFIG``: 2048, 2048, 512, 10 blocks) has 11,416,629 parameters (Table 5 reports
11,416,299 for "Fully Connection 24"); the default ``ModelConfig()`` is a smaller network for CPUs.

Illegal cards are masked **before** the softmax (§8.8): ``policy`` and ``log_policy`` give them the lowest finite
logit, so that their probability is exactly 0 and the legal ones sum to 1. (The paper writes
``softmax(p × legal_mask)``; read literally that would give an illegal card the logit 0 and a positive
probability, so paiju takes the spec's reading: softmax over the legal cards' logits only.) The floor is finite
rather than −inf so that ``target · log_policy`` is 0, not NaN, on illegal cards in the KL loss.

Files (``save`` / ``load``): a ``torch.save`` dictionary ``{"format": "paiju-scrofanet-1", "config", "weights"}``
read back with ``weights_only=True``, written atomically (a temporary file beside it, then a rename).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from paiju.agents.model_files import atomic_torch_save, read_torch_file
from paiju.agents.scrofazero.features import INPUT_SIZE
from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import NUM_CARDS

VALUE_SCALE = 10.0
"""The value output is the last linear unit times 10 (the authors' ``VALUE_RENORMAL``), in score points."""
OUTPUT_SIZE = NUM_CARDS + 1
FORMAT = "paiju-scrofanet-1"


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """ScrofaNet's sizes. The default (512, 512, 256, 4 blocks; 1.16 M parameters) is for CPUs, where the network
    bounds self-play: MCTS values one leaf (or a few searches' leaves) per forward pass, and on one thread the
    default takes 0.15 ms at batch 1 and 1.6 ms at batch 64 against ``PAPER_CONFIG``'s 2.6 ms and 17 ms (measured
    on the development machine). ``PAPER_CONFIG`` is the authors' size, for a GPU."""

    width1: int = 512
    """Width of the first layer (434 → width1)."""
    width2: int = 512
    """Width of the second layer."""
    width3: int = 256
    """Width of the third layer and of every residual block."""
    blocks: int = 4
    """Residual blocks of two width3 × width3 linear layers."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < (0 if field.name == "blocks" else 1):
                least = "a non-negative" if field.name == "blocks" else "a positive"
                raise ValueError(f"ModelConfig.{field.name} must be {least} integer, got {value!r}")

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: Any) -> ModelConfig:
        names = {field.name for field in fields(cls)}
        if not isinstance(value, dict) or set(value) != names:
            raise ValueError(f"a ScrofaNet config has exactly the keys {sorted(names)}, got {value!r}")
        return cls(**value)


PAPER_CONFIG = ModelConfig(width1=2048, width2=2048, width3=512, blocks=10)
"""The authors' network (§8.3, Table 5 "Fully Connection 24"; ``PV_NET_2``): ≈ 11.4 M parameters."""


class ResidualBlock(nn.Module):
    """``x ← relu(second(relu(first(x)))) + x`` (the authors' ``sc*a`` / ``sc*b`` pairs)."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.first = nn.Linear(width, width)
        self.second = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.second(F.relu(self.first(x)))) + x


class ScrofaNet(nn.Module):
    """434 inputs → (policy logits ``[n, 52]``, value ``[n]`` in points for the player to move).

    ``seed`` fixes the initial weights (``torch.manual_seed`` inside ``torch.random.fork_rng``, so the caller's
    random stream is left as it was).
    """

    def __init__(self, config: ModelConfig | None = None, seed: int = 0) -> None:
        super().__init__()
        self.config = config or ModelConfig()
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            self.trunk = nn.Sequential(
                nn.Linear(INPUT_SIZE, self.config.width1), nn.ReLU(),
                nn.Linear(self.config.width1, self.config.width2), nn.ReLU(),
                nn.Linear(self.config.width2, self.config.width3), nn.ReLU())
            self.blocks = nn.Sequential(*(ResidualBlock(self.config.width3) for _ in range(self.config.blocks)))
            self.head = nn.Linear(self.config.width3, OUTPUT_SIZE)

    def forward(self, inputs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.head(self.blocks(self.trunk(inputs)))
        return out[..., :NUM_CARDS], out[..., NUM_CARDS] * VALUE_SCALE


def policy(logits: torch.Tensor, legal_mask: torch.Tensor) -> torch.Tensor:
    """Softmax over the legal cards' logits only (§8.8): exactly 0 on illegal cards, summing to 1 on each row."""
    return torch.softmax(_masked(logits, legal_mask), dim=-1)


def log_policy(logits: torch.Tensor, legal_mask: torch.Tensor) -> torch.Tensor:
    """``log policy(logits, legal_mask)`` for the KL loss: finite everywhere, about −3.4e38 on illegal cards."""
    return torch.log_softmax(_masked(logits, legal_mask), dim=-1)


def _masked(logits: torch.Tensor, legal_mask: torch.Tensor) -> torch.Tensor:
    """The logits with every illegal card's set to the lowest finite value of their dtype."""
    legal = legal_mask.to(device=logits.device, dtype=torch.bool)
    if legal.shape != logits.shape:
        raise ValueError(f"legal_mask has shape {tuple(legal.shape)}, the logits {tuple(logits.shape)}")
    if not bool(legal.any(dim=-1).all()):
        raise ValueError("a row of legal_mask has no legal card: the policy over no cards is undefined")
    return logits.masked_fill(~legal, torch.finfo(logits.dtype).min)


def save(model: ScrofaNet, path: Path | str) -> None:
    """Write ``model``'s config and weights to ``path`` atomically."""
    weights = {name: value.detach().cpu().clone() for name, value in model.state_dict().items()}
    atomic_torch_save({"format": FORMAT, "config": model.config.to_json(), "weights": weights}, Path(path))


def load(path: Path | str, config: ModelConfig | None = None) -> ScrofaNet:
    """The network saved at ``path`` (on the CPU). With ``config``, the file must hold a network of that size."""
    path = Path(path)
    data = read_torch_file(path, "ScrofaNet model file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PaijuError(f"{path} is not a ScrofaNet model file (format {FORMAT!r})")
    try:
        stored = ModelConfig.from_json(data["config"])
    except (KeyError, TypeError, ValueError) as error:
        raise PaijuError(f"{path}: damaged ScrofaNet config: {error}") from None
    if config is not None and stored != config:
        raise PaijuError(f"{path} holds a ScrofaNet of {stored}, not the expected {config}")
    model = ScrofaNet(stored)
    try:
        model.load_state_dict(data["weights"])
    except (KeyError, RuntimeError, TypeError) as error:
        raise PaijuError(f"{path}: the weights do not fit a ScrofaNet of {stored}: {error}") from None
    return model


__all__ = ["FORMAT", "OUTPUT_SIZE", "PAPER_CONFIG", "VALUE_SCALE", "ModelConfig", "ResidualBlock", "ScrofaNet",
           "load", "log_policy", "policy", "save"]
