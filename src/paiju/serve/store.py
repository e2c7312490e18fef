"""Finished games on disk: one SQLite file (standard library ``sqlite3``), one row per game.

Schema (created when missing)::

    finished_games(number INTEGER PRIMARY KEY AUTOINCREMENT, record_id TEXT UNIQUE, game TEXT,
                   seats TEXT  -- JSON list of seat names, record TEXT  -- paiju JSON record,
                   result TEXT  -- JSON result, finished TEXT  -- ISO 8601 UTC time,
                   ladder TEXT  -- the ladder's ruleset name for a ladder game, else NULL,
                   ruleset TEXT  -- the rule variant's name (``paiju.serve.variants``: laizi), NULL for the
                                    game's classic rules)

A file written before the ``ladder`` or ``ruleset`` column existed gets it on opening (``ALTER TABLE``; its
games are not ladder games, and were played under the classic rules).

A game is written in one transaction, so after a crash it is either fully stored or absent; games still
in progress live only in memory. Retention: with ``keep`` > 0 the store holds at most the ``keep`` most
recent games — the same transaction that adds a game deletes the oldest beyond that (``paiju serve
--keep-games``); 0 keeps every game. Every call opens its own connection, so a store is safe to share
between threads (the event loop, bot worker threads, the platform endpoint).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from paiju.core.errors import PaijuError

SCHEMA = """
CREATE TABLE IF NOT EXISTS finished_games (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    record_id TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    seats TEXT NOT NULL,
    record TEXT NOT NULL,
    result TEXT NOT NULL,
    finished TEXT NOT NULL,
    ladder TEXT,
    ruleset TEXT
)
"""
BUSY_TIMEOUT = 30.0
"""Seconds a call waits for another connection's write to finish."""


class RecordNotFound(PaijuError, KeyError):
    """No finished game has the requested record id."""

    def __str__(self) -> str:  # KeyError would print the message quoted, like a key
        return str(self.args[0])


