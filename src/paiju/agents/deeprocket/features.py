"""A DeepRocket decision as the networks see it: the policy's planes and legal labels, then one kicker step at
a time (DeepRocket Figure 2: the policy picks the main group and the kicker type, the kicker network is called
once per kicker unit, lowest first).

``policy_decision`` and ``kicker_step`` serve both the agent and the supervised trainer (which replays the
corpus's plays through them: ``paiju.train.sl_data``), so the networks are trained on exactly the inputs
they play from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paiju.games.doudizhu.deeprocket_features import kicker_planes, policy_planes, unseen_cards
from paiju.games.doudizhu.deeprocket_labels import (
    group_by_label,
    kicker_choices,
    kicker_count,
    kicker_kind,
    kicker_mask,
    label_mask,
)
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.observation import DouDizhuObservation


@dataclass(frozen=True)
class PolicyDecision:
    """The policy network's view of a play decision: ``planes`` [21, 19, 15], ``mask`` bool [309] (legal
    labels), ``groups`` the legal plays of each legal label."""

    planes: np.ndarray
    mask: np.ndarray
    groups: dict[int, list[Move]]


@dataclass(frozen=True)
class KickerStep:
    """One call of the kicker network: ``planes`` [3, 9, 15], ``mask`` bool [28] of the kickers that may come
    next, ``choices`` the same as labels."""

    planes: np.ndarray
    mask: np.ndarray
    choices: list[int]


def policy_decision(observation: DouDizhuObservation, legal: Sequence[Move]) -> PolicyDecision:
    return PolicyDecision(policy_planes(observation), label_mask(legal), group_by_label(legal))


def kicker_step(observation: DouDizhuObservation, label: int, moves: Sequence[Move], chosen: Sequence[int],
                unseen: np.ndarray | None = None) -> KickerStep:
    """The kicker network's input for the next kicker of ``label`` (whose legal plays are ``moves``) after the
    kicker labels ``chosen``."""
    choices = kicker_choices(moves, chosen)
    kind = kicker_kind(label)
    assert kind is not None, "kicker steps are asked for labels with kickers only"
    planes = kicker_planes(observation, moves[0], kind, kicker_count(label), chosen, choices, unseen)
    return KickerStep(planes, kicker_mask(choices), choices)


__all__ = ["KickerStep", "PolicyDecision", "kicker_step", "policy_decision", "unseen_cards"]
