"""A table's seats: who plays each one, the secret token that opens it, and its live websocket.

A ``human`` seat's token is given to the table's creator; an ``open`` seat gets one when someone (a person
or a network bot) reserves it; a ``bot`` seat is played by a built-in agent and has none. Tokens come from
``secrets.token_urlsafe`` and are compared in constant time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from enum import StrEnum

from starlette.websockets import WebSocket, WebSocketDisconnect

from paiju.serve.protocol import Message

TOKEN_BYTES = 24
CLOSE_REASON_BYTES = 123
"""The longest close reason a websocket close frame carries (RFC 6455 §5.5)."""

log = logging.getLogger(__name__)


class SeatKind(StrEnum):
    HUMAN = "human"
    """A person at a browser; the token goes to the table's creator."""
    OPEN = "open"
    """Reserved later by anyone, a network bot or a person."""
    BOT = "bot"
    """A built-in agent, played by the server."""


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
    token: str | None = None
    """The secret that opens the seat (None: a bot, or an open seat nobody reserved yet)."""
    connection: SeatConnection | None = None
    """The websocket now attached, if any."""
    joined: bool = False
    """Whether the token holder has connected at least once (a bot is always ready)."""

    @property
    def name(self) -> str:
        """The seat's player as stored with a finished game: the agent's name, or ``human`` / ``open``."""
        return self.agent or self.kind.value

    @property
    def ready(self) -> bool:
        return self.kind is SeatKind.BOT or self.joined

    def opens_with(self, token: str) -> bool:
        """Whether ``token`` is this seat's token."""
        return self.token is not None and secrets.compare_digest(self.token.encode(), token.encode())

    def public_json(self) -> Message:
        """``{"seat", "kind", "agent"?}``, as every seat's client may see it."""
        described: Message = {"seat": self.number, "kind": self.kind.value}
        if self.agent is not None:
            described["agent"] = self.agent
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
    client that reads slowly (or not at all) never holds up its table."""

    websocket: WebSocket
    outbox: asyncio.Queue[Message | _Close] = field(default_factory=asyncio.Queue)
    closing: bool = False

    def __post_init__(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, message: Message) -> None:
        """Queue ``message`` (dropped once the connection is closing)."""
        if not self.closing:
            self.outbox.put_nowait(message)

    def close(self, code: int, reason: str) -> None:
        """Close the websocket with ``code`` and ``reason`` once the queued messages are written."""
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(_Close(code, close_reason(reason)))

    async def stop(self) -> None:
        """Stop writing (the client is gone)."""
        self.closing = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.writer

    async def _write(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if isinstance(item, _Close):
                    await self.websocket.close(item.code, item.reason)
                    return
                await self.websocket.send_text(json.dumps(item, separators=(",", ":")))
        except (OSError, RuntimeError, WebSocketDisconnect) as error:  # the client went away mid-write
            log.debug("seat connection closed while writing: %s", error)
            self.closing = True
