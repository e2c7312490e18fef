"""DeepRocket's two networks: the policy CNN (309 labels) and the kicker CNN (28 kickers).

Source: DeepRocket §4.2-4.3. The policy network is ``layers`` 3 × 3 convolutions with ``filters`` filters and
ReLU over the 15 × 19 input map with 21 planes as channels (``paiju.agents.deeprocket.features``), then
one fully connected layer to the 309 labels; the kicker network the same with ``kicker_layers`` /
``kicker_filters`` over the 15 × 9 map of 3 planes, to the 28 kickers. Illegal labels are masked before the
softmax (``masked_logits``).

Sizes: the paper's policy network is 10 layers of 512 filters (``PAPER``), about 24 M weights and 7 GFLOP a
decision — a GPU network. paiju's default (``ModelConfig()``) is 6 layers of 64 filters, about 60 M
multiply-adds, a few milliseconds a decision on one CPU core; BENCHMARKS.md measures both. The paper leaves
the last layer's input unstated: a 1 × 1 convolution first squeezes the channels to ``head`` (8), so that the
fully connected layer stays small (2,280 × 309 weights instead of 291,840 × 309 at the paper's width).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import torch
from torch import nn

from paiju.agents.deeprocket.features import KICKER_SHAPE, POLICY_SHAPE
from paiju.agents.deeprocket.labels import KICKER_COUNT, LABEL_COUNT
from paiju.agents.model_files import atomic_torch_save, read_torch_file, require_model_format, resolve
from paiju.core.errors import PaijuError

FORMAT = "paiju-deeprocket-1"
MASKED = -1e9
"""Logit given to illegal labels: their probability underflows to exactly 0."""


@dataclass(frozen=True)
class ModelConfig:
    """Network sizes (module docs)."""

    layers: int = 6
    filters: int = 64
    kicker_layers: int = 5
    kicker_filters: int = 32
    head: int = 8

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ModelConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(value) - known
        if unknown:
            raise ValueError(f"unknown model settings {sorted(unknown)}")
        return cls(**{name: int(number) for name, number in value.items()})


PAPER = ModelConfig(layers=10, filters=512)
"""The paper's policy network (§4.2: 10 convolutional layers, 512 filters)."""


def _cnn(planes: int, rows: int, layers: int, filters: int, head: int, outputs: int) -> nn.Sequential:
    """``layers`` 3 × 3 convolutions + ReLU, a 1 × 1 squeeze to ``head`` channels, one linear layer."""
    if layers < 1 or filters < 1 or head < 1:
        raise ValueError(f"need layers, filters and head >= 1, got {layers}, {filters}, {head}")
    stack: list[nn.Module] = []
    channels = planes
    for _ in range(layers):
        stack += [nn.Conv2d(channels, filters, 3, padding=1), nn.ReLU()]
        channels = filters
    stack += [nn.Conv2d(channels, head, 1), nn.ReLU(), nn.Flatten(), nn.Linear(head * rows * POLICY_SHAPE[2], outputs)]
    return nn.Sequential(*stack)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with the entries where ``mask`` is false set to ``MASKED``."""
    return logits.masked_fill(~mask, MASKED)


class DeepRocketNets(nn.Module):
    """The policy and kicker networks of one model file, with its settings and notes (``meta``)."""

    def __init__(self, config: ModelConfig = ModelConfig(), meta: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.config = config
        self.meta: dict[str, Any] = dict(meta or {})
        self.policy = _cnn(POLICY_SHAPE[0], POLICY_SHAPE[1], config.layers, config.filters, config.head,
                           LABEL_COUNT)
        self.kicker = _cnn(KICKER_SHAPE[0], KICKER_SHAPE[1], config.kicker_layers, config.kicker_filters,
                           config.head, KICKER_COUNT)

    def policy_logits(self, planes: torch.Tensor) -> torch.Tensor:
        """[batch, 309] from [batch, 21, 19, 15] planes (any numeric dtype)."""
        return self.policy(planes.float())

    def kicker_logits(self, planes: torch.Tensor) -> torch.Tensor:
        """[batch, 28] from [batch, 3, 9, 15] planes."""
        return self.kicker(planes.float())

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "model": self.config.to_json(), "meta": self.meta,
                "networks": {name: value.detach().cpu().clone() for name, value in self.state_dict().items()}}

    @classmethod
    def from_dict(cls, data: Any, source: str) -> DeepRocketNets:
        require_model_format(data, FORMAT, "DeepRocket model", source)
        try:
            nets = cls(ModelConfig.from_json(data["model"]), data.get("meta", {}))
            nets.load_state_dict({name: value.float() for name, value in data["networks"].items()})
        except (KeyError, ValueError, RuntimeError, TypeError, AttributeError) as error:
            raise PaijuError(f"{source}: damaged or mismatched DeepRocket model file: "
                             f"{str(error).splitlines()[0]}") from None
        return nets.eval()


def save_model(nets: DeepRocketNets, path: Path) -> None:
    """Write ``nets`` to ``path`` atomically."""
    atomic_torch_save(nets.to_dict(), path)


def load_model(path: Path) -> DeepRocketNets:
    """Read a DeepRocket model file, or a training folder's ``model.pt``."""
    path = resolve(path)
    return DeepRocketNets.from_dict(read_torch_file(path, "DeepRocket model file"), str(path))


__all__ = ["FORMAT", "PAPER", "DeepRocketNets", "ModelConfig", "load_model", "masked_logits",
           "save_model"]
