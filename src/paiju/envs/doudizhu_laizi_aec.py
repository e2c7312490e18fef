"""癞子 (wild-card) DouDizhu as a PettingZoo AEC environment: ``doudizhu_laizi``.

The classic environment (``doudizhu_aec``) with wild cards. Actions: the same ``Discrete(ACTION_COUNT)`` fixed
index (``paiju.games.doudizhu.action_space``: pass, the 27,471 plays, bids 0..3), read as **what a play stands
for** (``Move.effective_counts``): index ``i`` plays cards standing for ``plays()[i]``'s cards. The environment
spends natural cards first and wild cards only for what the hand lacks (the legal play of that index substituting
the fewest wild cards; then the lowest cards, by ``cards.pack``), so one index is one play, the same play in
every deal whatever the wild rank. Plays that spend a wild card where a natural card of the rank is held (``5558=
5555`` from a hand holding four fives) are outside this index; the engine and ``paiju`` agents play them.

The observation is the classic one (``doudizhu_aec.FIELDS``), cards as played, followed by:

| offset | size | field                                                              |
| ------ | ---- | ------------------------------------------------------------------ |
| 388    | 15   | the wild ranks (1 at each; zeros until there is a landlord)        |
| 403    | 15   | what the play to beat stands for (zeros when leading)              |
| 418    | 3    | the play to beat's bomb tier one-hot: soft, hard, wild (bombs only) |

Rewards, seeding, rulesets (``laizi`` must be true; ``wild_ranks`` 1 or 2) and ``infos`` are the classic
environment's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.envs.doudizhu_aec import OBSERVATION_SIZE, RANKS, DouDizhuEnv, observation_vector
from paiju.games.doudizhu import DouDizhuObservation, DouDizhuRules, Move
from paiju.games.doudizhu.action_space import action_indices
from paiju.games.doudizhu.cards import TWO, pack
from paiju.games.doudizhu.moves import Category, move_from_packed

WILD_OFFSET = OBSERVATION_SIZE
STANDS_OFFSET = WILD_OFFSET + RANKS
TIER_OFFSET = STANDS_OFFSET + RANKS
LAIZI_OBSERVATION_SIZE = TIER_OFFSET + 3


def substitutions(move: Move) -> int:
    """How many wild cards ``move`` makes stand for another rank."""
    return sum(max(0, e - p) for e, p in zip(move.effective_counts, move.counts, strict=True))


def laizi_observation_vector(obs: DouDizhuObservation) -> np.ndarray:
    """The classic vector of ``obs`` followed by the wild ranks and the play to beat as it stands (module doc)."""
    vector = np.zeros(LAIZI_OBSERVATION_SIZE, dtype=np.int8)
    vector[:OBSERVATION_SIZE] = observation_vector(obs)
    for rank in obs.wild:
        vector[WILD_OFFSET + rank] = 1
    if obs.follow is not None:
        vector[STANDS_OFFSET:STANDS_OFFSET + RANKS] = obs.follow.effective_counts
        if obs.follow.category is Category.BOMB:
            vector[TIER_OFFSET + obs.follow.tier] = 1
    return vector


class DouDizhuLaiziEnv(DouDizhuEnv):
    """Three-seat 癞子 DouDizhu, one ``step`` per bid or play (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiju_doudizhu_laizi_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    default_rules = DouDizhuRules(laizi=True)
    laizi = True

    def observation_high(self) -> np.ndarray:
        extra = np.concatenate([np.ones(TWO + 1, dtype=np.int8), np.zeros(RANKS - TWO - 1, dtype=np.int8),
                                np.full(RANKS, 4, dtype=np.int8), np.ones(3, dtype=np.int8)])
        return np.concatenate([super().observation_high(), extra])

    def encode(self, observation: Any) -> np.ndarray:
        return laizi_observation_vector(cast(DouDizhuObservation, observation))

    def indices(self, legal: Sequence[Any]) -> list[int]:
        return action_indices([_standing(action) for action in legal]).tolist()

    def chosen_actions(self, legal: Sequence[Any], indices: Sequence[int]) -> dict[int, Any]:
        """Per index, the legal play substituting the fewest wild cards, then the lowest (``cards.pack``)."""
        chosen: dict[int, Any] = {}
        for index, action in sorted(zip(indices, legal, strict=True), key=lambda pair: _cost(pair[1])):
            chosen.setdefault(index, action)
        return chosen


def _standing(action: Any) -> Any:
    """A play as the cards it stands for (a classic play of the index, found by its cards); bids as they are."""
    if not isinstance(action, Move) or not action.stands_for:
        return action
    return move_from_packed(pack(action.effective_counts), action.category, action.rank, action.length)


def _cost(action: Any) -> tuple[int, int]:
    return (substitutions(action), action.packed) if isinstance(action, Move) else (0, 0)


def raw_env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> DouDizhuLaiziEnv:
    """The environment without wrappers."""
    return DouDizhuLaiziEnv(rules, render_mode)


def env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["LAIZI_OBSERVATION_SIZE", "DouDizhuLaiziEnv", "env", "laizi_observation_vector", "raw_env",
           "substitutions"]
