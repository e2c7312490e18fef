"""The prior policy's view of a decision: its ranking of the legal actions, and probabilities from its scores."""

from __future__ import annotations

import math
from collections.abc import Sequence

from paiju.core.agent import ScoredAction
from paiju.core.game import Action


def ranked(scored: Sequence[ScoredAction], legal: Sequence[Action]) -> list[ScoredAction]:
    """The prior's scored actions that are legal, best first, then the legal actions it left out (some agents
    score a subset), each at its lowest score."""
    legal_set = set(legal)
    listed = [entry for entry in scored if entry.action in legal_set]
    floor = min((entry.score for entry in listed), default=0.0)
    seen = {entry.action for entry in listed}
    return listed + [ScoredAction(action, floor) for action in legal if action not in seen]


def softmax(scores: Sequence[float], temperature: float) -> list[float]:
    """``exp(score / temperature)``, normalised."""
    top = max(scores)
    weights = [math.exp((score - top) / temperature) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def log_probability(scored: Sequence[ScoredAction], action: Action, temperature: float) -> float:
    """Log-probability of ``action`` under the softmax of the prior's scores (an action the prior did not
    score counts at its lowest score)."""
    scores = [entry.score for entry in scored]
    mine = next((entry.score for entry in scored if entry.action == action), min(scores))
    top = max(scores)
    normaliser = sum(math.exp((score - top) / temperature) for score in scores)
    return (mine - top) / temperature - math.log(normaliser)
