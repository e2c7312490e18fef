"""Ladder bot accounts: a name, the game it plays, its owner's contact and a secret key, in the arena's SQLite file.

Schema (created when missing)::

    ladder_bots(name TEXT PRIMARY KEY COLLATE NOCASE, game TEXT, owner TEXT, key_hash TEXT UNIQUE,
                created TEXT  -- ISO 8601 UTC, status TEXT  -- active | paused | banned,
                reason TEXT  -- why paused or banned, paused_until REAL  -- Unix time, NULL: until an admin acts,
                strikes INTEGER  -- ladder games in a row in which the bot misbehaved)

- **Keys**: ``pk-`` and 43 URL-safe characters (256 random bits from ``secrets``), returned once, by the call that
  makes them (registration, rotation). The database keeps SHA-256 of the key: a key has too much entropy to be
  guessed from its hash, so a slow password hash would add nothing. A key opens its bot alone; a wrong key is
  refused as "unknown or revoked" whether or not the bot exists, and rotating a key revokes the old one.
- **Names**: 3-32 characters, a letter then letters, digits, ``-`` or ``_``, unique regardless of case, and no
  impersonation: a name that, lower-cased without ``-`` and ``_`` and trailing digits, is a built-in agent's name
  (``rules``, ``MrGreed``, ``search_2``) or a word the arena uses for its own seats (``human``, ``open``,
  ``house``...), or that begins with ``house``, ``paiju``, ``admin`` or ``official``, is refused.
- **Status**: ``active``, ``paused`` (by an admin until resumed, or by the ladder for ``pause_seconds`` after
  ``strike_limit`` misbehaving games in a row: ``strike``) or ``banned`` (by an admin). A paused or banned bot
  cannot queue and is told why.
- **Limits**: one client address registers at most ``registrations_per_hour`` bots an hour (every attempt counts,
  so that names cannot be probed in bulk).

Every change is one transaction; a refused call changes nothing.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

from paiju.core.errors import PaijuError
from paiju.core.registry import game_names

SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_bots (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    game TEXT NOT NULL,
    owner TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    paused_until REAL,
    strikes INTEGER NOT NULL DEFAULT 0
)
"""
KEY_PREFIX = "pk-"
KEY_BYTES = 32
NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,31}")
OWNER_CHARS = 120
RESERVED_WORDS = frozenset({"human", "open", "bot", "house", "ladder", "platform", "admin", "paiju", "server",
                            "anonymous", "system"})
RESERVED_PREFIXES = ("house", "paiju", "admin", "official")
REGISTRATION_WINDOW = 3600.0
BUSY_TIMEOUT = 30.0


class BotStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    BANNED = "banned"


class AccountError(PaijuError):
    """A refused account request (a malformed name or contact, an unknown game); nothing changed."""


class NameTaken(AccountError):
    """Another bot has the name (compared regardless of case)."""


class UnknownKey(AccountError):
    """No bot has this key (never issued, or rotated away)."""


class UnknownBot(AccountError):
    """No bot has this name."""


class RegistrationsLimited(AccountError):
    """This client address registered as many bots as it may this hour."""


@dataclass(frozen=True)
class BotAccount:
    """A ladder bot as stored (without its key)."""

    name: str
    game: str
    owner: str
    created: str
    status: BotStatus
    reason: str
    paused_until: float | None
    strikes: int

    def public_json(self) -> dict[str, object]:
        """What anyone may see: everything but the owner's contact and the strike count."""
        return {"name": self.name, "game": self.game, "created": self.created, "status": self.status.value,
                "reason": self.reason, "paused_until": self.paused_until}


def hash_key(key: str) -> str:
    """The stored form of ``key``: SHA-256, hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def normalized(name: str) -> str:
    """``name`` as impersonation is judged: lower case, without ``-`` and ``_``, without trailing digits."""
    return re.sub(r"\d+$", "", name.lower().replace("-", "").replace("_", ""))


def check_name(name: str, house: set[str]) -> None:
    """``AccountError`` naming the rule ``name`` breaks (see the module); ``house``: the built-in agents' names."""
    if not NAME_PATTERN.fullmatch(name):
        raise AccountError(f"bot name {name[:40]!r} is malformed: 3-32 characters, a letter, then letters, digits, "
                           "'-' or '_'")
    plain = normalized(name)
    if plain in RESERVED_WORDS or plain in {normalized(agent) for agent in house} or \
            plain.startswith(RESERVED_PREFIXES):
        raise AccountError(f"bot name {name!r} is reserved: it names, or could be taken for, one of the arena's own "
                           "bots or seats")


def check_owner(owner: str) -> None:
    """``AccountError`` unless ``owner`` (a contact: an e-mail address, a URL) is 3-120 printable characters."""
    if not 3 <= len(owner) <= OWNER_CHARS or not owner.isprintable():
        raise AccountError(f"owner contact must be 3-{OWNER_CHARS} printable characters (an e-mail address or a URL)")


