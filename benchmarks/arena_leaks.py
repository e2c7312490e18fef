"""The arena's leak checker: did any seat's client receive a card that seat may not see at that moment?

A finished game's stored record is replayed with paiju's engine (``Game.opening_state`` then ``State.apply``,
as ``paiju.serve.replay_frames`` does), giving every position of the game. Each seat's messages, in the order
the seat received them, are matched to those positions: the ``k``-th ``update`` shows position ``k`` (one
``update`` per position, the deal included), an ``act`` the position of the ``update`` before it, ``end`` the
last position. This holds for a seat whose client was connected from the deal to the end without
reconnecting (a reconnect is sent the current ``update`` again).

What a seat may see at position ``k`` is taken from the engine, which keeps observations private:

- the seat's own observation, ``state.observation(seat).to_json()``;
- plus the action that led to position ``k`` (the ``last`` of its ``update``), when that action is visible to
  the seat: every action of every game is public once played, except a GuanDan tribute or return card, which
  only its giver sees until every gift of its phase is chosen (the engine's observation then lists it in
  ``tribute`` / ``back``);
- at ``end``, also the game's result (``state.result()``; the record is public once the game is stored).

Cards are counted with their multiplicity (``card_counts``): DouDizhu cards are rank letters inside strings
such as ``"33445"`` (``B``/``R`` the jokers); GuanDan and Gongzhu cards are whole strings such as ``"H9"``,
``"ST"``, ``"H10"``; GuanDan has two decks, so a seat holding one ``H9`` may not be shown the other. A
message leaks card ``c`` when it holds more copies of ``c`` than the reference does: every field of the
message counts, except each legal action of an ``act`` (and each candidate of an ``explain``), which must be
made of cards of the seat's own hand. Strings that are sentences (error messages) hold no card.

Besides leaks, ``check_game`` counts mismatches: an ``obs`` that is not the reference observation, a ``last``
that is not the action played (when the seat may see it; a sealed one may be shown in any form that holds
no card), a ``legal`` list that is not the engine's, a wrong number of updates.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju import load_game
from paiju.core.game import JSON, Action, State

CARD_PATTERNS: dict[str, re.Pattern[str]] = {
    "doudizhu": re.compile(r"[3-9TJQKA2BR]+"),
    "guandan": re.compile(r"[HSCD][2-9TJQKA]|SB|HR"),
    "gongzhu": re.compile(r"[SHDC](?:10|[2-9JQKA])"),
}
"""A string that is (DouDizhu: made of) cards, matched whole."""

MAX_EXAMPLES = 20
"""Leaks and mismatches kept in full per report (all are counted)."""

Message = dict[str, Any]


def card_counts(game: str, value: JSON) -> Counter[str]:
    """Every card in ``value`` (any JSON), with its multiplicity."""
    counts: Counter[str] = Counter()
    pattern = CARD_PATTERNS[game]
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if pattern.fullmatch(item):
                counts.update(item if game == "doudizhu" else (item,))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return counts


def paths_holding(game: str, value: JSON, card: str, path: str = "") -> Iterator[str]:
    """Where in ``value`` card ``card`` appears (``obs.hand``, ``last.action.2.0``), for reports."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_holding(game, item, card, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths_holding(game, item, card, f"{path}.{index}" if path else str(index))
    elif card_counts(game, value)[card]:
        yield path


@dataclass(frozen=True, slots=True)
class Position:
    """One position of a replayed game and the action that led to it (``None`` at the deal)."""

    state: State
    actor: int | None
    action: Action | None
    action_json: JSON


def replay_positions(record: dict[str, Any]) -> list[Position]:
    """Every position of the game in ``record``, the deal first; each a state of its own."""
    game = load_game(record["game"])
    state = game.opening_state(record)
    positions = [Position(state.clone(), None, None, None)]
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        state.apply(action, seat=seat)
        positions.append(Position(state.clone(), seat, action, game.action_to_json(action)))
    return positions


