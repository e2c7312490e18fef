"""paiju's JSON game records on disk: any game's ``State.to_record()``, saved and loaded.

A record file is one JSON object with a ``"game"`` name; every list in it (deals, actions) is written
one entry per line so that a record reads and diffs well. Saving is atomic: the record goes to a
temporary file in the same folder, which then replaces the target in one step (``os.replace``), so a
reader never sees half a record.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import State
from paiju.core.registry import load_game


def save_record(path: str | Path, record: State | dict[str, Any]) -> None:
    """Write ``record`` (a state's ``to_record()``, or that dict itself) to ``path`` atomically.

    Raises ``RecordError`` naming the file when the record is not a JSON object with a ``"game"``, holds
    values JSON cannot write, or the file cannot be written; an existing file is then left untouched.
    """
    if isinstance(record, State):
        record = record.to_record()
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise RecordError(f"{path}: a record is a JSON object with a \"game\" name, got {record!r:.80}")
    try:
        text = _format_record(record)
    except (TypeError, ValueError) as error:
        raise RecordError(f"{path}: the record cannot be written as JSON: {error}") from None
    temporary: Path | None = None
    try:
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=Path(path).parent, prefix=f".{Path(path).name}.",
                                         suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise RecordError(f"{path}: cannot write the record: {error}") from None


def _format_record(record: dict[str, Any]) -> str:
    """JSON text of a record: one key per line, and one line per entry of each non-empty list."""
    lines = []
    for key, value in record.items():
        if isinstance(value, list) and value:
            entries = ",\n    ".join(_json(entry) for entry in value)
            lines.append(f"  {_json(key)}: [\n    {entries}\n  ]")
        else:
            lines.append(f"  {_json(key)}: {_json(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def load_record(path: str | Path) -> dict[str, Any]:
    """The record saved at ``path``: a JSON object with a ``"game"`` name (not yet replayed).

    Raises ``RecordError`` naming the file when it is missing or unreadable, not JSON, or not a record.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: cannot read the record: {error}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not JSON: {error}") from None
    if not isinstance(record, dict):
        raise RecordError(f"{path}: a record is a JSON object, got a JSON {type(record).__name__}")
    if not isinstance(record.get("game"), str):
        raise RecordError(f"{path}: the record names no game (expected a \"game\" string field)")
    return record


def load_game_from_record(path: str | Path) -> State:
    """Replay the record at ``path`` with its game's ``from_record`` and return the resulting state.

    Raises ``RecordError`` naming the file when the record cannot be loaded, names an unknown game, or
    does not replay legally.
    """
    record = load_record(path)
    try:
        game = load_game(record["game"])
    except PaijuError as error:
        raise RecordError(f"{path}: {error}") from None
    try:
        return game.from_record(record)
    except (PaijuError, KeyError, TypeError, ValueError) as error:
        raise RecordError(f"{path}: the record does not replay: {error}") from None


def replay_actions(state: State, actions: Any) -> State:
    """Apply a record's ``[[seat, action JSON], ...]`` to ``state`` (the game's start); ``RecordError`` names the
    first entry that does not replay."""
    if not isinstance(actions, list):
        raise RecordError(f"a record's actions are a list of [seat, action], got {actions!r:.80}")
    for index, entry in enumerate(actions):
        try:
            seat, value = entry
            state.apply(state.action_from_json(value), seat=seat)
        except (ValueError, TypeError, PaijuError) as error:
            raise RecordError(f"action {index} ({entry!r}) does not replay: {error}") from None
    return state


def check_result(state: State, record: dict[str, Any]) -> None:
    """``RecordError`` unless the record's ``result`` (if any) has the payoffs the replay reached."""
    expected = record.get("result")
    if expected is None:
        return
    if not isinstance(expected, dict):
        raise RecordError(f"a record's result is a JSON object, got {expected!r:.80}")
    if not state.is_terminal() or state.payoffs() != expected.get("payoffs"):
        got = state.payoffs() if state.is_terminal() else "an unfinished game"
        raise RecordError(f"record result {expected.get('payoffs')} disagrees with the replay ({got})")
