"""PerfectDou's actor-critic for GuanDan (Yang et al. 2022, §4: "perfect-training-imperfect-execution", PTIE).

    logit(a)  = Q(s, a) / τ                  the DMC GuanDan network (``FeatureQNet``) over [state, action a]
    V         = MLP([state, perfect])         the critic, training only

The **actor** is a DMC GuanDan network (DanZero §IV-A's MLP on paiju's ``plus`` or the paper's features,
``paiju.agents.dmc``): its scores divided by a temperature τ are the policy's logits, so PPO starts from any
GuanDan DMC model file and writes one back (playable as ``dmc:FILE``; its scores are then logits × τ, not
Q-values). τ = 0.1 is the DMC warm start's imitation temperature: a network that imitated a teacher by
softmax(Q / 0.1) starts as that policy. The **critic** sees the seat's state features and, when ``perfect``,
the other three hands (``perfect_features``); it never leaves training, so model files hold the actor alone.

The critic lives here, beside PerfectDou's DouDizhu networks (``model``), because it is the same idea — a value
network that sees the hidden hands — and the actor is imported from ``paiju.agents.dmc`` unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import torch
from torch import nn

from paiju.agents.dmc import danzero_features
from paiju.agents.dmc.adapters import GuanDanAdapter, adapter_for
from paiju.agents.dmc.models import FeatureQNet
from paiju.agents.dmc.models import ModelConfig as PolicyConfig
from paiju.agents.dmc.weights import DMCModels
from paiju.core.errors import PaijuError
from paiju.games.guandan.deal import hand_size

ROLE = "player"
"""The one network every seat plays (DanZero; DMC's GuanDan role)."""
HAND_SIZE = 27
PERFECT_SIZE = 3 * danzero_features.CARD_SET_SIZE + 3
"""The other three hands (next, partner, previous) as 54-card counts, then their cards left / 27."""
FORMAT = "paiju-ppo-guandan-1"
"""The learner's networks (actor and critic) in a checkpoint; model files hold the actor as a DMC file."""


def perfect_features(hands: list[int], seat: int) -> np.ndarray:
    """The critic's hidden information at ``seat``: the packed ``hands`` of the next player, the partner and the
    previous player as 54-card counts (``danzero_features.card_vectors``), then each one's cards left / 27
    (int8 counts, the cards left scaled by ``GuanDanActorCritic``)."""
    others = [hands[(seat + k) % 4] for k in (1, 2, 3)]
    counts = danzero_features.card_vectors(others).reshape(-1)
    return np.concatenate([counts, [hand_size(hand) for hand in others]]).astype(np.int8)


@dataclass(frozen=True, slots=True)
class GuanDanNets:
    """The actor-critic's sizes: the actor's (a DMC ``ModelConfig``: widths and features), the critic's MLP
    widths, whether the critic sees the hidden hands (``perfect``; off: the PTIE ablation), and τ."""

    policy: PolicyConfig = field(default_factory=lambda: PolicyConfig(features="plus"))
    value: tuple[int, ...] = (256, 256, 256, 256)
    perfect: bool = True
    temperature: float = 0.1
    """τ: the policy's logits are the actor's scores / τ."""

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy.to_json(), "value": list(self.value), "perfect": self.perfect,
                "temperature": self.temperature}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> GuanDanNets:
        return cls(PolicyConfig.from_json(value["policy"]), tuple(value["value"]), bool(value["perfect"]),
                   float(value["temperature"]))


def _critic(inputs: int, widths: tuple[int, ...]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(inputs, width), nn.ReLU()]
        inputs = width
    return nn.Sequential(*layers, nn.Linear(inputs, 1))


class GuanDanActorCritic(nn.Module):
    """The actor (``policy``, a ``FeatureQNet``) and the critic (``value``) of the module doc."""

    def __init__(self, nets: GuanDanNets) -> None:
        super().__init__()
        self.nets = nets
        adapter = adapter_for("guandan", nets.policy.features)
        assert isinstance(adapter, GuanDanAdapter)
        state_size = adapter.state_size
        self.policy = FeatureQNet(adapter.input_size, nets.policy)
        scale = np.ones(PERFECT_SIZE if nets.perfect else 0, dtype=np.float32)
        scale[3 * danzero_features.CARD_SET_SIZE:] = 1 / HAND_SIZE
        self.register_buffer("perfect_scale", torch.from_numpy(scale), persistent=False)
        self.value = _critic(state_size + len(scale), nets.value)

    def logits(self, state: torch.Tensor, actions: torch.Tensor, owner: torch.Tensor | None = None) -> torch.Tensor:
        """One logit per candidate row, the actor's score / τ: ``state`` [d, s] (one decision: [s]), ``actions``
        [n, a], ``owner`` [n] the decision of each row (``FeatureQNet.score``)."""
        return self.policy.score(state.float(), actions.float(), owner) / self.nets.temperature

    def values(self, state: torch.Tensor, perfect: torch.Tensor) -> torch.Tensor:
        """V [d] of states [d, s]; ``perfect`` [d, PERFECT_SIZE] is read when the critic sees the hidden hands."""
        inputs = state.float()
        if self.nets.perfect:
            inputs = torch.cat([inputs, perfect.float() * self.perfect_scale], dim=1)
        return self.value(inputs).squeeze(-1)


@dataclass
class GuanDanActorCritics:
    """The learner's networks: ``networks[ROLE]``, with how they were made (``meta``)."""

    config: GuanDanNets
    networks: dict[str, GuanDanActorCritic]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fresh(cls, nets: GuanDanNets, seed: int) -> GuanDanActorCritics:
        """Newly initialized actor and critic (``seed`` fixes the weights)."""
        with torch.random.fork_rng():
            torch.manual_seed(seed)
            return cls(nets, {ROLE: GuanDanActorCritic(nets)})

    @classmethod
    def from_dmc(cls, models: DMCModels, nets: GuanDanNets, seed: int) -> GuanDanActorCritics:
        """A GuanDan DMC file's network as the actor (its sizes and features replace ``nets.policy``), with a
        fresh critic from ``seed``."""
        if models.game != "guandan":
            raise PaijuError(f"a GuanDan actor-critic starts from GuanDan DMC networks, not {models.game} ones")
        fresh = cls.fresh(replace(nets, policy=models.config), seed)
        fresh.networks[ROLE].policy.load_state_dict(models.networks[ROLE].state_dict())
        fresh.meta = dict(models.meta)
        return fresh

    def actor(self, meta: dict[str, Any]) -> DMCModels:
        """The actor as DMC networks (a ``dmc`` model file's contents) with ``meta`` and the scale of its
        scores."""
        models = DMCModels.fresh("guandan", "adp", self.config.policy, seed=0)
        models.networks[ROLE].load_state_dict(self.networks[ROLE].policy.state_dict())
        models.meta = {**meta, "scores": f"policy logits × τ (τ = {self.config.temperature}), not Q-values"}
        return models

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "model": self.config.to_json(), "meta": self.meta,
                "networks": {role: {name: value.detach().clone() for name, value in network.state_dict().items()}
                             for role, network in self.networks.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str) -> GuanDanActorCritics:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PaijuError(f"{source} does not hold GuanDan PPO networks (format {FORMAT!r})")
        models = cls.fresh(GuanDanNets.from_json(data["model"]), seed=0)
        for role, network in models.networks.items():
            network.load_state_dict(data["networks"][role])
        models.meta = dict(data.get("meta", {}))
        return models


__all__ = ["FORMAT", "PERFECT_SIZE", "ROLE", "GuanDanActorCritic", "GuanDanActorCritics", "GuanDanNets",
           "perfect_features"]
