"""The DeepRocket player: the bid module bids, the policy network picks a label (main group and kicker type),
the kicker network fills the kickers one at a time (DeepRocket Figure 1-2).

Greedy: the most probable legal label, then for each kicker unit the most probable kicker that some legal play
still allows (``paiju.agents.deeprocket.labels.kicker_choices``), so the decoded play is always legal.
Bids come from the rule-based bid module (control cards and tidiness, ``paiju.agents.rules.bidding``), as the
paper describes. Inference runs on one thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from paiju.agents.deeprocket.features import kicker_step, policy_decision, unseen_cards
from paiju.agents.deeprocket.labels import kicker_kind, move_for
from paiju.agents.deeprocket.model import DeepRocketNets
from paiju.agents.perfectdou.agent import softmax
from paiju.agents.rules.bidding import choose_bid
from paiju.core.agent import Agent, ScoredAction
from paiju.core.game import Action
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.observation import DouDizhuObservation


class DeepRocketAgent(Agent):
    """Plays ``nets`` greedily; bids by rule."""

    name = "deeprocket"
    score_scale = "the policy's probability of the move's label (main group and kicker type), 0 to 1"

    def __init__(self, nets: DeepRocketNets, seed: int = 0) -> None:
        torch.set_num_threads(1)
        self.nets = nets.eval()

    def _label_probabilities(self, observation: DouDizhuObservation, legal: Sequence[Move]
                             ) -> tuple[dict[int, list[Move]], dict[int, float]]:
        decision = policy_decision(observation, legal)
        with torch.inference_mode():
            logits = self.nets.policy_logits(torch.from_numpy(decision.planes)[None])[0].numpy()
        labels = sorted(decision.groups)
        probabilities = softmax(logits[labels])
        return decision.groups, dict(zip(labels, probabilities.tolist(), strict=True))

    def _complete(self, observation: DouDizhuObservation, label: int, moves: list[Move], legal: Sequence[Move],
                  unseen: np.ndarray) -> Move:
        """The play of ``label`` whose kickers the kicker network picks, one unit at a time."""
        if kicker_kind(label) is None or len(moves) == 1:
            return moves[0] if len(moves) == 1 else move_for(label, (), legal)
        chosen: list[int] = []
        while True:
            step = kicker_step(observation, label, moves, chosen, unseen)
            if not step.choices:
                return move_for(label, chosen, legal)
            if len(step.choices) == 1:
                chosen.append(step.choices[0])
                continue
            with torch.inference_mode():
                logits = self.nets.kicker_logits(torch.from_numpy(step.planes)[None])[0].numpy()
            chosen.append(max(step.choices, key=lambda kicker: logits[kicker]))

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if observation.phase != "play":
            return choose_bid(observation.hand, legal, observation.rules)  # type: ignore[arg-type]
        if len(legal) == 1:
            return legal[0]
        groups, probabilities = self._label_probabilities(observation, legal)  # type: ignore[arg-type]
        label = max(probabilities, key=probabilities.__getitem__)
        return self._complete(observation, label, groups[label], legal, unseen_cards(observation))  # type: ignore[arg-type]

    def scale(self, observation: Any) -> str:
        return self.score_scale if observation.phase == "play" else Agent.score_scale

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """Each legal label's play (kickers by the kicker network) with the policy's probability of the label."""
        if observation.phase != "play":
            return super().explain(observation, legal)
        groups, probabilities = self._label_probabilities(observation, legal)  # type: ignore[arg-type]
        unseen = unseen_cards(observation)
        order = sorted(probabilities, key=lambda label: -probabilities[label])
        return [ScoredAction(self._complete(observation, label, groups[label], legal, unseen),  # type: ignore[arg-type]
                             probabilities[label]) for label in order]


__all__ = ["DeepRocketAgent"]
