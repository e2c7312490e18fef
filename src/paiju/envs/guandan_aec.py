"""GuanDan as a PettingZoo AEC environment over paiju's engine.

Agents ``player_0`` .. ``player_3`` are seats 0-3 (partners 0+2 against 1+3). One episode is one game under
the ruleset, by default ``GuanDanRules(rounds=1)``: a single round from level 2, so no tribute; pass
``GuanDanRules(rounds=N)`` or ``rounds=None`` (until a team wins at A), or their JSON, for longer episodes
with the tribute and back phases. The AEC loop, masks, rewards (each seat's payoff at the end: its team's
round results, ``GuanDanState.payoffs``) and seeding are ``paiju.envs.card_aec.CardGameEnv``'s.

Actions: ``Discrete(ACTION_COUNT)`` (1,292) over the fixed index of abstract actions of
``paiju.games.guandan.action_space``: pass, plays by (type, rank, secondary, wild cards used), gifts by card.
The mask marks every index with at least one legal concrete action; an index stands for the concrete play
that module's rule picks (the fewest cards of the hand's straight-flush material, then the engine's legal
order), and ``legal_action(env, index)`` names it.

The ``"observation"`` is DanZero's 513 state features of that seat's ``GuanDanObservation``
(``paiju.agents.dmc.danzero_features.encode_state``, float32: card counts 0..2, one-hots and flags 0/1, the
partner's last play -1 once the partner has finished). ``infos[agent]`` (``CardGameEnv``): ``{"round": n
(from 0), "level": "2".."A", "levels": {"self": .., "oppo": ..} (team levels at the round's start), "phase":
"tribute" | "back" | "play" | "over"}`` from that seat's observation, and for the agent to act
``"legal_actions"`` (``{index: "pair of 9s, 1 wild"}``, ``action_space.describe``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.agents.dmc.danzero_features import (
    CARDS_LEFT,
    HAND,
    PARTNER_LAST,
    PLAYED,
    STATE_SIZE,
    UNSEEN,
    WILD_FLAGS,
    encode_state,
)
from paiju.envs.card_aec import CardGameEnv
from paiju.games.guandan import GuanDanObservation, GuanDanRules, GuanDanState
from paiju.games.guandan.action_space import ACTION_COUNT, choices, describe, indices_of
from paiju.games.guandan.cards import COPIES, level_name

DEFAULT_RULES = GuanDanRules(rounds=1)
"""One round per episode."""


def observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of each of the ``STATE_SIZE`` features (the module doc of
    ``paiju.agents.dmc.danzero_features``)."""
    low = np.zeros(STATE_SIZE, dtype=np.float32)
    high = np.ones(STATE_SIZE, dtype=np.float32)
    low[PARTNER_LAST:PLAYED] = -1.0
    high[HAND:WILD_FLAGS] = COPIES
    high[UNSEEN:CARDS_LEFT] = COPIES
    return low, high


_LOW, _HIGH = observation_bounds()


class GuanDanEnv(CardGameEnv):
    """Four-seat GuanDan, one ``step`` per play or gift (see the module doc for spaces and rewards)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiju_guandan_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    game_name = "guandan"
    default_rules = DEFAULT_RULES
    action_count = ACTION_COUNT
    observation_dtype = np.float32

    def observation_low(self) -> np.ndarray:
        return _LOW.copy()

    def observation_high(self) -> np.ndarray:
        return _HIGH.copy()

    def encode(self, observation: Any) -> np.ndarray:
        return encode_state(cast(GuanDanObservation, observation))

    def indices(self, legal: Sequence[Any]) -> list[int]:
        return indices_of(legal, cast(GuanDanState, self.game_state).standing.level)

    def chosen_actions(self, legal: Sequence[Any], indices: Sequence[int]) -> dict[int, Any]:
        state = cast(GuanDanState, self.game_state)
        seat = state.current_player
        assert seat is not None
        return choices(legal, indices, state.hands[seat], state.standing.level)

    def describe_index(self, index: int) -> str:
        return describe(index)

    def public_info(self, observation: Any) -> dict[str, Any]:
        obs = cast(GuanDanObservation, observation)
        return {"round": obs.round_number, "level": level_name(obs.level),
                "levels": {"self": level_name(obs.self_level), "oppo": level_name(obs.oppo_level)},
                "phase": obs.phase}


def legal_action(table: GuanDanEnv, index: int) -> Any:
    """The engine action (``Play`` or ``Gift``) that action ``index`` plays now (``IllegalActionError`` when
    its mask entry is 0)."""
    return table.legal_action(index)


def raw_env(rules: GuanDanRules | dict[str, Any] | None = None, render_mode: str | None = None) -> GuanDanEnv:
    """The environment without wrappers."""
    return GuanDanEnv(rules, render_mode)


def env(rules: GuanDanRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["DEFAULT_RULES", "GuanDanEnv", "env", "legal_action", "observation_bounds", "raw_env"]
