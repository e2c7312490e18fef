"""Training checkpoints: everything a run needs to continue where it stopped (``paiju train dmc --resume``).

``DIR/checkpoint.pt`` holds the run's settings, every network and optimizer, the counters (frames, learner
steps, chunks consumed, games, seconds trained) and the samples not yet trained on. It is written atomically
(a temporary file, then a rename), so a run killed at any moment — even with ``kill -9`` while writing — leaves
the previous checkpoint intact and loses at most the training since it. ``DIR/model.pt`` (the networks
alone, ``paiju.agents.dmc.weights``) is written beside it for agents and evaluation (``dmc:DIR``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch

from paiju.agents.dmc.weights import MODEL_FILE, DMCModels, atomic_torch_save, read_torch_file, save_models
from paiju.core.errors import PaijuError
from paiju.train.config import DMCConfig
from paiju.train.selfplay import Samples

FORMAT = "paiju-dmc-checkpoint-1"
CHECKPOINT_FILE = "checkpoint.pt"
TRAINERS = {"paiju-dmc-checkpoint-1": "dmc", "paiju-scrofazero-checkpoint-1": "scrofazero",
            "paiju-ppo-checkpoint-1": "ppo", "paiju-sl-checkpoint-1": "sl"}
"""Checkpoint format → the ``paiju train`` command that writes (and resumes) it."""


def require_format(data: Any, expected: str, path: Path) -> None:
    """Refuse a checkpoint not of format ``expected``, saying what ``path`` holds and how to resume it."""
    found = data.get("format") if isinstance(data, dict) else None
    if found == expected:
        return
    wanted = TRAINERS[expected]
    if found in TRAINERS:
        raise PaijuError(f"{path} holds a `paiju train {TRAINERS[found]}` run, not a `paiju train {wanted}` one; "
                         f"resume it with `paiju train {TRAINERS[found]} --resume {path.parent}`")
    raise PaijuError(f"{path} is not a paiju training checkpoint (expected format {expected!r})")


@dataclass
class Progress:
    """Counters of a run, carried across resumes."""

    frames: int = 0
    steps: int = 0
    chunks: int = 0
    games: int = 0
    seconds: float = 0.0
    commands: list[str] = field(default_factory=list)
    """The command line of the run and of each resume."""


@dataclass
class LearnerState:
    """What a checkpoint restores."""

    config: DMCConfig
    models: DMCModels
    optimizers: dict[str, torch.optim.Optimizer]
    progress: Progress = field(default_factory=Progress)
    buffers: dict[str, Samples | None] = field(default_factory=dict)


def make_optimizer(network: torch.nn.Module, config: DMCConfig) -> torch.optim.Optimizer:
    """RMSProp as in DouZero and DanZero."""
    return torch.optim.RMSprop(network.parameters(), lr=config.lr, alpha=config.alpha, eps=config.eps)


def fresh_state(config: DMCConfig) -> LearnerState:
    models = DMCModels.fresh(config.game, config.objective, config.model, config.seed)
    optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
    return LearnerState(config, models, optimizers, Progress(), {role: None for role in models.networks})


def _samples_to_torch(samples: Samples | None) -> dict[str, Any] | None:
    if samples is None:
        return None
    return {"x": torch.from_numpy(samples.x), "target": torch.from_numpy(samples.target),
            "q_actor": torch.from_numpy(samples.q_actor),
            "context": {name: torch.from_numpy(value) for name, value in samples.context.items()}}


def _samples_from_torch(data: dict[str, Any] | None) -> Samples | None:
    if data is None:
        return None
    return Samples(data["x"].numpy(), {name: value.numpy() for name, value in data["context"].items()},
                   data["target"].numpy(), data["q_actor"].numpy())


def save_checkpoint(state: LearnerState) -> None:
    """Write ``checkpoint.pt`` and ``model.pt`` into the run's folder, each atomically."""
    out = state.config.out
    progress = state.progress
    state.models.meta = {"seed": state.config.seed, "frames": progress.frames, "seconds": round(progress.seconds, 1),
                         "games": progress.games, "command": " && ".join(progress.commands),
                         "config": state.config.to_json()}
    atomic_torch_save({
        "format": FORMAT, "config": state.config.to_json(), "models": state.models.to_dict(),
        "optimizers": {role: optimizer.state_dict() for role, optimizer in state.optimizers.items()},
        "progress": vars(progress).copy(),
        "buffers": {role: _samples_to_torch(samples) for role, samples in state.buffers.items()},
    }, out / CHECKPOINT_FILE)
    save_models(state.models, out / MODEL_FILE)


def load_checkpoint(folder: Path) -> LearnerState:
    """The state saved in ``folder/checkpoint.pt``."""
    path = Path(folder) / CHECKPOINT_FILE
    data = read_torch_file(path, "checkpoint to resume from")
    require_format(data, FORMAT, path)
    config = replace(DMCConfig.from_json(data["config"]), out=Path(folder))
    models = DMCModels.from_dict(data["models"], str(path))
    optimizers = {role: make_optimizer(network, config) for role, network in models.networks.items()}
    for role, optimizer in optimizers.items():
        optimizer.load_state_dict(data["optimizers"][role])
    buffers = {role: _samples_from_torch(data["buffers"].get(role)) for role in models.networks}
    return LearnerState(config, models, optimizers, Progress(**data["progress"]), buffers)


__all__ = ["CHECKPOINT_FILE", "TRAINERS", "LearnerState", "Progress", "fresh_state", "load_checkpoint",
           "make_optimizer", "require_format", "save_checkpoint"]
