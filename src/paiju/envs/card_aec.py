"""A PettingZoo AEC environment over any paiju game with an action index and an observation encoder.

Agents ``player_0`` .. ``player_{n-1}`` are the game's seats. ``observe(agent)`` returns a dict with
``"observation"`` (a ``Box`` of ``observation_dtype``, int8 unless a subclass says otherwise, built only from
that seat's observation by the subclass's ``encode``) and
``"action_mask"`` (``Box(0, 1, (action_count,), int8)``, all zeros unless the agent is to act). Actions are
``Discrete(action_count)``; an action whose mask entry is 0 raises ``IllegalActionError`` and changes
nothing. A game's ``indices`` gives each legal action its fixed index; when several legal actions share an
index, ``chosen_actions`` picks the one the index plays (by default the first in the engine's legal order).

``infos[agent]`` holds, for every agent, the public game state read from that seat's observation alone
(``public_info``: each game's module doc lists its keys), and for the agent to act also
``"legal_actions"``: ``{index: description}`` of its legal indices (``describe_index``) — what its mask
shows, named; no other agent's infos hold it.

Rewards are 0 until the end, then each seat's payoff (``State.payoffs``). ``reset(seed=s)`` deals
game ``s``; ``reset()`` without a seed deals the next game of the generator seeded by the last seeded reset.
The ruleset is a constructor argument, or ``reset(options={"rules": rules or its JSON})``; other option keys
are ignored (PettingZoo's API test passes arbitrary ones).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from paiju.core.errors import IllegalActionError, PaijuError
from paiju.core.game import Action, State
from paiju.core.registry import load_game


class CardGameEnv(AECEnv):
    """The AEC loop shared by paiju's environments; a game's subclass supplies the index and the encoder."""

    game_name: str
    action_count: int
    observation_dtype: type[np.number] = np.int8
    """Element type of the observation vector (a subclass with real-valued features overrides it)."""

    def __init__(self, rules: Any = None, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise PaijuError(f"unknown render mode {render_mode!r}; use 'human' or 'ansi'")
        self.game = load_game(self.game_name)
        self.rules = self.checked_rules(rules)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(low=self.observation_low(), high=self.observation_high(),
                                      dtype=self.observation_dtype),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.action_count,), dtype=np.int8),
        }) for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self.action_count) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._state: State | None = None
        self._legal: dict[int, Action] = {}

    # -- what each game supplies ---------------------------------------------------------------------

    default_rules: Any = None
    """The ruleset used when none is given (None: the game's default)."""

    def checked_rules(self, rules: Any) -> Any:
        """The ruleset from ``rules`` (None, the ruleset, or its JSON); games refuse ones their index cannot
        express by extending this."""
        if rules is None:
            return self.default_rules if self.default_rules is not None else self.game.default_rules()
        if isinstance(rules, dict):
            return self.game.rules_from_json(rules)
        if not isinstance(rules, self.game.rules_type):
            raise PaijuError(f"rules must be {self.game.rules_type.__name__} or its JSON object, got {rules!r}")
        return rules

    @abstractmethod
    def observation_high(self) -> np.ndarray:
        """Highest value of each entry of the observation vector (the lows are ``observation_low``)."""

    def observation_low(self) -> np.ndarray:
        """Lowest value of each entry of the observation vector: 0 unless a subclass says otherwise."""
        return np.zeros_like(self.observation_high())

    @abstractmethod
    def encode(self, observation: Any) -> np.ndarray:
        """The observation vector (of ``observation_dtype``) of one seat's observation."""

    @abstractmethod
    def indices(self, legal: Sequence[Action]) -> list[int]:
        """The fixed index of each legal action."""

    @abstractmethod
    def describe_index(self, index: int) -> str:
        """What an action index stands for (error messages, ``infos``)."""

    @abstractmethod
    def public_info(self, observation: Any) -> dict[str, Any]:
        """The public game state for ``infos`` from one seat's observation (JSON-like values)."""

    def chosen_actions(self, legal: Sequence[Action], indices: Sequence[int]) -> dict[int, Action]:
        """The engine action each index plays, from the legal actions and their ``indices``: by default the
        first legal action of each index, in the engine's legal order."""
        chosen: dict[int, Action] = {}
        for index, action in zip(indices, legal, strict=True):
            chosen.setdefault(index, action)
        return chosen

    # -- the AEC API -----------------------------------------------------------------------------------

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
            self.rules = self.checked_rules(options["rules"])
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
        self.infos: dict[str, dict[str, Any]] = {}
        self._begin_turn()
        self._update_infos()

    def _begin_turn(self) -> None:
        state = self.game_state
        seat = state.current_player
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        legal = state.legal_actions()
        self._legal = self.chosen_actions(legal, self.indices(legal))

    def _update_infos(self) -> None:
        """Every live agent's public state, and the acting agent's legal indices named (module doc)."""
        state = self.game_state
        acting = None if state.is_terminal() else self.agent_selection
        infos: dict[str, dict[str, Any]] = {}
        for seat, agent in enumerate(self.possible_agents):
            if agent not in self.agents:
                continue
            info = self.public_info(state.observation(seat))
            if agent == acting:
                info["legal_actions"] = {index: self.describe_index(index) for index in sorted(self._legal)}
            infos[agent] = info
        self.infos = infos

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.action_count, dtype=np.int8)
        if agent == self.agent_selection and not self.game_state.is_terminal():
            mask[list(self._legal)] = 1
        return {"observation": self.encode(self.game_state.observation(seat)), "action_mask": mask}

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
        self._update_infos()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def legal_action(self, index: int) -> Action:
        """The engine action that ``index`` plays now; ``IllegalActionError`` when it is not legal."""
        return self._chosen(self.agent_selection, index)

    def _chosen(self, agent: str, action: Any) -> Action:
        """The engine action for ``action`` (an index), or ``IllegalActionError`` naming why it is not legal."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(
                f"{agent} must act with an action index 0..{self.action_count - 1}, got {action!r}")
        if not 0 <= int(action) < self.action_count:
            raise IllegalActionError(f"{agent} chose action {int(action)}, outside 0..{self.action_count - 1}")
        chosen = self._legal.get(int(action))
        if chosen is None:
            raise IllegalActionError(
                f"{agent} chose action {int(action)} ({self.describe_index(int(action))}), which is not legal "
                f"now (its action_mask entry is 0; {len(self._legal)} actions are legal)")
        return chosen

    def render(self) -> str | None:
        """The perfect view as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        view = self.game_state.perfect_view()
        text = "\n".join(f"{key}: {value}" for key, value in view.items())
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        self._state = None
