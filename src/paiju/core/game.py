"""The game-agnostic interface: a ``Game`` makes ``State``s; a ``State`` is one position of one game.

Every game (DouDizhu, GuanDan, Gongzhu) implements exactly this, so that agents, evaluation, training,
the server and the conformance tests never import a specific game. A ``State`` is mutable: ``apply``
changes it in place (fast for search and self-play); ``clone`` gives an independent copy.

Actions are game-specific immutable values (a DouDizhu ``Move``, a bid ``int``, a Gongzhu card name);
``action_to_json`` / ``action_from_json`` convert them for records and network messages.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Any, ClassVar, Protocol

from paiju.core.ruleset import Ruleset

Action = Hashable
JSON = Any


class Observation(Protocol):
    """One seat's view of a state. Games add their own fields (hand, history, ...)."""

    seat: int
    phase: str

    def to_json(self) -> dict[str, JSON]:
        """The external protocol's ``obs`` object for this seat."""
        ...

    def action_from_json(self, value: JSON) -> Action:
        """Parse the JSON form of an action of this seat's decision, as the state it was seen in would
        (``State.action_from_json``); raises ``IllegalActionError``."""
        ...


class State(ABC):
    """One position of a game: whose turn it is, what they may do, what each seat can see."""

    game_name: ClassVar[str]
    num_players: ClassVar[int]

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` once the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """Name of the current phase (``"bid"``, ``"play"``, ``"tribute"``, ``"over"``, ...)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every distinct legal action of the current player, each exactly once, in a fixed order."""

    @abstractmethod
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play ``action`` for the current player (``seat``, when given, must be that player).

        Raises ``IllegalActionError`` naming the problem, leaving the state unchanged.
        """

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see, and nothing more (its own hand, public cards, the public history)."""

    def observation_json(self, seat: int) -> dict[str, JSON]:
        """The JSON of ``observation(seat).to_json()``, to be read as JSON: a game may build it faster with tuples for
        arrays, sharing with the state and with earlier answers the immutable entries of what only grows (a round's
        history, each entry built once), so that a server sending every seat's observation after every move encodes
        only what is new (``paiju.serve.table_texts``)."""
        return self.observation(seat).to_json()

    @abstractmethod
    def perfect_view(self) -> dict[str, JSON]:
        """Everything, every hand included. Only for training code that asks for it by name."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy: applying actions to it never changes this state."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """Whether the game is over."""

    @abstractmethod
    def payoffs(self) -> list[float]:
        """Score of each seat at the end of the game (raises ``ValueError`` before)."""

    @abstractmethod
    def to_record(self) -> dict[str, JSON]:
        """paiju's JSON record of the game so far: seed, rules, deal, every action, result."""

    def action_to_json(self, action: Action) -> JSON:
        """The JSON form of an action, as written in records and protocol messages."""
        from paiju.core.registry import load_game

        return load_game(self.game_name).action_to_json(action)

    def action_seen_by(self, viewer: int, seat: int, action: Action) -> JSON:
        """``action``, just played by ``seat`` (this state is the position right after it), as ``viewer`` may
        see it now: its JSON form, or ``None`` while the rules keep it from ``viewer``. Every action is public
        unless a game says otherwise (GuanDan: a tribute or return card is sealed until its phase ends)."""
        return self.action_to_json(action)

    @abstractmethod
    def action_from_json(self, value: JSON) -> Action:
        """Parse the JSON form of an action of the current phase (raises ``IllegalActionError``)."""

    def invariant_errors(self) -> list[str]:
        """Game-specific consistency problems (cards not conserved, wrong hand sizes); empty when sound."""
        return []

    @property
    def deal_number(self) -> int:
        """Counts deals (GuanDan: rounds) started in this game, from 0; a new deal triggers ``start``."""
        return 0

    def result(self) -> dict[str, JSON]:
        """A JSON summary of the finished game; games add their own fields to ``payoffs``."""
        return {"payoffs": self.payoffs()}


class Game(ABC):
    """A game's factory: deals new states from seeds, rebuilds states from records and observations."""

    name: ClassVar[str]
    num_players: ClassVar[int]
    zero_sum: ClassVar[bool] = True
    """Whether the payoffs of every finished game sum to zero."""
    rules_type: ClassVar[type[Ruleset]]
    """The game's ruleset dataclass."""

    def default_rules(self) -> Any:
        """The default ruleset."""
        return self.rules_type()

    def rules_from_json(self, value: dict[str, JSON]) -> Any:
        """A ruleset from its JSON form, with a clear error for unknown or ill-typed options."""
        return self.rules_type.from_json(value)

    @abstractmethod
    def new_state(self, seed: int, rules: Any = None) -> State:
        """A new game dealt from ``seed``; the same seed and rules always give the same deal."""

    @abstractmethod
    def from_record(self, record: dict[str, JSON]) -> State:
        """Replay a paiju JSON record; raises ``RecordError`` naming the first bad entry."""

    def opening_state(self, record: dict[str, JSON]) -> State:
        """The position of a record before its first action (replay viewers step on from it)."""
        return self.from_record({**{k: v for k, v in record.items() if k != "result"}, "actions": []})

    @abstractmethod
    def action_to_json(self, action: Action) -> JSON:
        """The JSON form of an action, as written in records and protocol messages."""

    @abstractmethod
    def observation_from_json(self, obs: dict[str, JSON], seat: int, phase: str, rules: Any = None) -> Observation:
        """The observation whose ``to_json()`` is ``obs``, for ``seat`` in ``phase`` under ``rules`` (default:
        the default rules) — what a program on the far side of the protocol rebuilds from an ``act`` message.

        It holds everything the built-in agents read; raises ``PaijuError`` naming the first bad field.
        """

    @abstractmethod
    def determinize(self, observation: Any, rng: random.Random) -> State:
        """A full state consistent with one seat's observation, the hidden cards drawn from ``rng``.

        The observing seat's hand and the whole public history are exactly as observed; every other
        hand holds the right number of cards, all from the cards that seat cannot see.
        """

    def parse_action_text(self, state: State, text: str) -> Action:
        """Parse what a person typed as an action in ``state`` (defaults to the JSON form)."""
        return state.action_from_json(text)
