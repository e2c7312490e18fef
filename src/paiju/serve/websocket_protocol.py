"""uvicorn's websocket protocol, with one change: a connection whose client has stopped reading is aborted once
the server is done with it, rather than left open.

When the application returns (or ``close_timeout`` after it sent a close frame), uvicorn closes the transport, and
asyncio's ``close`` first waits for the write buffer to drain, which never happens while the client reads nothing:
the socket stayed established, holding everything written to it. Here the transport is aborted (its unsent data
dropped) at once when writing is paused as the application returns (the client's window is full: the arena's
writer gave up on it, ``ServeSettings.send_timeout``), and otherwise when data is still unsent ``close_timeout``
plus ``ABORT_MARGIN`` seconds later.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

ABORT_MARGIN = 1.0
"""Seconds after uvicorn's own close timeout before a transport still holding unsent data is aborted."""


class ArenaWebSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` (uvicorn's default with ``websockets`` installed) that aborts stuck
    connections (module doc)."""

    async def run_asgi(self) -> None:
        await super().run_asgi()
        if not self.writable.is_set():
            self.transport.abort()
        else:
            self.loop.call_later(self.close_timeout + ABORT_MARGIN, self._abort_if_stuck)

    def _abort_if_stuck(self) -> None:
        if self.transport.get_write_buffer_size():
            self.transport.abort()
