"""A table's seats: who plays each one, the secret token that opens it, and its live websocket.

A ``human`` seat's token is given to the table's creator; an ``open`` seat gets one when someone (a person
or a network bot) reserves it; a ``bot`` seat is played by a built-in agent and has none. Tokens come from
``secrets.token_urlsafe`` and are compared in constant time; each remembers the client address it was
handed to and when, so that the lobby can limit reservations per client and expire unused ones.

A seat's websocket writes from a bounded outbox: a client that lets more than ``max_queued`` messages pile
up unread, or does not take one message within ``send_timeout`` seconds, is disconnected (close code 1008),
so a client that never reads costs the server a bounded amount of memory and never holds up its table. The
client's own messages are read only while the outbox is less than half full (``room``): a client that sends
many messages at once is answered at the pace it reads, and is never dropped for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from starlette.status import WS_1008_POLICY_VIOLATION
from starlette.websockets import WebSocket, WebSocketDisconnect

from paiju.serve.protocol import Message, encode

TOKEN_BYTES = 24
CLOSE_REASON_BYTES = 123
"""The longest close reason a websocket close frame carries (RFC 6455 §5.5)."""
CLOSE_LIMIT = 5.0
"""Seconds a closing handshake may take before the connection is dropped."""

log = logging.getLogger(__name__)


class SeatKind(StrEnum):
    HUMAN = "human"
    """A person at a browser; the token goes to the table's creator."""
    OPEN = "open"
    """Reserved later by anyone, a network bot or a person."""
    BOT = "bot"
    """A built-in agent, played by the server."""
    LADDER = "ladder"
    """A ladder bot, seated by the match queue (``paiju.serve.ladder``); the token goes to the bot."""


def close_reason(reason: str) -> str:
    """``reason`` cut to what a websocket close frame carries (``CLOSE_REASON_BYTES`` of UTF-8)."""
    return reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Seat:
    """One seat of a table."""

    number: int
    kind: SeatKind
    agent: str | None = None
    """The built-in agent's name (bot seats only)."""
    player: str | None = None
    """The ladder bot's name (ladder seats only)."""
    token: str | None = None
    """The secret that opens the seat (None: a bot, or an open seat nobody reserved yet)."""
    holder: str | None = None
    """The address of the client the token was handed to."""
    token_issued: float = 0.0
    """``time.monotonic()`` when the token was handed out."""
    connection: SeatConnection | None = None
    """The websocket now attached, if any."""
    joined: bool = False
    """Whether the token holder has connected at least once (a bot is always ready)."""

    @property
    def name(self) -> str:
        """The seat's player as stored with a finished game: the agent's or ladder bot's name, or ``human`` /
        ``open``."""
        return self.agent or self.player or self.kind.value

    @property
    def ready(self) -> bool:
        """Whether the table may start as far as this seat goes: a bot, a ladder seat (its moves time out while
        its bot is away), or a seat whose token holder has connected."""
        return self.kind in (SeatKind.BOT, SeatKind.LADDER) or self.joined

    def hand_out(self, token: str | None, holder: str | None) -> None:
        """Give the seat ``token``, handed to client ``holder`` now (``None, None``: take it back)."""
        self.token, self.holder, self.token_issued = token, holder, time.monotonic()

    def opens_with(self, token: str) -> bool:
        """Whether ``token`` is this seat's token."""
        return self.token is not None and secrets.compare_digest(self.token.encode(), token.encode())

    def public_json(self) -> Message:
        """``{"seat", "kind", "agent"?, "player"?}``, as every seat's client may see it."""
        described: Message = {"seat": self.number, "kind": self.kind.value}
        if self.agent is not None:
            described["agent"] = self.agent
        if self.player is not None:
            described["player"] = self.player
        return described

    def lobby_json(self) -> Message:
        """The public description plus ``connected`` (a bot always is; ``reserved`` too for an open seat)."""
        described = self.public_json() | {"connected": self.kind is SeatKind.BOT or self.connection is not None}
        if self.kind is SeatKind.OPEN:
            described["reserved"] = self.token is not None
        return described


@dataclass(frozen=True, slots=True)
class _Close:
    code: int
    reason: str


@dataclass
class SeatConnection:
    """A websocket attached to a seat. Messages wait in an outbox that a task of its own writes out, so a
    client that reads slowly never holds up its table; one that stops reading is disconnected (see the
    module)."""

    websocket: WebSocket
    max_queued: int = 256
    send_timeout: float = 10.0
    outbox: asyncio.Queue[str | _Close] = field(default_factory=asyncio.Queue)
    closing: bool = False

    def __post_init__(self) -> None:
        self._room = asyncio.Event()
        self._room.set()
        self.writer = asyncio.create_task(self._write())

    def send(self, message: Message) -> None:
        """Queue ``message`` (dropped once the connection is closing); a full outbox disconnects the client. It waits
        as its text (``protocol.encode``), made at once: text holds nothing for the garbage collector to scan, whereas
        messages waiting as objects outlive young collections and make full ones frequent."""
        if self.closing:
            return
        if self.outbox.qsize() >= self.max_queued:
            log.info("seat connection dropped: %d messages unread", self.outbox.qsize())
            self._drop(f"more than {self.max_queued} messages went unread")
            return
        self.outbox.put_nowait(encode(message))
        if self.outbox.qsize() >= self.max_queued // 2:
            self._room.clear()

    async def serve(self, reading: Coroutine[Any, Any, None]) -> None:
        """Run ``reading`` (the loop over the client's messages) until it ends or this connection stops writing,
        then cancel it."""
        reader = asyncio.create_task(reading)
        try:
            await asyncio.wait({reader, self.writer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def room(self) -> None:
        """Return once the outbox is less than half full, or the connection is closing."""
        await self._room.wait()

    def close(self, code: int, reason: str) -> None:
        """Close the websocket with ``code`` and ``reason`` once the queued messages are written."""
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(_Close(code, close_reason(reason)))

    async def stop(self) -> None:
        """Stop writing (the client is gone)."""
        self.closing = True
        self._room.set()
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer

    def _drop(self, reason: str) -> None:
        """Disconnect a client that does not read: forget what it has not read, then close."""
        self.closing = True
        self._room.set()
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.outbox.put_nowait(_Close(WS_1008_POLICY_VIOLATION, close_reason(reason)))

    async def _write(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if self.outbox.qsize() < self.max_queued // 2:
                    self._room.set()
                if isinstance(item, _Close):
                    await asyncio.wait_for(self.websocket.close(item.code, item.reason), CLOSE_LIMIT)
                    return
                async with asyncio.timeout(self.send_timeout):
                    await self.websocket.send_text(item)
        except TimeoutError:
            log.info("seat connection dropped: the client took no message for %g s", self.send_timeout)
        except (OSError, RuntimeError, WebSocketDisconnect) as error:  # the client went away mid-write
            log.debug("seat connection closed while writing: %s", error)
        finally:
            self.closing = True
            self._room.set()
