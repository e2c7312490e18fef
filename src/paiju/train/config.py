"""Settings of a Deep Monte-Carlo training run (``paiju train dmc``), saved with every checkpoint.

Defaults follow DouZero (RMSProp, α 0.99, ε 1e-5, gradient norm clipped at 40, exploration ε 0.01,
32 × 100 frames per learner batch) with DanZero's learning rate for GuanDan (1e-3; DouZero's is 1e-4) and its
clipped target (DanZero Eq. 1–3, λ = 0.65) on by default for GuanDan only. Network sizes default to
``ModelConfig()``, smaller than the papers' (see ``paiju.agents.dmc.models``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from paiju.agents.dmc.adapters import Objective, adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.core.errors import PaijuError
from paiju.train.loop import settings_from_json, settings_to_json

Backend = Literal["local", "ray"]

LEARNING_RATES = {"doudizhu": 1e-4, "guandan": 1e-3}
CLIP_LAMBDAS: dict[str, float | None] = {"doudizhu": None, "guandan": 0.65}


@dataclass(frozen=True)
class DMCConfig:
    """One training run. ``minutes`` and ``frames`` bound the run (whichever comes first; 0 = no bound)."""

    game: str
    out: Path
    seed: int = 0
    minutes: float = 10.0
    frames: int = 0
    objective: Objective = "adp"
    actors: int = 2
    backend: Backend = "local"
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""
    model: ModelConfig = field(default_factory=ModelConfig)
    batch_size: int = 3200
    chunk_frames: int = 1600
    """Frames an actor plays (whole games) before sending its samples and receiving fresh weights."""
    learning_rate: float | None = None
    alpha: float = 0.99
    eps: float = 1e-5
    grad_clip: float = 40.0
    epsilon: float = 0.01
    clip_lambda: float | None = -1.0
    """DanZero's clipped target; ``None`` turns it off; the default (-1) picks the game's (``CLIP_LAMBDAS``)."""
    learner_threads: int = 1
    checkpoint_minutes: float = 5.0
    eval_minutes: float = 5.0
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ("random", "rules")
    log_seconds: float = 10.0

    def __post_init__(self) -> None:
        adapter_for(self.game)
        if self.objective not in ("wp", "adp"):
            raise PaijuError(f"objective must be 'wp' or 'adp', got {self.objective!r}")
        if self.backend not in ("local", "ray"):
            raise PaijuError(f"backend must be 'local' or 'ray', got {self.backend!r}")
        for name in ("actors", "batch_size", "chunk_frames", "learner_threads"):
            if getattr(self, name) < 1:
                raise PaijuError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.minutes <= 0 and self.frames <= 0:
            raise PaijuError("a run needs a bound: --minutes or --frames")
        if not 0 <= self.epsilon <= 1:
            raise PaijuError(f"epsilon must be in [0, 1], got {self.epsilon}")

    @property
    def lr(self) -> float:
        return LEARNING_RATES[self.game] if self.learning_rate is None else self.learning_rate

    @property
    def clip(self) -> float | None:
        return CLIP_LAMBDAS[self.game] if self.clip_lambda == -1.0 else self.clip_lambda

    def to_json(self) -> dict[str, Any]:
        return settings_to_json(self, model=self.model.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DMCConfig:
        return settings_from_json(cls, data, model=ModelConfig.from_json(data["model"]))


__all__ = ["Backend", "DMCConfig"]
