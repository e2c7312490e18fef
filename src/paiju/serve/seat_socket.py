"""The seat websocket, ``/ws/tables/{table_id}?token=TOKEN``: people and network bots alike.

The connection is accepted, then closed at once with code 1008 (policy violation) and a reason when the
table is unknown or the token opens none of its seats. Otherwise it is attached to the seat (replacing an
older connection with the same token) and every text message goes to the table; a binary message is
refused with ``error``. The handler ends when the client leaves or when its connection stops writing (a
client that does not read is dropped: ``paiju.serve.seats``).
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket
from starlette.status import WS_1008_POLICY_VIOLATION

from paiju.serve import protocol
from paiju.serve.lobby import Lobby, TableNotFound
from paiju.serve.seats import Seat, SeatConnection, close_reason
from paiju.serve.tables import Table


def seat_router(lobby: Lobby) -> APIRouter:
    """The seat websocket route over ``lobby``'s tables."""
    router = APIRouter()

    @router.websocket("/ws/tables/{table_id}")
    async def seat_socket(websocket: WebSocket, table_id: str, token: str = "") -> None:
        await websocket.accept()
        try:
            table = lobby.get(table_id)
        except TableNotFound as error:
            await websocket.close(WS_1008_POLICY_VIOLATION, close_reason(str(error)))
            return
        seat = table.seat_opened_by(token)
        if seat is None:
            reason = "a seat token is required (?token=...)" if not token else "this token opens no seat here"
            await websocket.close(WS_1008_POLICY_VIOLATION, reason)
            return
        settings = lobby.settings
        connection = SeatConnection(websocket, settings.max_queued_messages, settings.send_timeout)
        table.attach(seat, connection)
        try:
            await connection.serve(_read(websocket, table, seat, connection))
        finally:
            table.detach(seat, connection)
            await connection.stop()

    return router


async def _read(websocket: WebSocket, table: Table, seat: Seat, connection: SeatConnection) -> None:
    """Hand every text message to the table until the client leaves."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") is not None:
            table.receive(seat, connection, message["text"])
        elif seat.connection is connection:
            connection.send(protocol.error("messages are JSON text; a binary message was sent"))
        await connection.room()
