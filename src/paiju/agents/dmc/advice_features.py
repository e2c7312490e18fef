"""paiju's ``advice`` GuanDan features: the ``plus`` features and, for each action, the ``rules`` player's
judgement of it.

A network that must rediscover the rule bot's plan from card vectors imitates it on about three decisions in four
(BENCHMARKS.md, "GuanDan: paiju's features"); one that reads the bot's score of each action starts at its level
and learns by self-play where to play otherwise — the residual-on-a-heuristic design of expert-feature agents.
The block is appended to each action's ``plus`` features (``danzero_features.encode_plus``):

=======  ====  =================================================================================
offset   size  feature
=======  ====  =================================================================================
0        1     the action is a ``rules`` choice: its score is the highest (``rules.guandan.play_values``)
1        8     the score's gap below the highest, as a thermometer: gap >= g for g in ``GAPS``
=======  ====  =================================================================================

Scores are in plays saved (the rule bot's unit), so the gaps read "costs a hundredth, a quarter, half, one,
two, four, eight, sixteen plays more than the bot's choice". Values are 0/1, so rows still travel as int8.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from paiju.agents.dmc.danzero_features import PLUS_ACTION_SIZE, PLUS_STATE_SIZE, encode_plus
from paiju.agents.rules.guandan import play_values

if TYPE_CHECKING:
    from paiju.games.guandan.observation import GuanDanObservation

GAPS = np.array([0.01, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0], dtype=np.float64)
"""Thresholds of the score gap below the rule bot's choice, in plays."""
ADVICE_SIZE = 1 + len(GAPS)
STATE_SIZE = PLUS_STATE_SIZE
ACTION_SIZE = PLUS_ACTION_SIZE + ADVICE_SIZE
INPUT_SIZE = STATE_SIZE + ACTION_SIZE


def advice(observation: GuanDanObservation, legal: Sequence[Any]) -> np.ndarray:
    """The ``(n, 9)`` advice block of the ``n`` legal plays (module docstring)."""
    values = np.asarray(play_values(observation, legal), dtype=np.float64)
    gap = values.max() - values
    block = np.empty((len(legal), ADVICE_SIZE), dtype=np.float32)
    block[:, 0] = gap <= 0.0
    block[:, 1:] = gap[:, None] >= GAPS
    return block


def encode(observation: GuanDanObservation, legal: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The ``(516,)`` state and the ``(n, 183)`` actions: ``plus`` and the advice block."""
    state, actions = encode_plus(observation, legal)
    return state, np.concatenate([actions, advice(observation, legal)], axis=1)
