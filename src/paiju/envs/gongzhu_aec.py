"""Gongzhu as a PettingZoo AEC environment over paiju's engine.

Agents ``player_0`` .. ``player_3`` are seats 0-3 (partners 0+2 against 1+3). Actions are
``Discrete(52)``: card ``i`` of ``paiju.games.gongzhu.CARD_NAMES`` (suit S H D C, then rank 2..A). The AEC
loop, masks, rewards (each seat's team result at the end) and seeding are
``paiju.envs.card_aec.CardGameEnv``'s. The ``"observation"`` is a 0/1 ``Box`` built only from that seat's
``GongzhuObservation``, seats written relative to the observer (0 = self, 1 = next to play after it, ...):

| offset | size | field                                                           |
| ------ | ---- | --------------------------------------------------------------- |
| 0      | 52   | own hand                                                        |
| 52     | 208  | the trick in progress: the card each relative seat played in it |
| 260    | 208  | every card each relative seat has played                        |
| 468    | 64   | scoring cards each relative seat has taken (``SCORING_CARDS``)  |
| 532    | 16   | suits each relative seat showed void in (S H D C)               |
| 548    | 4    | leader of the trick in progress, relative seat one-hot          |

``infos[agent]`` (``CardGameEnv``): ``{"phase", "leader": agent name, "trick": [[agent name, card], ...]}``
(the trick in progress) from that seat's observation, and for the agent to act ``"legal_actions"``
(``{index: card name}``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.envs.card_aec import CardGameEnv
from paiju.games.gongzhu import CARD_NAMES, SCORING_CARDS, SUITS, GongzhuObservation, GongzhuRules
from paiju.games.gongzhu.cards import CARD_INDEX

CARDS = len(CARD_NAMES)
SEATS = 4
FIELDS = (("hand", CARDS), ("trick", SEATS * CARDS), ("played", SEATS * CARDS),
          ("taken", SEATS * len(SCORING_CARDS)), ("voids", SEATS * len(SUITS)), ("leader", SEATS))
OFFSETS = dict(zip((name for name, _ in FIELDS), np.cumsum([0] + [size for _, size in FIELDS[:-1]]).tolist(),
                   strict=True))
OBSERVATION_SIZE = sum(size for _, size in FIELDS)
_SCORING_INDEX = {card: index for index, card in enumerate(SCORING_CARDS)}


def observation_vector(obs: GongzhuObservation) -> np.ndarray:
    """The ``OBSERVATION_SIZE`` 0/1 encoding of one seat's observation (table in the module doc)."""
    vector = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    relative = [(seat - obs.seat) % SEATS for seat in range(SEATS)]
    vector[[OFFSETS["hand"] + CARD_INDEX[card] for card in obs.hand]] = 1
    for seat, card in obs.trick:
        vector[OFFSETS["trick"] + CARDS * relative[seat] + CARD_INDEX[card]] = 1
    for seat, card in obs.history + obs.trick:
        vector[OFFSETS["played"] + CARDS * relative[seat] + CARD_INDEX[card]] = 1
    for seat, cards in enumerate(obs.taken):
        for card in cards:
            vector[OFFSETS["taken"] + len(SCORING_CARDS) * relative[seat] + _SCORING_INDEX[card]] = 1
    for seat, suits in enumerate(obs.voids):
        for suit in suits:
            vector[OFFSETS["voids"] + len(SUITS) * relative[seat] + SUITS.index(suit)] = 1
    vector[OFFSETS["leader"] + relative[obs.leader]] = 1
    return vector


class GongzhuEnv(CardGameEnv):
    """Four-seat Gongzhu, one ``step`` per card (see the module doc for spaces and rewards)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiju_gongzhu_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    game_name = "gongzhu"
    action_count = CARDS

    def observation_high(self) -> np.ndarray:
        return np.ones(OBSERVATION_SIZE, dtype=np.int8)

    def encode(self, observation: Any) -> np.ndarray:
        return observation_vector(cast(GongzhuObservation, observation))

    def indices(self, legal: Sequence[Any]) -> list[int]:
        return [CARD_INDEX[card] for card in legal]

    def describe_index(self, index: int) -> str:
        return CARD_NAMES[index]

    def public_info(self, observation: Any) -> dict[str, Any]:
        obs = cast(GongzhuObservation, observation)
        agents = self.possible_agents
        return {"phase": obs.phase, "leader": agents[obs.leader],
                "trick": [[agents[seat], card] for seat, card in obs.trick]}


def raw_env(rules: GongzhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> GongzhuEnv:
    """The environment without wrappers."""
    return GongzhuEnv(rules, render_mode)


def env(rules: GongzhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["OBSERVATION_SIZE", "GongzhuEnv", "env", "observation_vector", "raw_env"]
