"""paiju's JSON game records on disk: any game's ``State.to_record()``, saved and loaded.

A record file is one JSON object with a ``"game"`` name and ``"format": 1`` (``RECORD_FORMAT``); every list
in it (deals, actions) is written one entry per line so that a record reads and diffs well. Saving is
atomic: the record goes to a temporary file in the same folder, which then replaces the target in one step
(``os.replace``), so a reader never sees half a record.

Reading checks what every game's record shares (``check_header``) before a game replays the rest: a record
in another format, or JSON Python cannot read (nested too deeply, a number too long), is a ``RecordError``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import State
from paiju.core.registry import load_game

RECORD_FORMAT = 1
"""The ``"format"`` of paiju's records, as every game's ``State.to_record()`` writes it."""
SEED_LIMIT = 2**128
"""A record's seed is an integer from 0 to ``SEED_LIMIT`` − 1, or null (a game not dealt from a seed); the
arena deals from 128 random bits."""
QUOTE_LIMIT = 80
"""Characters of a record's value quoted in an error message."""
MALFORMED = (PaijuError, KeyError, IndexError, TypeError, ValueError, OverflowError, RecursionError)
"""What a game's code may raise on a malformed record: reading a record turns each into a ``RecordError``."""


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
    """The record saved at ``path``, its header checked (``check_header``) but not yet replayed.

    Raises ``RecordError`` naming the file when it is missing or unreadable, not JSON, or not a paiju record.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such record file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: cannot read the record: {error}") from None
    try:
        return check_header(read_json(text))
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None


def read_json(text: str) -> Any:
    """The JSON value of ``text``; ``RecordError`` for text that is not JSON (``NaN`` included) or that Python
    cannot read (nested too deeply, an integer too long)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("JSON nested too deeply to read") from None
    except RecordError:
        raise
    except ValueError:  # the only other ValueError of json: an integer longer than Python converts
        raise RecordError(f"JSON holding an integer longer than {sys.get_int_max_str_digits()} digits") from None


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a JSON value")


def check_header(record: Any) -> dict[str, Any]:
    """``record`` when it has what every paiju record has; ``RecordError`` naming the first problem otherwise.

    A record is a JSON object with a ``"game"`` name, ``"format": RECORD_FORMAT``, a ``"seed"`` from 0 to
    ``SEED_LIMIT`` − 1 or null, a list of ``"deals"`` and a list of ``"actions"``, each ``[seat, action]``
    with an integer seat. What the deals and actions hold is for the game to check.
    """
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, got a JSON {_json_type(record)}")
    if not isinstance(record.get("game"), str):
        raise RecordError("the record names no game (expected a \"game\" string field)")
    if "format" not in record or type(record["format"]) is not int or record["format"] != RECORD_FORMAT:
        got = quote(record["format"]) if "format" in record else "none"
        raise RecordError(f"not a paiju record: expected \"format\": {RECORD_FORMAT} (paiju's record format), "
                          f"got {got}")
    seed = record.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
        raise RecordError(f"the seed is an integer from 0 to 2**128 - 1 or null, got {quote(seed)}")
    for key in ("deals", "actions"):
        if not isinstance(record.get(key), list):
            raise RecordError(f"\"{key}\" is a list, got {quote(record[key]) if key in record else 'none'}")
    for index, entry in enumerate(record["actions"]):
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int):
            raise RecordError(f"action {index} is [seat, action] with an integer seat, got {quote(entry)}")
    return record


def quote(value: Any) -> str:
    """A record's value for an error message: its JSON, the first ``QUOTE_LIMIT`` characters when longer."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except RecursionError:
        return "a value nested too deeply to show"
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}... ({len(text)} characters)"


def _json_type(value: Any) -> str:
    names = {list: "list", str: "string", bool: "boolean", int: "number", float: "number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


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
    except MALFORMED as error:
        raise RecordError(f"{path}: the record does not replay: {error}") from None


def replay_actions(state: State, actions: Any) -> State:
    """Apply a record's ``[[seat, action JSON], ...]`` to ``state`` (the game's start); ``RecordError`` names the
    first entry that does not replay."""
    if not isinstance(actions, list):
        raise RecordError(f"a record's actions are a list of [seat, action], got {quote(actions)}")
    for index, entry in enumerate(actions):
        try:
            seat, value = entry
            state.apply(state.action_from_json(value), seat=seat)
        except (ValueError, TypeError, PaijuError) as error:
            raise RecordError(f"action {index} ({quote(entry)}) does not replay: {error}") from None
    return state


def check_result(state: State, record: dict[str, Any]) -> None:
    """``RecordError`` unless the record's ``result`` (if any) has the payoffs the replay reached."""
    expected = record.get("result")
    if expected is None:
        return
    if not isinstance(expected, dict):
        raise RecordError(f"a record's result is a JSON object, got {quote(expected)}")
    if not state.is_terminal() or state.payoffs() != expected.get("payoffs"):
        got = state.payoffs() if state.is_terminal() else "an unfinished game"
        raise RecordError(f"record result {expected.get('payoffs')} disagrees with the replay ({got})")
