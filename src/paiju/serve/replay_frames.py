"""Replay frames of a finished game, for the browser's viewer (``GET /api/records/{id}/frames``).

Frame 0 is the deal; frame ``i`` is the position after action ``i - 1``, with that action's seat and JSON
form, and ``to_act`` the seat to act next (``None`` once the game is over). Each frame's ``view`` is the whole
table, every hand face up (the game is over): ``{"hands": [...] per seat}`` plus the keys of seat 0's
observation JSON other than ``hand``, so that the browser draws replays with the same code as live tables.

A long GuanDan game has thousands of frames (megabytes of JSON, a large fraction of a second of CPU):
``FrameCache`` makes each record's frames once, one record at a time, in a worker thread, and keeps the
JSON text of the most recent ones, so that requests for replays never stall the tables' event loop.

``LiveFrames`` makes the same frames for a table still playing (``GET /api/tables/{id}/frames``; only tables of
bots alone, ``Table.live_frames``): it keeps its own clone of the opening position and, when asked, replays on
it the moves made since it was last asked, in a worker thread; a table nobody watches pays nothing but its
list of moves, and each poll costs only the moves made since.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import JSON, Action, Game, State
from paiju.core.registry import load_game
from paiju.serve.store import GameStore

CACHED_BYTES = 64 << 20
"""Frames JSON kept in memory, over all cached records."""


def table_view(state: State) -> dict[str, JSON]:
    """Every hand (from the perfect view) and the public table as seat 0's observation shows it."""
    public = {key: value for key, value in state.observation(0).to_json().items() if key != "hand"}
    return {"hands": state.perfect_view()["hands"], **public}


def replay_frames(record: dict[str, Any]) -> list[dict[str, JSON]]:
    """``[{"step", "seat", "action", "phase", "to_act", "view"}, ...]``, one frame per position of the game in
    ``record``.

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
    return {"step": step, "seat": seat, "action": action, "phase": state.phase, "to_act": state.current_player,
            "view": table_view(state)}


class FrameCache:
    """``GET /api/records/{id}/frames`` bodies: made in a worker thread, one record at a time, and kept
    (least recently used first out) up to ``limit`` bytes of JSON."""

    def __init__(self, store: GameStore, limit: int = CACHED_BYTES) -> None:
        self.store = store
        self.limit = limit
        self._bodies: OrderedDict[str, bytes] = OrderedDict()
        self._making = asyncio.Lock()

    async def frames_json(self, record_id: str) -> bytes:
        """``{"game", "seats", "frames"}`` of finished game ``record_id`` as JSON; ``RecordNotFound`` when the
        store has no such game."""
        body = self._cached(record_id)
        if body is None:
            async with self._making:
                body = self._cached(record_id)
                if body is None:
                    body = await asyncio.to_thread(self._make, record_id)
                    self._keep(record_id, body)
        return body

    def _make(self, record_id: str) -> bytes:
        summary = self.store.get_summary(record_id)
        frames = replay_frames(self.store.get_record(record_id))
        return json.dumps({"game": summary["game"], "seats": summary["seats"], "frames": frames},
                          separators=(",", ":")).encode()

    def _cached(self, record_id: str) -> bytes | None:
        body = self._bodies.get(record_id)
        if body is not None:
            self._bodies.move_to_end(record_id)
        return body

    def _keep(self, record_id: str, body: bytes) -> None:
        self._bodies[record_id] = body
        total = sum(map(len, self._bodies.values()))
        while total > self.limit and len(self._bodies) > 1:
            _, dropped = self._bodies.popitem(last=False)
            total -= len(dropped)


class LiveFrames:
    """The frames of a game in progress, made lazily from its moves on a clone of its opening position.

    ``update`` runs on the event loop (it reads the table's list of moves there) and replays the new moves in a
    worker thread, one update at a time; the frames are kept as compact JSON, one ``bytes`` per frame.
    """

    def __init__(self, game: Game, opening: State) -> None:
        self.game = game
        self._state = opening.clone()
        """Touched only by ``_extend``, under ``_making``."""
        self._encoded: list[bytes] = [_encode(_frame(0, None, None, self._state))]
        self._making = asyncio.Lock()

    @property
    def count(self) -> int:
        """Frames made so far: one more than the moves replayed."""
        return len(self._encoded)

    async def update(self, moves: Sequence[tuple[int, Action]]) -> int:
        """Replay the moves of ``moves`` (every ``(seat, action)`` of the game so far, in order) not replayed
        yet; the number of frames then."""
        async with self._making:
            new = list(moves[self.count - 1:])  # sliced on the loop: the table appends to ``moves`` there
            if new:
                self._encoded += await asyncio.to_thread(self._extend, new)
        return self.count

    def frames_json(self, since: int) -> bytes:
        """Frames ``since`` .. the latest as a JSON array."""
        return b"[" + b",".join(self._encoded[since:]) + b"]"

    def _extend(self, moves: list[tuple[int, Action]]) -> list[bytes]:
        made = []
        for seat, action in moves:
            self._state.apply(action, seat=seat)
            made.append(_encode(_frame(self.count + len(made), seat, self.game.action_to_json(action), self._state)))
        return made


def _encode(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()
