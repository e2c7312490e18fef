"""The DMC player: scores every legal action with Q(state, action) and plays the best one.

A file written by ``paiju train ppo`` (GuanDan) holds a policy: its scores are logits × τ, not Q-values, and its
metadata says so (``meta["scores"]``, which ``scale`` reports); the greedy choice is the policy's most probable
play. Decisions no network makes (DouDizhu bids, GuanDan tribute and return) go to the game's heuristic player
(``DMCAdapter.fallback``). Networks play the ruleset they were trained on (``DMCAdapter.accepts``); ``variants``
load those for other rulesets (the shipped ``dmc`` of DouDizhu: the classic game's and 癞子's), on first use. With
``epsilon > 0`` it explores as DMC's actors do: a uniformly random legal action
with probability ε (DouZero and DanZero: ε = 0.01). Inference runs on one thread: a decision is a batch of a
few dozen rows, where more threads only add overhead (and oversubscribe the cores of parallel workers).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from paiju.agents.dmc.adapters import Decision
from paiju.agents.dmc.weights import DMCModels
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.game import Action


def q_values(network: torch.nn.Module, decision: Decision) -> np.ndarray:
    """Q of each legal action of ``decision`` (one pass, the state's share computed once: ``score``)."""
    with torch.inference_mode():
        context = {name: torch.from_numpy(value)[None] for name, value in decision.context.items()}
        return network.score(torch.from_numpy(decision.state), torch.from_numpy(decision.actions), **context).numpy()


class DMCAgent(Agent):
    """Greedy (or ε-greedy) over Q(state, action) of trained ``models``."""

    name = "dmc"
    score_scale = ("the network's estimate of this seat's final score (points; win minus loss rate for networks "
                   "trained on wins)")

    def __init__(self, models: DMCModels, seed: int = 0, epsilon: float = 0.0,
                 variants: Sequence[Callable[[], DMCModels]] = ()) -> None:
        torch.set_num_threads(1)
        self.models = models
        self.variants = list(variants)
        self.adapter = models.adapter
        if "scores" in models.meta:  # a policy trained by PPO: its scores are logits × τ, not Q-values
            self.score_scale = str(models.meta["scores"])
        self.fallback = self.adapter.fallback(seed)
        self.epsilon = epsilon
        self.rng = random.Random(seed)
        for network in models.networks.values():
            network.eval()

    def models_for(self, observation: Any) -> DMCModels:
        """The networks that play ``observation``'s ruleset; ``PaijuError`` when there are none."""
        if self.models.adapter.accepts(observation):
            return self.models
        for index, load in enumerate(self.variants):
            models = load()
            if models.adapter.accepts(observation):
                for network in models.networks.values():
                    network.eval()
                self.variants[index] = lambda models=models: models  # type: ignore[misc]
                return models
        raise PaijuError(f"these {self.models.game} networks ({self.models.config.features} features) were not "
                         f"trained for the rules {observation.rules.to_json()}")

    def q_values(self, observation: Any, legal: Sequence[Action]) -> np.ndarray | None:
        """Q of each legal action, or ``None`` when no network makes this decision."""
        role = self.adapter.role(observation)
        if role is None:
            return None
        models = self.models_for(observation)
        return q_values(models.networks[role], models.adapter.encode(observation, legal))

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        values = self.q_values(observation, legal)
        if values is None:
            return self.fallback.act(observation, legal)
        if self.epsilon and self.rng.random() < self.epsilon:
            return legal[self.rng.randrange(len(legal))]
        return legal[int(np.argmax(values))]

    def scale(self, observation: Any) -> str:
        return self.score_scale if self.adapter.role(observation) is not None else self.fallback.scale(observation)

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        values = self.q_values(observation, legal)
        if values is None:
            return self.fallback.explain(observation, legal)
        order = np.argsort(-values, kind="stable")
        return [ScoredAction(legal[i], float(values[i])) for i in order]


__all__ = ["DMCAgent", "q_values"]
