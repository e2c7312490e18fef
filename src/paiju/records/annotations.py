"""The search's candidate values kept in a game's record: soft targets for learners that imitate the search.

A corpus of ``search`` games (``paiju records generate --agents search``) keeps, beside each searched move, every
candidate the search examined with its value (``Agent.searched``: for ``search``, the candidate's mean final score
over its simulated deals, points, from the searching seat's side). They go into the record under ``"searched"``:

    "searched": {"agents": ["search", "rules", "search"],
                 "decisions": [{"step": 4, "values": [["33", 0.81], ["", -0.2], ...]}, ...]}

``agents`` names each seat's agent; ``step`` is the position of the decision's action in the record's ``actions``;
``values`` lists the examined candidates as ``[action JSON, value]``, the move played first. Decisions the agents
did not search (forced moves, the prior's own phases, the other agents' moves) have no entry. A record of games
without searched decisions has no ``"searched"`` key, so corpora of other agents are unchanged; the DeepRocket text
format keeps moves only.

``searched_steps`` replays a record with its values and checks them against the engine: a record whose values are
missing, malformed, or not the legal moves of their decision (a candidate not legal there, or a move played that is not
the first candidate) is a ``RecordError`` naming the entry.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.core.agent import Agent
from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import Action, Game, State
from paiju.core.record import quote

KEY = "searched"
"""The record's key holding the search's candidate values."""
DIGITS = 4
"""Decimals kept of each value (a hundredth of a point is far below a value's simulation noise)."""


@dataclass
class SearchLog:
    """Collects the searched decisions of one game as ``play_game``'s ``on_action`` hook (call it for every action,
    in order: its count is the step)."""

    game: Game
    agents: Sequence[Agent]
    specs: Sequence[str]
    decisions: list[dict[str, Any]] = field(default_factory=list)
    steps: int = 0

    def __call__(self, state: State, seat: int, action: Action) -> None:
        values = self.agents[seat].searched()
        if values:
            if values[0].action != action:
                raise PaijuError(f"{self.specs[seat]} at seat {seat} played {action!r}, not the first of its "
                                 "searched candidates")
            self.decisions.append({"step": self.steps, "values": [
                [self.game.action_to_json(entry.action), round(float(entry.score), DIGITS)] for entry in values]})
        self.steps += 1

    def annotate(self, record: dict[str, Any]) -> dict[str, Any]:
        """``record`` with this game's searched decisions (unchanged when there were none)."""
        if not self.decisions:
            return record
        return {**record, KEY: {"agents": list(self.specs), "decisions": self.decisions}}


@dataclass(frozen=True)
class Step:
    """One action of a replayed record: the state before it (live: read it, do not change it), who acted, the
    action, and the searched candidates' values when the action was searched."""

    state: State
    seat: int
    action: Action
    values: tuple[tuple[Action, float], ...] | None


def searched_steps(game: Game, record: dict[str, Any]) -> Iterator[Step]:
    """Every action of ``record`` with the state before it and its search values (module doc); ``RecordError`` on
    missing or inconsistent values, raised before or at the step concerned."""
    decisions = searched_values(record, game.num_players)
    state = game.opening_state(record)
    actions = record["actions"]
    if decisions and max(decisions) >= len(actions):
        raise RecordError(f"searched decision at step {max(decisions)}, but the record has {len(actions)} actions")
    for index, (seat, value) in enumerate(actions):
        action = state.action_from_json(value)
        values = None
        if index in decisions:
            values = _checked_values(state, action, decisions[index], index)
        yield Step(state, seat, action, values)
        state.apply(action, seat=seat)


def searched_values(record: dict[str, Any], seats: int) -> dict[int, list[Any]]:
    """``{step: [[action JSON, value], ...]}`` of the record's searched decisions, their shape checked (not their
    legality: ``searched_steps`` replays the game for that); ``RecordError`` on missing or malformed values."""
    searched = record.get(KEY)
    if searched is None:
        raise RecordError(f"no search values (a record of search games keeps them under {KEY!r})")
    agents = searched.get("agents") if isinstance(searched, dict) else None
    entries = searched.get("decisions") if isinstance(searched, dict) else None
    if not isinstance(agents, list) or len(agents) != seats or not all(isinstance(a, str) for a in agents):
        raise RecordError(f"{KEY}.agents must name the agent of each of the {seats} seats, got {quote(agents)}")
    if not isinstance(entries, list):
        raise RecordError(f"{KEY}.decisions must be a list, got {quote(entries)}")
    decisions: dict[int, list[Any]] = {}
    for entry in entries:
        step = entry.get("step") if isinstance(entry, dict) else None
        values = entry.get("values") if isinstance(entry, dict) else None
        if not isinstance(step, int) or isinstance(step, bool) or step < 0 or step in decisions:
            raise RecordError(f"searched decision {quote(entry)}: step must be a new action index")
        if not isinstance(values, list) or not values or not all(
                isinstance(pair, list) and len(pair) == 2 and isinstance(pair[1], int | float)
                and not isinstance(pair[1], bool) and math.isfinite(pair[1]) for pair in values):
            raise RecordError(f"searched decision at step {step}: values must be [action, number] pairs, "
                              f"got {quote(values)}")
        decisions[step] = values
    return decisions


def _checked_values(state: State, action: Action, values: list[Any],
                    step: int) -> tuple[tuple[Action, float], ...]:
    """The values of the decision at ``step`` as actions, checked against the legal moves there."""
    legal = state.legal_actions()
    checked = []
    for value, score in values:
        try:
            candidate = state.action_from_json(value)
        except (PaijuError, TypeError, ValueError) as error:
            raise RecordError(f"searched decision at step {step}: candidate {quote(value)} is not legal there: "
                              f"{error}") from None
        if candidate not in legal:
            raise RecordError(f"searched decision at step {step}: candidate {quote(value)} is not legal there")
        checked.append((candidate, float(score)))
    if len({candidate for candidate, _ in checked}) != len(checked):
        raise RecordError(f"searched decision at step {step}: a candidate is listed twice")
    if checked[0][0] != action:
        raise RecordError(f"searched decision at step {step}: the move played is not the first candidate")
    return tuple(checked)
