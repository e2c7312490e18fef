"""``DistilledAgent``: the prior's best candidates, re-ranked by a network's predicted gain over its choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from paiju.agents import make_agent
from paiju.agents.dmc.agent import q_values
from paiju.agents.dmc.weights import DMCModels
from paiju.agents.search.prior import ranked
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.game import JSON, Action

DISTIL_META = "distil"
"""The key of a model's metadata holding how it plays: ``{"prior": NAME, "top": K, "margin": M}``."""


def play_settings(models: DMCModels) -> dict[str, Any]:
    """The prior, ``top`` and ``margin`` a distilled model was trained for (refused when it was not)."""
    settings = models.meta.get(DISTIL_META)
    if not isinstance(settings, dict) or not {"prior", "top", "margin"} <= settings.keys():
        raise PaijuError("this model file holds DMC networks, not distilled ones (no 'distil' settings: "
                         "train them with `paiju train distil`)")
    return settings


class DistilledAgent(Agent):
    """Plays the prior's candidate with the largest predicted gain over the prior's choice, when the gain
    exceeds ``margin``; the prior's choice otherwise. Decisions no network makes go to the prior."""

    name = "distilled"
    score_scale = "the network's predicted gain over the prior's choice (points)"

    def __init__(self, models: DMCModels, seed: int = 0, top: int | None = None, margin: float | None = None) -> None:
        torch.set_num_threads(1)
        settings = play_settings(models)
        self.models = models
        self.adapter = models.adapter
        self.top = int(top if top is not None else settings["top"])
        self.margin = float(margin if margin is not None else settings["margin"])
        self.prior = make_agent(str(settings["prior"]), models.game, seed)
        for network in models.networks.values():
            network.eval()

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:
        self.prior.begin(game, seat, rules)

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.explain(observation, legal)[0].action

    def scale(self, observation: Any) -> str:
        return self.score_scale if self.adapter.role(observation) is not None else self.prior.scale(observation)

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """The candidates with their predicted gains over the prior's choice, the one played first (the prior's
        own scores where no network decides)."""
        scored = ranked(self.prior.explain(observation, legal), legal)
        role = self.adapter.role(observation)
        candidates = [entry.action for entry in scored[: self.top]]
        if role is None or len(candidates) < 2:
            return scored
        values = q_values(self.models.networks[role], self.adapter.encode(observation, candidates))
        gains = values - values[0]
        best = int(np.argmax(gains))
        chosen = best if gains[best] > self.margin else 0
        order = [chosen, *sorted((i for i in range(len(candidates)) if i != chosen), key=lambda i: -gains[i])]
        return [ScoredAction(candidates[i], float(gains[i])) for i in order]

    def finish(self, result: dict[str, JSON]) -> None:
        self.prior.finish(result)

    def close(self) -> None:
        self.prior.close()


__all__ = ["DISTIL_META", "DistilledAgent", "play_settings"]