class BotAccounts:
    """The ladder's bot accounts in the SQLite file at ``path`` (see the module)."""

    def __init__(self, path: str | Path, house: set[str], registrations_per_hour: int = 10,
                 strike_limit: int = 3, pause_seconds: float = 900.0) -> None:
        self.path = Path(path)
        self.house = house
        self.registrations_per_hour = registrations_per_hour
        self.strike_limit = strike_limit
        self.pause_seconds = pause_seconds
        self._registrations: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        try:
            with self._connection() as connection:
                connection.execute(SCHEMA)
        except sqlite3.Error as error:
            raise PaijuError(f"cannot open the bot accounts in {self.path}: {error}") from None

    def register(self, name: str, owner: str, game: str, client: str) -> tuple[BotAccount, str]:
        """A new active bot and its key (given this once); ``AccountError`` (and nothing stored) for a bad name,
        contact or game, ``NameTaken``, ``RegistrationsLimited``."""
        self._count_registration(client)
        if game not in game_names():
            raise AccountError(f"unknown game {game[:40]!r}; known: {', '.join(game_names())}")
        check_name(name, self.house)
        check_owner(owner)
        key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
        created = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self._connection() as connection:
                connection.execute("INSERT INTO ladder_bots (name, game, owner, key_hash, created, status) "
                                   "VALUES (?, ?, ?, ?, ?, ?)",
                                   (name, game, owner, hash_key(key), created, BotStatus.ACTIVE.value))
        except sqlite3.IntegrityError:
            raise NameTaken(f"bot name {name!r} is taken") from None
        return self.get(name), key

    def authenticate(self, key: str) -> BotAccount:
        """The bot whose key is ``key``; ``UnknownKey`` otherwise (saying nothing of any bot)."""
        return self._one("key_hash = ?", hash_key(key), UnknownKey("unknown or revoked bot key"))

    def rotate(self, key: str) -> str:
        """Replace ``key`` by a new one (returned once); the old key stops working at once."""
        account = self.authenticate(key)
        new = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
        with self._connection() as connection:
            connection.execute("UPDATE ladder_bots SET key_hash = ? WHERE name = ?", (hash_key(new), account.name))
        return new

    def get(self, name: str) -> BotAccount:
        """The bot named ``name`` (regardless of case); ``UnknownBot`` otherwise."""
        return self._one("name = ?", name, UnknownBot(f"no ladder bot is named {name[:40]!r}"))

    def bots(self, game: str | None = None) -> list[BotAccount]:
        """Every bot (of ``game`` when given), by name."""
        where, values = ("WHERE game = ?", (game,)) if game else ("", ())
        with self._connection() as connection:
            rows = connection.execute(f"SELECT {_COLUMNS} FROM ladder_bots {where} ORDER BY name", values).fetchall()
        return [_account(row) for row in rows]

    def set_status(self, name: str, status: BotStatus, reason: str = "") -> BotAccount:
        """An admin's decision: pause (until resumed), ban, or make active again (strikes forgiven)."""
        account = self.get(name)
        with self._connection() as connection:
            connection.execute("UPDATE ladder_bots SET status = ?, reason = ?, paused_until = NULL, strikes = 0 "
                               "WHERE name = ?", (status.value, reason[:OWNER_CHARS], account.name))
        return self.get(name)

    def standing(self, name: str, now: float | None = None) -> BotAccount:
        """The bot, made active again if its ladder pause has run out."""
        account = self.get(name)
        now = time.time() if now is None else now
        if account.status is BotStatus.PAUSED and account.paused_until is not None and account.paused_until <= now:
            with self._connection() as connection:
                connection.execute("UPDATE ladder_bots SET status = ?, reason = '', paused_until = NULL, strikes = 0 "
                                   "WHERE name = ? AND status = ?",
                                   (BotStatus.ACTIVE.value, account.name, BotStatus.PAUSED.value))
            account = self.get(name)
        return account

    def strike(self, name: str, what: str, now: float | None = None) -> BotAccount:
        """Count a misbehaving ladder game (``what`` says how); the ``strike_limit``-th in a row pauses the bot for
        ``pause_seconds``, with a reason it can read."""
        account = self.get(name)
        strikes = account.strikes + 1
        with self._connection() as connection:
            if strikes >= self.strike_limit and account.status is BotStatus.ACTIVE:
                now = time.time() if now is None else now
                reason = (f"paused for {self.pause_seconds:g} s after {strikes} ladder games in a row with moves "
                          f"played by timeout or refused messages (last: {what})")
                connection.execute("UPDATE ladder_bots SET status = ?, reason = ?, paused_until = ?, strikes = 0 "
                                   "WHERE name = ?",
                                   (BotStatus.PAUSED.value, reason, now + self.pause_seconds, account.name))
            else:
                connection.execute("UPDATE ladder_bots SET strikes = ? WHERE name = ?", (strikes, account.name))
        return self.get(name)

    def clear_strikes(self, name: str) -> None:
        """A ladder game played well: the count of misbehaving games in a row starts again."""
        with self._connection() as connection:
            connection.execute("UPDATE ladder_bots SET strikes = 0 WHERE name = ?", (name,))

    def _count_registration(self, client: str) -> None:
        with self._lock:
            times = self._registrations.setdefault(client, deque())
            now = time.monotonic()
            while times and now - times[0] > REGISTRATION_WINDOW:
                times.popleft()
            if len(times) >= self.registrations_per_hour:
                raise RegistrationsLimited(f"too many registrations: at most {self.registrations_per_hour} an hour "
                                           "per client; try again later")
            times.append(now)

    def _one(self, where: str, value: str, missing: AccountError) -> BotAccount:
        with self._connection() as connection:
            row = connection.execute(f"SELECT {_COLUMNS} FROM ladder_bots WHERE {where}", (value,)).fetchone()
        if row is None:
            raise missing
        return _account(row)

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=BUSY_TIMEOUT)) as connection, connection:
            yield connection


_COLUMNS = "name, game, owner, created, status, reason, paused_until, strikes"


def _account(row: tuple[str, str, str, str, str, str, float | None, int]) -> BotAccount:
    name, game, owner, created, status, reason, paused_until, strikes = row
    return BotAccount(name, game, owner, created, BotStatus(status), reason, paused_until, strikes)
