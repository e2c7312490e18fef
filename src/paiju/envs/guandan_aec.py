"""GuanDan as a PettingZoo AEC environment over paiju's engine.

Agents ``player_0`` .. ``player_3`` are seats 0-3 (partners 0+2 against 1+3). One episode is one game under
the ruleset, by default ``GuanDanRules(rounds=1)``: a single round from level 2, so no tribute; pass
``GuanDanRules(rounds=N)`` or ``rounds=None`` (until a team wins at A), or their JSON, for longer episodes
with the tribute and back phases. The AEC loop, masks, rewards (each seat's payoff at the end: its team's
round results, ``GuanDanState.payoffs``) and seeding are ``paiju.envs.card_aec.CardGameEnv``'s.

Actions: GuanDan's plays have no small fixed index, so, as the competition platform's ``actIndex``, an action
is a position in the current legal list in ``legal_actions()`` order (plays: ``legal.legal_plays``, the pass
first when following; gifts: by card index). The space is ``Discrete(MAX_ACTIONS)`` and the mask marks the
first ``len(legal)`` entries; ``legal_action(env, index)`` names the action behind an index.

The ``"observation"`` is DanZero's 513 state features of that seat's ``GuanDanObservation``
(``paiju.games.guandan.features.encode_state``, float32: card counts 0..2, one-hots and flags 0/1, the
partner's last play -1 once the partner has finished).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.core.errors import PaijuError
from paiju.envs.card_aec import CardGameEnv
from paiju.games.guandan import GuanDanObservation, GuanDanRules
from paiju.games.guandan.cards import COPIES
from paiju.games.guandan.features import (
    CARDS_LEFT,
    HAND,
    PARTNER_LAST,
    PLAYED,
    STATE_SIZE,
    UNSEEN,
    WILD_FLAGS,
    encode_state,
)

MAX_ACTIONS = 1 << 15
"""Bound on the number of legal actions at any decision: the largest legal list measured on fresh 27-card
hands holding both wild cards (the richest leads) was 17,070 plays (a hill-climb over hands packed into seven
adjacent ranks; random such hands gave at most 14,252); the bound is the next power of two, 2**15, nearly
twice that. A position with more legal actions raises ``PaijuError``."""
DEFAULT_RULES = GuanDanRules(rounds=1)
"""One round per episode."""


def observation_bounds() -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest value of each of the ``STATE_SIZE`` features (``features`` module doc)."""
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
    action_count = MAX_ACTIONS
    observation_dtype = np.float32

    def observation_low(self) -> np.ndarray:
        return _LOW.copy()

    def observation_high(self) -> np.ndarray:
        return _HIGH.copy()

    def encode(self, observation: Any) -> np.ndarray:
        return encode_state(cast(GuanDanObservation, observation))

    def indices(self, legal: Sequence[Any]) -> list[int]:
        if len(legal) > MAX_ACTIONS:
            raise PaijuError(f"this position has {len(legal)} legal actions, more than the environment's bound "
                             f"MAX_ACTIONS = {MAX_ACTIONS}")
        return list(range(len(legal)))

    def describe_index(self, index: int) -> str:
        return f"position {index} of the legal list"


def legal_action(table: GuanDanEnv, index: int) -> Any:
    """The engine action (``Play`` or ``Gift``) that action ``index`` stands for now."""
    legal = table.game_state.legal_actions()
    if not 0 <= index < len(legal):
        raise PaijuError(f"action {index} is not legal now: {len(legal)} actions are legal")
    return legal[index]


def raw_env(rules: GuanDanRules | dict[str, Any] | None = None, render_mode: str | None = None) -> GuanDanEnv:
    """The environment without wrappers."""
    return GuanDanEnv(rules, render_mode)


def env(rules: GuanDanRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["DEFAULT_RULES", "MAX_ACTIONS", "GuanDanEnv", "env", "legal_action", "observation_bounds", "raw_env"]
