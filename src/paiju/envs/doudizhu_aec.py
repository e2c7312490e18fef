"""DouDizhu as a PettingZoo AEC environment over paiju's engine.

Agents ``player_0``, ``player_1``, ``player_2`` are seats 0, 1, 2 (seats play 0 -> 1 -> 2). In research mode
(default) seat 0 is the landlord and play starts at once; in full mode each seat bids first (a void deal
is redealt from the same seeded generator inside one episode).

Actions: ``Discrete(ACTION_COUNT)`` over the fixed index of ``paiju.games.doudizhu.action_space`` (pass,
27,471 plays, bids 0..3). A play index stands for a card multiset; the environment plays it in the
interpretation that is legal in the position. An action whose mask entry is 0 raises
``IllegalActionError`` and changes nothing; only the rulesets whose plays all lie in the index are accepted
(``rocket_as_kickers`` and ``bomb_as_kickers`` are not).

Observation of an agent (``observe``): a dict with ``"action_mask"`` (``Box(0, 1, (ACTION_COUNT,), int8)``, all
zeros unless the agent is to act) and ``"observation"``, a ``Box`` of int8 built only from that seat's
``DouDizhuObservation``. Seats are written relative to the observer: 0 = self, 1 = next (plays after it),
2 = previous. Cards are 15 counts per rank ``3456789TJQKA2BR``.

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
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from paiju.core.errors import IllegalActionError, PaijuError
from paiju.core.game import State
from paiju.core.registry import load_game
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


def _checked_rules(rules: DouDizhuRules | dict[str, Any] | None) -> DouDizhuRules:
    if rules is None:
        return DouDizhuRules()
    if isinstance(rules, dict):
        rules = DouDizhuRules.from_json(rules)
    if not isinstance(rules, DouDizhuRules):
        raise PaijuError(f"rules must be DouDizhuRules or its JSON object, got {rules!r}")
    if rules.rocket_as_kickers or rules.bomb_as_kickers:
        raise PaijuError("rocket_as_kickers and bomb_as_kickers add plays outside the fixed action index; "
                         "this environment supports the standard plays (and no_four_with_two)")
    return rules


class DouDizhuEnv(AECEnv):
    """Three-seat DouDizhu, one ``step`` per bid or play (see the module doc for spaces and rewards)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "paiju_doudizhu_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PaijuError(f"unknown render mode {render_mode!r}; use 'human' or 'ansi'")
        self.rules = _checked_rules(rules)
        self.render_mode = render_mode
        self.game = load_game("doudizhu")
        self.possible_agents = [f"player_{seat}" for seat in range(3)]
        high = np.concatenate([np.full(size, top, dtype=np.int8) for _, size, top in FIELDS])
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low=0, high=high, dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._state: State | None = None
        self._legal: dict[int, Any] = {}

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    @property
    def game_state(self) -> State:
        """The full paiju state of the current episode (every hand: for records and tools, not for agents)."""
        if self._state is None:
            raise PaijuError("the environment has no game before reset()")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if options and "rules" in options:
            self.rules = _checked_rules(options["rules"])
        if seed is not None:
            self._seeds = random.Random(seed)
            deal = seed
        else:
            deal = self._seeds.getrandbits(63)
        self._state = self.game.new_state(deal, self.rules)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._begin_turn()

    def _begin_turn(self) -> None:
        state = self.game_state
        seat = state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        legal = state.legal_actions()
        self._legal = dict(zip(action_indices(legal).tolist(), legal, strict=True))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        if agent == self.agent_selection and not self.game_state.is_terminal():
            mask[list(self._legal)] = 1
        observation = cast(DouDizhuObservation, self.game_state.observation(seat))
        return {"observation": observation_vector(observation), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game_state.apply(self._chosen(agent, action))
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            payoffs = self.game_state.payoffs()
            self.rewards = {name: payoffs[seat] for seat, name in enumerate(self.possible_agents)}
            self.terminations = {name: True for name in self.agents}
            self._legal = {}
        else:
            self.rewards = {name: 0.0 for name in self.agents}
            self._begin_turn()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _chosen(self, agent: str, action: Any) -> Any:
        """The engine action for ``action`` (an index), or ``IllegalActionError`` naming why it is not legal."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"{agent} must act with an action index 0..{ACTION_COUNT - 1}, got {action!r}")
        chosen = self._legal.get(int(action))
        if chosen is None:
            meant = action_at(int(action))
            described = f"bid {meant}" if isinstance(meant, int) else ("pass" if meant.is_pass else repr(meant.cards))
            raise IllegalActionError(f"{agent} chose action {int(action)} ({described}), which is not legal now "
                                     f"(its action_mask entry is 0; {len(self._legal)} actions are legal)")
        return chosen

    def render(self) -> str | None:
        """The table as text: phase, each hand, the last plays (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        view = self.game_state.perfect_view()
        lines = [f"phase {view['phase']}, landlord {view['landlord']}, to move {view['to_move']}"]
        lines += [f"player_{seat}: {hand}" for seat, hand in enumerate(view["hands"])]
        lines.append("last plays: " + " ".join(f"{seat}:{cards or 'pass'}" for seat, cards in view["history"][-6:]))
        text = "\n".join(lines)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self._state = None


def raw_env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> DouDizhuEnv:
    """The environment without wrappers."""
    return DouDizhuEnv(rules, render_mode)


def env(rules: DouDizhuRules | dict[str, Any] | None = None, render_mode: str | None = None) -> AECEnv:
    """The environment inside PettingZoo's order-enforcing wrapper (no step or observe before reset)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, render_mode))


__all__ = ["OBSERVATION_SIZE", "DouDizhuEnv", "env", "observation_vector", "raw_env"]
