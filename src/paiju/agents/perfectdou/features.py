"""A PerfectDou decision: the candidate plays (one per abstract action, kickers decoded by Algorithm 2), their
abstract indices and PerfectDou's features (``paiju.games.doudizhu.perfectdou_features``), and the network's
scores of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from paiju.agents.perfectdou.model import PerfectDouNet
from paiju.games.doudizhu.abstract_actions import group_legal
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.games.doudizhu.perfectdou_features import PerfectDouFeatures, encode


@dataclass(frozen=True, slots=True)
class Decision:
    """``candidates[i]`` is the legal play standing for abstract action ``abstract[i]``."""

    candidates: list[Move]
    abstract: np.ndarray
    features: PerfectDouFeatures


def decision(observation: DouDizhuObservation, legal: Sequence[Move],
             hidden_hands: Sequence[Sequence[int]] | None = None) -> Decision:
    """Group ``legal`` into abstract actions and encode them; ``hidden_hands`` (training only) adds the critic's
    perfect features."""
    abstract, candidates = group_legal(legal, observation.hand, observation.rules)
    return Decision(candidates, abstract, encode(observation, candidates, hidden_hands))


def scores(network: PerfectDouNet, decision: Decision, with_value: bool = False) -> tuple[np.ndarray, float | None]:
    """The policy's logits of the candidates, and (``with_value``, perfect features given) the critic's value."""
    features = decision.features
    with torch.inference_mode():
        encoded = network.encode(torch.from_numpy(features.state)[None], torch.from_numpy(features.history)[None])
        logits = network.logits(encoded, torch.from_numpy(features.actions), torch.from_numpy(decision.abstract))
        value = None
        if with_value:
            perfect = None if features.perfect is None else torch.from_numpy(features.perfect)[None]
            value = float(network.values(encoded, perfect)[0])
    return logits.numpy(), value


__all__ = ["Decision", "decision", "scores"]
