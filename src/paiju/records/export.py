"""``paiju records export``: the arena's finished games as paiju JSON record files.

Each finished game of the arena's SQLite store (``paiju.serve.store``) becomes ``OUT/<game>-<finished>-<record
id>.json`` (``paiju.core.record.save_record``: atomic, one entry per line), which ``paiju replay``, ``paiju
records stats`` and ``paiju train sl`` read. Filters: the game, and the finishing time (``since`` inclusive,
``until`` exclusive; ISO 8601 dates or times in UTC, as the store writes them).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from paiju.core.errors import PaijuError
from paiju.core.record import save_record
from paiju.core.registry import load_game


def _moment(text: str | None, option: str) -> str | None:
    """``text`` checked as an ISO 8601 date or time and written as the store writes times."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise PaijuError(f"--{option} must be an ISO 8601 date or time (e.g. 2026-11-25 or 2026-11-25T18:00), "
                         f"got {text!r}") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds")


def export_records(db: Path, out: Path, game: str | None = None, since: str | None = None,
                   until: str | None = None) -> list[Path]:
    """Write the finished games of the store ``db`` that pass the filters into ``out``; returns the files."""
    from paiju.serve.store import GameStore

    if not Path(db).is_file():
        raise PaijuError(f"{db}: no such arena database (paiju serve --db FILE writes one)")
    if game is not None:
        load_game(game)
    start, end = _moment(since, "since"), _moment(until, "until")
    out.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        for summary, record in GameStore(db).finished_records(game, start, end):
            stamp = summary["finished"].replace(":", "").replace("+0000", "Z")
            path = out / f"{summary['game']}-{stamp}-{summary['record_id']}.json"
            save_record(path, record)
            written.append(path)
    except sqlite3.Error as error:
        raise PaijuError(f"{db}: cannot read the arena database: {error}") from None
    return written
