"""PerfectDou's networks (Yang et al. 2022, §4 and appendix C): one per role (landlord, down, up), each an actor
that sees only its own seat's view and a critic that also sees the other hands ("perfect-training-imperfect-
execution", PTIE).

    h      = LSTM(history)                                         last 15 moves (``HISTORY_SHAPE``)
    s      = MLP_policy([state, h])                                Table 7: [256, 256, 256, 512]
    e(a)   = MLP_action(action row a) + Embedding(abstract index of a)
    logit  = s · e(a)                   over the decision's candidate actions (one per abstract action)
    V      = MLP_value([s, perfect])                               Table 7: [256, 256, 256, 256] → 1

The policy scores candidates by their features (Table 6) and their abstract action (the 621 of appendix E.2),
so the output layer is the action embedding rather than 621 fixed logits; only candidates present in a
decision are scored. With ``perfect=False`` the critic sees what the actor sees (the PTIE ablation).
``features`` (``ModelConfig``) names the feature set and so the game the networks play: ``paper`` the classic
rules, ``laizi`` 癞子 (``paiju.agents.perfectdou.features``); ``require_rules`` refuses the other.

Model files (``torch.save``, loaded with ``weights_only=True``): ``{"format": "paiju-perfectdou-1", "model":
ModelConfig JSON, "networks": {role: state_dict}, "meta": {...}}``; shipped files store half precision.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch
from torch import nn

from paiju.agents.model_files import atomic_torch_save, read_torch_file, require_model_format, resolve
from paiju.agents.perfectdou.features import HISTORY_SHAPE, PERFECT_SCALE, PERFECT_SIZE, Layout, features_for, layout
from paiju.core.errors import PaijuError
from paiju.games.doudizhu.abstract_actions import ABSTRACT_COUNT
from paiju.games.doudizhu.rules import DouDizhuRules

FORMAT = "paiju-perfectdou-1"
ROLES = ("landlord", "down", "up")


@dataclass(frozen=True, slots=True)
class ModelConfig:
    """Network sizes (Table 7's by default), whether the critic sees the hidden hands, and the feature set
    (``features.LAYOUTS``: ``paper``, the classic game; ``laizi``)."""

    lstm: int = 128
    policy: tuple[int, ...] = (256, 256, 256, 512)
    value: tuple[int, ...] = (256, 256, 256, 256)
    action: tuple[int, ...] = (256,)
    perfect: bool = True
    features: str = "paper"

    @property
    def layout(self) -> Layout:
        return layout(self.features)

    def to_json(self) -> dict[str, Any]:
        return {"lstm": self.lstm, "policy": list(self.policy), "value": list(self.value),
                "action": list(self.action), "perfect": self.perfect, "features": self.features}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> ModelConfig:
        sizes = {}
        for name in ("policy", "value", "action"):
            widths = value.get(name, list(getattr(cls(), name)))
            if not isinstance(widths, list) or not widths or not all(isinstance(w, int) and w > 0 for w in widths):
                raise ValueError(f"model {name!r} must be a non-empty list of positive integers, got {widths!r}")
            sizes[name] = tuple(widths)
        lstm = value.get("lstm", cls().lstm)
        if not isinstance(lstm, int) or lstm <= 0:
            raise ValueError(f"model 'lstm' must be a positive integer, got {lstm!r}")
        features = value.get("features", cls().features)  # files that name none predate 癞子: classic
        layout(features)  # ValueError unless a known feature set
        return cls(lstm=lstm, perfect=bool(value.get("perfect", True)), features=features, **sizes)


def _mlp(inputs: int, widths: tuple[int, ...], last_activation: bool = True) -> nn.Sequential:
    layers: list[nn.Module] = []
    for index, width in enumerate(widths):
        layers.append(nn.Linear(inputs, width))
        if last_activation or index < len(widths) - 1:
            layers.append(nn.ReLU())
        inputs = width
    return nn.Sequential(*layers)


class PerfectDouNet(nn.Module):
    """Actor and critic of one role (module doc)."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        sizes = config.layout
        self.register_buffer("state_scale", torch.from_numpy(sizes.state_scale.copy()), persistent=False)
        self.register_buffer("perfect_scale", torch.from_numpy(PERFECT_SCALE.copy()), persistent=False)
        self.register_buffer("action_scale", torch.from_numpy(sizes.action_scale.copy()), persistent=False)
        self.lstm = nn.LSTM(HISTORY_SHAPE[1], config.lstm, batch_first=True)
        self.policy = _mlp(sizes.state_size + config.lstm, config.policy, last_activation=False)
        width = config.policy[-1]
        self.action = _mlp(sizes.action_size, (*config.action, width), last_activation=False)
        self.embedding = nn.Embedding(ABSTRACT_COUNT, width)
        nn.init.normal_(self.embedding.weight, std=0.02)
        self.value = nn.Sequential(_mlp(width + (PERFECT_SIZE if config.perfect else 0), config.value),
                                   nn.Linear(config.value[-1], 1))

    def encode(self, state: torch.Tensor, history: torch.Tensor) -> torch.Tensor:
        """``s`` [b, width] of states [b, state size] and histories [b, 15, 184] (int8 or float)."""
        _, (summary, _) = self.lstm(history.float())
        return self.policy(torch.cat([state.float() * self.state_scale, summary[-1]], dim=1))

    def logits(self, encoded: torch.Tensor, actions: torch.Tensor, abstract: torch.Tensor,
               owner: torch.Tensor | None = None) -> torch.Tensor:
        """One logit per candidate row: ``actions`` [n, action size], ``abstract`` [n] indices, ``owner`` [n] the row of
        ``encoded`` each candidate belongs to (``None``: all to row 0)."""
        embedded = self.action(actions.float() * self.action_scale) + self.embedding(abstract)
        context = encoded[0].expand_as(embedded) if owner is None else encoded[owner]
        return (context * embedded).sum(dim=-1)

    def values(self, encoded: torch.Tensor, perfect: torch.Tensor | None) -> torch.Tensor:
        """V [b] of encoded states; ``perfect`` [b, PERFECT_SIZE] is used when the critic is perfect."""
        inputs = encoded
        if self.config.perfect:
            if perfect is None:
                raise PaijuError("this critic sees the hidden hands: pass the perfect features")
            inputs = torch.cat([encoded, perfect.float() * self.perfect_scale], dim=1)
        return self.value(inputs).squeeze(-1)


@dataclass
class PerfectDouModels:
    """The three roles' networks."""

    config: ModelConfig
    networks: dict[str, PerfectDouNet]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fresh(cls, config: ModelConfig, seed: int) -> PerfectDouModels:
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            networks = {role: PerfectDouNet(config) for role in ROLES}
        return cls(config, networks)

    def require_rules(self, rules: DouDizhuRules) -> None:
        """``PaijuError`` naming both rulesets unless these networks were trained for ``rules``' game (the classic
        one or 癞子)."""
        wanted = features_for(rules)
        if wanted == self.config.features:
            return
        if rules.laizi:
            remedy = ("play 癞子 networks, perfectdou:PATH of a `paiju train ppo --features laizi` run (paiju ships "
                      "no 癞子 PerfectDou networks)")
        else:
            remedy = "play classic networks (perfectdou, the shipped ones)"
        raise PaijuError(f"these PerfectDou networks were trained for {self.config.layout.ruleset} "
                         f"({self.config.features} features); this table plays {layout(wanted).ruleset} "
                         f"{rules.to_json()}: {remedy}")

    def with_critic(self, perfect: bool, seed: int) -> PerfectDouModels:
        """These actors with a fresh critic (from ``seed``) that sees the hidden hands or not (``perfect``)."""
        fresh = PerfectDouModels.fresh(replace(self.config, perfect=perfect), seed)
        for role, network in fresh.networks.items():
            actor = {name: value for name, value in self.networks[role].state_dict().items()
                     if not name.startswith("value.")}
            network.load_state_dict(actor, strict=False)
        fresh.meta = dict(self.meta)
        return fresh

    def to_dict(self, half: bool = False) -> dict[str, Any]:
        return {"format": FORMAT, "model": self.config.to_json(), "meta": self.meta,
                "networks": {role: {name: (value.half() if half and value.is_floating_point() else value)
                                    .detach().clone() for name, value in network.state_dict().items()}
                             for role, network in self.networks.items()}}

    @classmethod
    def from_dict(cls, data: Any, source: str) -> PerfectDouModels:
        require_model_format(data, FORMAT, "PerfectDou model", source)
        try:
            models = cls.fresh(ModelConfig.from_json(data["model"]), seed=0)
            stored = data["networks"]
            missing = [role for role in ROLES if role not in stored]
            if missing:
                raise PaijuError(f"{source}: PerfectDou model file lacks the {', '.join(missing)} network(s)")
            for role, network in models.networks.items():
                network.load_state_dict({name: value.float() if value.is_floating_point() else value
                                         for name, value in stored[role].items()})
        except (KeyError, ValueError, RuntimeError, TypeError, AttributeError) as error:
            raise PaijuError(f"{source}: damaged or mismatched PerfectDou model file (feature sizes or roles "
                             f"differ from this version's): {str(error).splitlines()[0]}") from None
        models.meta = dict(data.get("meta", {}))
        return models


def save_models(models: PerfectDouModels, path: Path, half: bool = False) -> None:
    """Write ``models`` to ``path`` atomically."""
    atomic_torch_save(models.to_dict(half), path)


def load_models(path: Path) -> PerfectDouModels:
    """Read a PerfectDou model file, or a training folder's ``model.pt``."""
    path = resolve(path)
    return PerfectDouModels.from_dict(read_torch_file(path, "PerfectDou model file"), str(path))


__all__ = ["FORMAT", "ROLES", "ModelConfig", "PerfectDouModels", "PerfectDouNet", "load_models", "save_models"]
