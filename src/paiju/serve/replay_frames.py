"""Replay frames of a finished game, for the browser's viewer (``GET /api/records/{id}/frames``).

Frame 0 is the deal; frame ``i`` is the position after action ``i - 1``, with that action's seat and JSON
form. Each frame's ``view`` is the whole table, every hand face up (the game is over): ``{"hands": [...]
per seat}`` plus the keys of seat 0's observation JSON other than ``hand``, so that the browser draws
replays with the same code as live tables.
"""

from __future__ import annotations

from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import JSON, State
from paiju.core.registry import load_game


def table_view(state: State) -> dict[str, JSON]:
    """Every hand (from the perfect view) and the public table as seat 0's observation shows it."""
    public = {key: value for key, value in state.observation(0).to_json().items() if key != "hand"}
    return {"hands": state.perfect_view()["hands"], **public}


def replay_frames(record: dict[str, Any]) -> list[dict[str, JSON]]:
    """``[{"step", "seat", "action", "phase", "view"}, ...]``, one frame per position of the game in ``record``.

    Raises ``RecordError`` when the record names no known game or does not replay.
    """
    try:
        game = load_game(record["game"])
        game.from_record(record)  # the whole record, result included, is checked before any frame is made
        state = game.opening_state(record)
    except (PaijuError, KeyError, TypeError) as error:
        raise RecordError(f"the record does not replay: {error}") from None
    frames = [_frame(0, None, None, state)]
    for step, (seat, value) in enumerate(record["actions"], start=1):
        action = state.action_from_json(value)
        state.apply(action, seat=seat)
        frames.append(_frame(step, seat, game.action_to_json(action), state))
    return frames


def _frame(step: int, seat: int | None, action: JSON, state: State) -> dict[str, JSON]:
    return {"step": step, "seat": seat, "action": action, "phase": state.phase, "view": table_view(state)}