class GameStore:
    """The finished games kept in the SQLite file at ``path``."""

    def __init__(self, path: str | Path, keep: int = 0) -> None:
        if keep < 0:
            raise ValueError(f"keep must be zero (keep every game) or more, got {keep}")
        self.path = Path(path)
        self.keep = keep
        try:
            with self._connection() as connection:
                connection.execute(SCHEMA)
                columns = {row[1] for row in connection.execute("PRAGMA table_info(finished_games)")}
                for column in ("ladder", "ruleset"):
                    if column not in columns:
                        connection.execute(f"ALTER TABLE finished_games ADD COLUMN {column} TEXT")
        except sqlite3.Error as error:
            raise PaijuError(f"cannot open the game store {self.path}: {error}") from None

    def add_finished(self, game: str, seats: list[str], record: dict[str, Any], result: dict[str, Any],
                     ladder: str | None = None, ruleset: str | None = None) -> str:
        """Store a finished game and return its new record id (``r-`` and 16 hex digits); ``ladder``: the
        ruleset name of a ladder game (``paiju.serve.ladder``); ``ruleset``: the rule variant's name
        (``paiju.serve.variants.ruleset_name``; ``None`` for the classic rules).

        Raises ``ValueError`` (storing nothing) when ``record`` or ``result`` cannot be written as JSON.
        """
        try:
            row = (game, json.dumps(seats), json.dumps(record, allow_nan=False),
                   json.dumps(result, allow_nan=False))
        except (TypeError, ValueError) as error:
            raise ValueError(f"a finished {game} game cannot be stored as JSON: {error}") from None
        record_id = f"r-{secrets.token_hex(8)}"
        finished = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connection() as connection:
            connection.execute(
                "INSERT INTO finished_games (record_id, game, seats, record, result, finished, ladder, ruleset) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (record_id, *row, finished, ladder, ruleset))
            if self.keep:
                connection.execute("DELETE FROM finished_games WHERE number <= "
                                   "(SELECT number FROM finished_games ORDER BY number DESC LIMIT 1 OFFSET ?)",
                                   (self.keep,))
        return record_id

    def list_finished(self, limit: int = 50) -> list[dict[str, Any]]:
        """The ``limit`` most recent finished games, newest first, without their records:
        ``{"record_id", "game", "ruleset", "seats", "result", "finished"}`` (``ruleset``: ``None`` for the classic
        rules)."""
        if limit < 0:
            raise ValueError(f"limit must be zero or more, got {limit}")
        with self._connection() as connection:
            rows = connection.execute(
                "SELECT record_id, game, seats, result, finished, ruleset FROM finished_games "
                "ORDER BY number DESC LIMIT ?", (limit,)).fetchall()
        return [_summary(row) for row in rows]

    def get_summary(self, record_id: str) -> dict[str, Any]:
        """What ``list_finished`` says of ``record_id``; ``RecordNotFound`` when there is no such game."""
        with self._connection() as connection:
            row = connection.execute("SELECT record_id, game, seats, result, finished, ruleset FROM finished_games "
                                     "WHERE record_id = ?", (record_id,)).fetchone()
        if row is None:
            raise RecordNotFound(f"no finished game has record id {record_id!r}")
        return _summary(row)

    def get_record(self, record_id: str) -> dict[str, Any]:
        """The paiju JSON record stored as ``record_id``; ``RecordNotFound`` when there is none."""
        with self._connection() as connection:
            row = connection.execute("SELECT record FROM finished_games WHERE record_id = ?",
                                     (record_id,)).fetchone()
        if row is None:
            raise RecordNotFound(f"no finished game has record id {record_id!r}")
        return json.loads(row[0])

    def finished_since(self, number: int, ladder_only: bool = False) -> list[tuple[int, dict[str, Any]]]:
        """``(number, summary)`` of every finished game stored after game ``number`` (0: all), oldest first;
        ``number`` only grows, so a reader can ask for what is new. With ``ladder_only`` only ladder games, their
        summaries with ``"ladder"``: the ruleset name."""
        where = " AND ladder IS NOT NULL" if ladder_only else ""
        with self._connection() as connection:
            rows = connection.execute("SELECT number, record_id, game, seats, result, finished, ruleset, ladder "
                                      f"FROM finished_games WHERE number > ?{where} ORDER BY number",
                                      (number,)).fetchall()
        return [(row[0], _summary(row[1:7]) | ({"ladder": row[7]} if ladder_only else {})) for row in rows]

    def finished_records(self, game: str | None = None, since: str | None = None, until: str | None = None
                         ) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
        """``(summary, record)`` of every finished game, oldest first: only ``game``'s when given, and only those
        finished at or after ``since`` and before ``until`` (ISO 8601 dates or times, compared as UTC text)."""
        clauses, values = [], []
        for clause, value in (("game = ?", game), ("finished >= ?", since), ("finished < ?", until)):
            if value is not None:
                clauses.append(clause)
                values.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._connection() as connection:
            rows = connection.execute("SELECT record_id, game, seats, result, finished, ruleset, record "
                                      f"FROM finished_games{where} ORDER BY number", values).fetchall()
        for *summary, record in rows:
            yield _summary(tuple(summary)), json.loads(record)  # type: ignore[arg-type]

    def ladder_games_of(self, name: str) -> list[dict[str, Any]]:
        """The summaries of the ladder games in which ``name`` held a seat, oldest first."""
        with self._connection() as connection:
            rows = connection.execute("SELECT record_id, game, seats, result, finished, ruleset FROM finished_games "
                                      "WHERE ladder IS NOT NULL AND instr(seats, ?) > 0 ORDER BY number",
                                      (json.dumps(name),)).fetchall()
        return [summary for summary in map(_summary, rows) if name in summary["seats"]]

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        """A fresh connection whose statements form one transaction, committed on success, closed after."""
        with closing(sqlite3.connect(self.path, timeout=BUSY_TIMEOUT)) as connection, connection:
            yield connection


def _summary(row: tuple[str, str, str, str, str, str | None]) -> dict[str, Any]:
    """A ``(record_id, game, seats, result, finished, ruleset)`` row as ``list_finished`` gives it."""
    record_id, game, seats, result, finished, ruleset = row
    return {"record_id": record_id, "game": game, "ruleset": ruleset, "seats": json.loads(seats),
            "result": json.loads(result), "finished": finished}