def action_visible(position: Position, seat: int) -> bool:
    """Whether ``seat`` may see the action that led to ``position`` (its own, or a public one).

    A GuanDan gift (tribute or return card) is sealed: visible to another seat only once the engine's
    observation of that seat lists it among the exchanged cards (``tribute`` / ``back``)."""
    if position.actor is None or position.actor == seat:
        return True
    if getattr(position.action, "kind", None) not in ("tribute", "back"):
        return True
    observation = position.state.observation(seat)
    exchanged = (*getattr(observation, "tribute", ()), *getattr(observation, "back", ()))
    card = getattr(position.action, "card", None)
    return any(giver == position.actor and gift == card for giver, _receiver, gift in exchanged)


@dataclass(frozen=True, slots=True)
class Leak:
    """Card ``card`` shown ``shown`` times where ``allowed`` copies may be seen."""

    seat: int
    index: int
    """The message's place in the seat's messages."""
    kind: str
    """The message's type."""
    position: int
    card: str
    shown: int
    allowed: int
    paths: tuple[str, ...]
    """Where the card appears in the message."""

    def describe(self) -> str:
        return (f"seat {self.seat} message {self.index} ({self.kind} at position {self.position}): {self.card} "
                f"x{self.shown}, may see x{self.allowed}, in {', '.join(self.paths)}")


@dataclass
class LeakReport:
    """What the checker found in some games."""

    games: int = 0
    messages: int = 0
    leaked_cards: int = 0
    """Card copies shown beyond what a seat may see, summed over every message."""
    leaks: list[Leak] = field(default_factory=list)
    """The first ``MAX_EXAMPLES`` leaks."""
    leaks_by_kind: Counter[str] = field(default_factory=Counter)
    """Leaked copies by message type and game: ``"guandan update"``."""
    mismatches: int = 0
    mismatch_examples: list[str] = field(default_factory=list)

    def add(self, other: LeakReport) -> None:
        self.games += other.games
        self.messages += other.messages
        self.leaked_cards += other.leaked_cards
        self.leaks.extend(other.leaks[:MAX_EXAMPLES - len(self.leaks)])
        self.leaks_by_kind.update(other.leaks_by_kind)
        self.mismatches += other.mismatches
        self.mismatch_examples.extend(other.mismatch_examples[:MAX_EXAMPLES - len(self.mismatch_examples)])

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "messages": self.messages, "leaked_cards": self.leaked_cards,
                "leaks_by_kind": dict(self.leaks_by_kind), "leaks": [leak.describe() for leak in self.leaks],
                "mismatches": self.mismatches, "mismatch_examples": self.mismatch_examples}


def check_game(record: dict[str, Any], received: dict[int, Sequence[Message | str]]) -> LeakReport:
    """Check every message in ``received`` (seat → its messages in order, each parsed or as its JSON text)
    against the replayed ``record``."""
    positions = replay_positions(record)
    report = LeakReport(games=1)
    for seat, messages in received.items():
        _SeatCheck(record["game"], seat, positions, report).run(messages)
    return report


