"""DMC model files: the networks of every role of one game, with how they were made.

A file is a ``torch.save`` dictionary, loaded with ``weights_only=True`` (no code runs on load):
``{"format": "paiju-dmc-1", "game", "objective", "model": ModelConfig JSON, "networks": {role: state_dict},
"meta": {...}}`` where ``meta`` says how the weights were trained (trainer, command, seed, frames, wall time) and,
for networks whose scores are not Q-values, what they are (``scores``: a GuanDan policy trained by ``paiju train
ppo`` scores actions by its logits × τ). Shipped
files (``paiju/agents/dmc/weights/<game>.pt``) store half-precision tensors to stay small; they are loaded back
as float32. Files are read and written by ``paiju.agents.model_files``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import torch
from torch import nn

from paiju.agents.dmc.adapters import DMCAdapter, Objective, adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.model_files import atomic_torch_save, read_torch_file, resolve
from paiju.core.errors import PaijuError

FORMAT = "paiju-dmc-1"


@dataclass
class DMCModels:
    """The networks of every role of ``game``, trained for ``objective``."""

    game: str
    objective: Objective
    config: ModelConfig
    networks: dict[str, nn.Module]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def adapter(self) -> DMCAdapter:
        return adapter_for(self.game, self.config.features)

    @classmethod
    def fresh(cls, game: str, objective: Objective, config: ModelConfig, seed: int) -> DMCModels:
        """Newly initialized networks (``seed`` fixes the initial weights); ``config.features`` is resolved to
        the name of the encoder they read."""
        adapter = adapter_for(game, config.features)
        config = replace(config, features=adapter.features)
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            networks = {role: adapter.network(role, config) for role in adapter.roles}
        return cls(game, objective, config, networks)

    def to_dict(self, half: bool = False) -> dict[str, Any]:
        def tensors(network: nn.Module) -> dict[str, torch.Tensor]:
            return {name: (value.half() if half else value).detach().cpu().clone()
                    for name, value in network.state_dict().items()}

        return {"format": FORMAT, "game": self.game, "objective": self.objective, "model": self.config.to_json(),
                "networks": {role: tensors(network) for role, network in self.networks.items()},
                "meta": self.meta}

    @classmethod
    def from_dict(cls, data: Any, source: str) -> DMCModels:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PaijuError(f"{source} is not a paiju DMC model file (format {FORMAT!r})")
        try:
            models = cls.fresh(data["game"], data["objective"], ModelConfig.from_json(data["model"]), seed=0)
            states = {role: {name: value.float() for name, value in data["networks"][role].items()}
                      for role in models.networks}
        except (KeyError, ValueError, AttributeError, TypeError, PaijuError) as error:
            raise PaijuError(f"{source}: damaged DMC model file: {error}") from None
        for role, network in models.networks.items():
            _require_shapes(network, states[role], f"{source}: the {role} network of {models.config.features} features")
            try:
                network.load_state_dict(states[role])
            except RuntimeError as error:
                raise PaijuError(f"{source}: damaged DMC model file: {error}") from None
        models.meta = dict(data.get("meta", {}))
        return models


def _require_shapes(network: nn.Module, state: dict[str, torch.Tensor], what: str) -> None:
    """``PaijuError`` naming ``what`` when a stored tensor's shape is not the network's (another feature size)."""
    for name, expected in network.state_dict().items():
        if name in state and state[name].shape != expected.shape:
            raise PaijuError(f"{what} has {name} of shape {tuple(expected.shape)}; the file holds "
                             f"{tuple(state[name].shape)}")


def save_models(models: DMCModels, path: Path, half: bool = False) -> None:
    """Write ``models`` to ``path`` atomically."""
    atomic_torch_save(models.to_dict(half), path)


def load_models(path: Path) -> DMCModels:
    """Read a model file, or a training folder's latest ``model.pt``."""
    path = resolve(path)
    return DMCModels.from_dict(read_torch_file(path, "DMC model file"), str(path))


def shipped_model_path(game: str) -> Path:
    """The model shipped in the package for ``game``."""
    return Path(str(resources.files("paiju.agents.dmc") / "weights" / f"{game}.pt"))


__all__ = ["FORMAT", "DMCModels", "load_models", "save_models", "shipped_model_path"]
