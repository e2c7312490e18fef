"""DouDizhu as a PettingZoo AEC environment over paiju's engine.

Agents ``player_0``, ``player_1``, ``player_2`` are seats 0, 1, 2 (seats play 0 -> 1 -> 2). In research mode
(default) seat 0 is the landlord and play starts at once; in full mode each seat bids first (a void deal
is redealt from the same seeded generator inside one episode).

Actions: ``Discrete(ACTION_COUNT)`` over the fixed index of ``paiju.games.doudizhu.action_space`` (pass,
27,471 plays, bids 0..3). A play index stands for a card multiset; the environment plays it in the
interpretation that is legal in the position. An action whose mask entry is 0 raises
``IllegalActionError`` and changes nothing; only the rulesets whose plays all lie in the index are accepted
(``rocket_as_kickers`` and ``bomb_as_kickers`` are not).

The AEC loop, masks, rewards and seeding are ``paiju.envs.card_aec.CardGameEnv``'s. The ``"observation"`` is
a ``Box`` of int8 built only from that seat's ``DouDizhuObservation``. Seats are written relative to the
observer: 0 = self, 1 = next (plays after it), 2 = previous. Cards are 15 counts per rank ``3456789TJQKA2BR``.

| offset | size | field                                                                  |
| ------ | ---- | ---------------------------------------------------------------------- |
| 0      | 3    | phase one-hot: bid, play, over                                          |
| 3      | 3    | landlord, relative seat one-hot (zeros while bidding)                   |
| 6      | 15   | bids, per relative seat a one-hot over (not yet, 0, 1, 2, 3)            |
| 21     | 15   | own hand                                                                |
| 36     | 15   | the three public cards (zeros while bidding)                            |
| 51     | 3    | cards left per relative seat (0..20)                                    |
| 54     | 45   | cards played so far, per relative seat                                  |
| 99     | 15   | the play to beat (zeros when leading)                                   |
| 114    | 3    | who played it, relative seat one-hot                                    |
| 117    | 1    | bombs and rockets played (0..14)                                        |
| 118    | 270  | last 15 moves, newest first: cards (15) + relative seat one-hot (3) each |

Rewards are 0 until the end, then each seat's payoff (``State.payoffs``). ``reset(seed=s)`` deals game
``s``; ``reset()`` without a seed deals the next game of the generator seeded by the last seeded reset.
The ruleset is a constructor argument, or ``reset(options={"rules": DouDizhuRules(...) or its JSON})``;
other option keys are ignored.

``infos[agent]`` (``CardGameEnv``): ``{"phase": "bid" | "play" | "over", "landlord": agent name or None}``
from that seat's observation, and for the agent to act ``"legal_actions"`` (``{index: "bid 2" | "pass" |
cards}``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, ClassVar, cast

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.core.errors import PaijuError
from paiju.envs.card_aec import CardGameEnv
from paiju.games.doudizhu import DouDizhuObservation, DouDizhuRules
from paiju.games.doudizhu.action_space import ACTION_COUNT, action_at, action_indices
from paiju.games.doudizhu.cards import pack

RANKS = 15
HISTORY_MOVES = 15
PHASES = ("bid", "play", "over")
BID_VALUES = 5  # not yet, 0, 1, 2, 3
# (name, size, highest value) of each field of the observation vector, in order.
FIELDS = (
    ("phase", 3, 1), ("landlord", 3, 1), ("bids", 3 * BID_VALUES, 1), ("hand", RANKS, 4), ("public", RANKS, 4),
    ("cards_left", 3, 20), ("played", 3 * RANKS, 4), ("follow", RANKS, 4), ("follow_seat", 3, 1),
    ("bombs", 1, 14), ("history", HISTORY_MOVES * (RANKS + 3), 4),
)
OBSERVATION_SIZE = sum(size for _, size, _ in FIELDS)
OFFSETS = dict(zip((name for name, _, _ in FIELDS),
                   np.cumsum([0] + [size for _, size, _ in FIELDS[:-1]]).tolist(), strict=True))


def _unpacked(card_sets: list[int]) -> np.ndarray:
    """Counts ``[k, 15]`` of card sets in packed form (``cards.pack``, a byte per rank)."""
    raw = b"".join(packed.to_bytes(RANKS, "little") for packed in card_sets)
    return np.frombuffer(raw, dtype=np.uint8).reshape(len(card_sets), RANKS).astype(np.int8)


def observation_vector(obs: DouDizhuObservation) -> np.ndarray:
    """The ``OBSERVATION_SIZE`` int8 encoding of one seat's observation (table in the module doc).

    Card sets are summed in packed form (a rank never exceeds 4 cards, so its byte never overflows) and
    unpacked together.
    """
    vector = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
    relative = [(seat - obs.seat) % 3 for seat in range(3)]
    vector[OFFSETS["phase"] + PHASES.index(obs.phase)] = 1
    if obs.landlord is not None:
        vector[OFFSETS["landlord"] + relative[obs.landlord]] = 1
    bids = [0] * 3  # index into (not yet, 0, 1, 2, 3)
    for seat, bid in obs.bids:
        bids[relative[seat]] = 1 + bid
    for position, value in enumerate(bids):
        vector[OFFSETS["bids"] + BID_VALUES * position + value] = 1
    for seat, left in enumerate(obs.cards_left):
        vector[OFFSETS["cards_left"] + relative[seat]] = left
    played = [0, 0, 0]
    bombs = 0
    for seat, move in obs.history:
        played[relative[seat]] += move.packed
        bombs += move.is_bomb
    vector[OFFSETS["bombs"]] = bombs
    recent = obs.history[:-HISTORY_MOVES - 1:-1]
    follow = obs.follow.packed if obs.follow is not None else 0
    public = pack(obs.public) if obs.public is not None else 0
    counts = _unpacked([pack(obs.hand), public, *played, follow, *(move.packed for _, move in recent)])
    vector[OFFSETS["hand"]:OFFSETS["hand"] + RANKS] = counts[0]
    vector[OFFSETS["public"]:OFFSETS["public"] + RANKS] = counts[1]
    vector[OFFSETS["played"]:OFFSETS["played"] + 3 * RANKS] = counts[2:5].ravel()
    if obs.follow_seat is not None:
        vector[OFFSETS["follow"]:OFFSETS["follow"] + RANKS] = counts[5]
        vector[OFFSETS["follow_seat"] + relative[obs.follow_seat]] = 1
    moves = vector[OFFSETS["history"]:].reshape(HISTORY_MOVES, RANKS + 3)
    moves[:len(recent), :RANKS] = counts[6:]
    moves[np.arange(len(recent)), [RANKS + relative[seat] for seat, _ in recent]] = 1
    return vector


def _index_covers(rules: DouDizhuRules) -> DouDizhuRules:
    """``rules``, unless its plays fall outside the fixed action index."""
    if rules.rocket_as_kickers or rules.bomb_as_kickers:
        raise PaijuError("rocket_as_kickers and bomb_as_kickers add plays outside the fixed action index; "
                         "this environment supports the standard plays (and no_four_with_two)")
    return rules


class DouDizhuEnv(CardGameEnv):
    """Three-seat DouDizhu, one ``step`` per bid or play (see the module doc for spaces and rewards)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiju_doudizhu_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}
    game_name = "doudizhu"
    action_count = ACTION_COUNT
    laizi = False
    """Whether this environment plays 癞子 (``doudizhu_laizi_aec``) rather than the classic game."""

    def checked_rules(self, rules: Any) -> DouDizhuRules:
        checked = _index_covers(super().checked_rules(rules))
        if checked.laizi != self.laizi:
            raise PaijuError("the 癞子 rules (\"laizi\": true) are played by doudizhu_laizi_aec.env(), the classic "
                             "game by doudizhu_aec.env()")
        return checked

    def observation_high(self) -> np.ndarray:
        return np.concatenate([np.full(size, top, dtype=np.int8) for _, size, top in FIELDS])

    def encode(self, observation: Any) -> np.ndarray:
        return observation_vector(cast(DouDizhuObservation, observation))

    def indices(self, legal: Sequence[Any]) -> list[int]:
        return action_indices(legal).tolist()

    def describe_index(self, index: int) -> str:
        return _description(index)

    def public_info(self, observation: Any) -> dict[str, Any]:
        obs = cast(DouDizhuObservation, observation)
        landlord = None if obs.landlord is None else self.possible_agents[obs.landlord]
        return {"phase": obs.phase, "landlord": landlord}


@cache
def _description(index: int) -> str:
    meant = action_at(index)
    return f"bid {meant}" if isinstance(meant, int) else ("pass" if meant.is_pass else repr(meant.cards))


def raw_env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> DouDizhuEnv:
    """The environment without wrappers."""
    return DouDizhuEnv(rules, render_mode)


def env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["OBSERVATION_SIZE", "DouDizhuEnv", "env", "observation_vector", "raw_env"]
