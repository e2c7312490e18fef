"""Uniformly random play over the legal actions (DouZero's and ScrofaZero's "Random" baseline)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from paiju.core.agent import Agent
from paiju.core.game import Action


class RandomAgent(Agent):
    """Chooses uniformly among ``legal`` with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
