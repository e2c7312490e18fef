"""The PerfectDou player: the actor of its role's network picks an abstract action, Algorithm 2 its kickers.

It sees only its own seat's observation (the critic's perfect features are never computed when playing).
Greedy by default (the most probable candidate); ``sample=True`` draws from the policy as the self-play actors
do. Bids (full mode) go to the ``rules`` player's bid module: PerfectDou plays the research game, which has no
bidding. Networks play the ruleset they were trained for (classic or 癞子, ``PerfectDouModels.require_rules``): at
another table the first decision raises ``PaijuError`` naming both. Inference runs on one thread (a decision is one
state and a few dozen candidates).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from paiju.agents.perfectdou.features import decision, scores
from paiju.agents.perfectdou.model import PerfectDouModels
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.core.agent import Agent, ScoredAction
from paiju.core.game import Action


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


class PerfectDouAgent(Agent):
    """Plays ``models``' policy of the seat's role."""

    name = "perfectdou"
    score_scale = "the policy's probability of the move, 0 to 1"

    def __init__(self, models: PerfectDouModels, seed: int = 0, sample: bool = False) -> None:
        torch.set_num_threads(1)
        self.models = models
        self.sample = sample
        self.rng = random.Random(seed)
        self.fallback = DouDizhuRulesAgent(seed)
        for network in models.networks.values():
            network.eval()

    def _policy(self, observation: Any, legal: Sequence[Action]) -> tuple[list[Action], np.ndarray]:
        self.models.require_rules(observation.rules)
        chosen = decision(observation, legal)  # type: ignore[arg-type]
        logits, _ = scores(self.models.networks[observation.position], chosen)
        return list(chosen.candidates), softmax(logits)

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if observation.phase != "play":
            return self.fallback.act(observation, legal)
        if len(legal) == 1:
            return legal[0]
        candidates, probabilities = self._policy(observation, legal)
        if self.sample:
            return candidates[self.rng.choices(range(len(candidates)), weights=probabilities.tolist())[0]]
        return candidates[int(np.argmax(probabilities))]

    def scale(self, observation: Any) -> str:
        return self.score_scale if observation.phase == "play" else self.fallback.scale(observation)

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """The candidates with the policy's probability of each (kicker variants, and 癞子 substitutions, folded
        into their abstract action's decoded play)."""
        if observation.phase != "play":
            return self.fallback.explain(observation, legal)
        candidates, probabilities = self._policy(observation, legal)
        order = np.argsort(-probabilities, kind="stable")
        return [ScoredAction(candidates[i], float(probabilities[i])) for i in order]


__all__ = ["PerfectDouAgent", "softmax"]
