"""What the arena's transport refuses before any route sees it, and what it keeps out of its logs.

- ``BodyLimit``: an HTTP request body over ``max_bytes`` gets 413 without being read further or echoed —
  at once when ``Content-Length`` says so, else as soon as the streamed body passes the limit.
- ``TokenRedaction``: seat tokens travel in the websocket URL (``?token=...``, as browsers cannot set
  headers on a websocket); uvicorn logs that URL, so the filter rewrites every ``token=`` value in its log
  records to ``token=[redacted]``.
"""

from __future__ import annotations

import json
import logging
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_IN_URL = re.compile(r"(token=|pk-)[A-Za-z0-9_-]+")
"""A seat token in a URL (``?token=...``) or a ladder bot's key (``pk-...``, ``paiju.serve.accounts``)."""
REDACTED = r"\1[redacted]"
UVICORN_LOGGERS = ("uvicorn.access", "uvicorn.error")


class BodyLimit:
    """ASGI middleware refusing HTTP request bodies over ``max_bytes`` with 413: it reads the body first
    (at most ``max_bytes`` of it), then hands the app a ``receive`` that replays it."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"detail": f"the request body is over {self.max_bytes} bytes"}).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


class TokenRedaction(logging.Filter):
    """Rewrites ``token=...`` and ``pk-...`` in a log record's message and arguments to ``token=[redacted]`` and
    ``pk-[redacted]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = TOKEN_IN_URL.sub(REDACTED, record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(TOKEN_IN_URL.sub(REDACTED, arg) if isinstance(arg, str) else arg
                                for arg in record.args)
        return True


def redact_tokens_in_server_logs() -> None:
    """Install ``TokenRedaction`` on uvicorn's loggers (once)."""
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, TokenRedaction) for existing in logger.filters):
            logger.addFilter(TokenRedaction())