class _SeatCheck:
    """One seat's messages against the replayed positions."""

    def __init__(self, game: str, seat: int, positions: list[Position], report: LeakReport) -> None:
        self.game, self.seat, self.positions, self.report = game, seat, positions, report
        self.engine = load_game(game)
        self._observations: dict[int, dict[str, Any]] = {}

    def observation(self, position: int) -> dict[str, Any]:
        """The reference: the seat's observation at ``position``, as JSON text would carry it."""
        if position not in self._observations:
            obs = self.positions[position].state.observation(self.seat).to_json()
            self._observations[position] = json.loads(json.dumps(obs))
        return self._observations[position]

    def run(self, messages: Sequence[Message | str]) -> None:
        position = -1
        for index, item in enumerate(messages):
            message = json.loads(item) if isinstance(item, str) else item
            self.report.messages += 1
            kind = message.get("type")
            if kind == "update":
                position += 1
                if position >= len(self.positions):
                    self.mismatch(index, f"update {position} but the game has {len(self.positions)} positions")
                    return
                self.check_update(index, position, message)
            elif kind == "act":
                self.check_act(index, max(position, 0), message)
            elif kind == "end":
                self.check_end(index, message)
                if position != len(self.positions) - 1:
                    self.mismatch(index, f"end after {position + 1} updates; the game has {len(self.positions)} "
                                         "positions")
            elif kind == "explain":
                hand = card_counts(self.game, self.observation(max(position, 0))["hand"])
                for candidate in message.get("candidates", []):
                    self.check_within(index, kind, position, candidate, hand)
                self.check_within(index, kind, position, {**message, "candidates": []}, Counter())
            else:
                allowed = self.allowed(position) if position >= 0 else Counter()
                self.check_within(index, str(kind), position, message, allowed)

    def allowed(self, position: int) -> Counter[str]:
        """What the seat may see at ``position``: its observation plus the visible action that led there."""
        allowed = card_counts(self.game, self.observation(position))
        here = self.positions[position]
        if here.actor is not None and action_visible(here, self.seat):
            allowed.update(card_counts(self.game, here.action_json))
        return allowed

    def check_update(self, index: int, position: int, message: Message) -> None:
        self.check_within(index, "update", position, message, self.allowed(position))
        here = self.positions[position]
        if message.get("obs") != self.observation(position):
            self.mismatch(index, f"update {position}: obs is not seat {self.seat}'s observation")
        last = message.get("last")
        if here.actor is not None and action_visible(here, self.seat) and last != {"seat": here.actor,
                                                                                  "action": here.action_json}:
            self.mismatch(index, f"update {position}: last {last!r} is not seat {here.actor}'s "
                                 f"{here.action_json!r}")

    def check_act(self, index: int, position: int, message: Message) -> None:
        obs = self.observation(position)
        legal = message.get("legal", [])
        self.check_within(index, "act", position, {**message, "legal": []}, card_counts(self.game, obs))
        hand = card_counts(self.game, obs["hand"])
        for action in legal:
            self.check_within(index, "act", position, action, hand)
        state = self.positions[position].state
        if state.current_player != self.seat:
            self.mismatch(index, f"act at position {position}, where seat {state.current_player} is to act")
        elif legal != [self.engine.action_to_json(action) for action in state.legal_actions()]:
            self.mismatch(index, f"act at position {position}: legal is not the engine's legal actions")
        if message.get("obs") != obs:
            self.mismatch(index, f"act at position {position}: obs is not seat {self.seat}'s observation")

    def check_end(self, index: int, message: Message) -> None:
        final = len(self.positions) - 1
        result = json.loads(json.dumps(self.positions[final].state.result()))
        allowed = card_counts(self.game, self.observation(final)) + card_counts(self.game, result)
        self.check_within(index, "end", final, message, allowed)
        if message.get("result") != result:
            self.mismatch(index, "end: result is not the engine's result")

    def check_within(self, index: int, kind: str, position: int, shown: JSON, allowed: Counter[str]) -> None:
        """Count a leak for every card copy ``shown`` holds beyond ``allowed``."""
        excess = card_counts(self.game, shown) - allowed
        for card, copies in sorted(excess.items()):
            self.report.leaked_cards += copies
            self.report.leaks_by_kind[f"{self.game} {kind}"] += copies
            if len(self.report.leaks) < MAX_EXAMPLES:
                self.report.leaks.append(Leak(self.seat, index, kind, position, card, copies + allowed[card],
                                              allowed[card], tuple(paths_holding(self.game, shown, card))))

    def mismatch(self, index: int, problem: str) -> None:
        self.report.mismatches += 1
        if len(self.report.mismatch_examples) < MAX_EXAMPLES:
            self.report.mismatch_examples.append(f"{self.game} seat {self.seat} message {index}: {problem}")
