"""The arena's JSON API under ``/api``: games, tables (create, reserve an open seat, the lobby, watch a table of
bots), records.

Refusals are ``{"detail": "message naming the problem"}`` with status 400 (a request the games refuse:
unknown game, bad rules, wrong seat count, unknown agent, a chosen seed with open seats; a ``since`` past the
frames made), 403 (watching a table with a person or network seat while it plays), 404 (unknown table, seat
or record), 409 (seat taken), 413 (a body over ``max_body_bytes``, refused unread: ``limits``), 422 (a body
or parameter of the wrong shape), 429 (this client's limits: tables in progress, reserved seats, requests a
minute; ``paiju.serve.lobby``) or 503 (the server's table cap). A refusal quotes at most a few dozen
characters of what was sent.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from paiju.core.errors import PaijuError
from paiju.core.registry import game_names, load_game
from paiju.serve.bots import DESCRIPTIONS, adviser, offered_agents, table_bot
from paiju.serve.leaderboard import Leaderboard
from paiju.serve.lobby import ClientLimitReached, Lobby, TableNotFound, TooManyTables
from paiju.serve.replay_frames import FrameCache
from paiju.serve.seats import SeatKind
from paiju.serve.store import GameStore, RecordNotFound
from paiju.serve.tables import HandsHidden, SeatNotFound, SeatUnavailable
from paiju.serve.variants import VARIANTS, variant_json

MAX_RECORDS_LISTED = 500
NAME_CHARS = 64
"""Longest game or seat name accepted in a table request."""


MAX_BOT_DELAY = 10.0
"""Seconds a table's bots may be asked to wait before each move."""


class TableRequest(BaseModel):
    """``POST /api/tables``: the game, its rules (default rules when absent), the seed (random when absent),
    one entry per seat: ``"human"``, ``"open"`` or a built-in agent's name, and the seconds its bots wait before
    each move (default: the server's ``--bot-delay`` when a person or network bot sits there, else none)."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=NAME_CHARS)]
    rules: dict[str, Any] | None = None
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None
    seats: Annotated[list[Annotated[str, Field(max_length=NAME_CHARS)]], Field(max_length=8)]
    bot_delay: Annotated[float, Field(ge=0, le=MAX_BOT_DELAY)] | None = None


def refusal(error: PaijuError) -> HTTPException:
    """The HTTP status for a refused request, with the error's message as ``detail``."""
    if isinstance(error, TableNotFound | SeatNotFound | RecordNotFound):
        code = status.HTTP_404_NOT_FOUND
    elif isinstance(error, HandsHidden):
        code = status.HTTP_403_FORBIDDEN
    elif isinstance(error, SeatUnavailable):
        code = status.HTTP_409_CONFLICT
    elif isinstance(error, ClientLimitReached):
        code = status.HTTP_429_TOO_MANY_REQUESTS
    elif isinstance(error, TooManyTables):
        code = status.HTTP_503_SERVICE_UNAVAILABLE
    else:
        code = status.HTTP_400_BAD_REQUEST
    return HTTPException(code, str(error))


def client_address(request: Request) -> str:
    """The address limits are counted by: the peer's IP address."""
    return request.client.host if request.client is not None else ""


def api_router(lobby: Lobby, store: GameStore, frame_cache: FrameCache, leaderboard: Leaderboard) -> APIRouter:
    """The ``/api`` routes over ``lobby`` (tables in memory), ``store`` (finished games), ``frame_cache`` and
    ``leaderboard`` (ratings over the finished games): those of ``games_router``, ``tables_router`` and
    ``records_router``, in that order.

    Routes touching tables are coroutines: tables live on the event loop and are never touched from a thread.
    """
    router = APIRouter(prefix="/api")
    router.include_router(games_router())
    router.include_router(tables_router(lobby))
    router.include_router(records_router(store, frame_cache, leaderboard))
    return router


def games_router() -> APIRouter:
    """``GET /games``: the games offered, their agents and default rules."""
    router = APIRouter()

    @router.get("/games")
    def games() -> dict[str, Any]:
        """Every game with its seat count, the agents offered as bots (with a line on each), the adviser Hint asks,
        the bot a new table's seats start with (``null``: the page's quick choice), its default rules, and its rule
        variants by name (``paiju.serve.variants``: the same for each, and the options that make it)."""
        return {"games": {name: {"num_players": load_game(name).num_players, "agents": offered_agents(name),
                                 "descriptions": {agent: DESCRIPTIONS[agent] for agent in offered_agents(name)
                                                  if agent in DESCRIPTIONS},
                                 "adviser": adviser(name), "table_bot": table_bot(name),
                                 "default_rules": load_game(name).default_rules().to_json(),
                                 "variants": {variant.name: variant_json(name, variant)
                                              for variant in VARIANTS.get(name, ())}}
                          for name in game_names()}}

    return router


def tables_router(lobby: Lobby) -> APIRouter:
    """The routes over ``lobby``'s tables: create one, reserve an open seat, the lobby, watch a table of bots."""
    router = APIRouter()

    @router.post("/tables", status_code=status.HTTP_201_CREATED)
    async def create_table(request: TableRequest, http: Request) -> dict[str, Any]:
        """Seat a new table; the reply holds the token of every ``"human"`` seat (for the creator only)."""
        try:
            table = await lobby.create(request.game, request.rules, request.seed, request.seats,
                                       client_address(http), request.bot_delay)
        except PaijuError as error:
            raise refusal(error) from None
        seats = [seat.public_json() | ({"token": seat.token} if seat.kind is SeatKind.HUMAN else {})
                 for seat in table.seats]
        return {"table_id": table.table_id, "game": table.game.name, "seats": seats}

    @router.post("/tables/{table_id}/seats/{seat}")
    async def reserve_seat(table_id: str, seat: int, http: Request) -> dict[str, str]:
        """Reserve an open seat: ``{"token": ...}`` opens its websocket."""
        try:
            return {"token": lobby.reserve(table_id, seat, client_address(http))}
        except PaijuError as error:
            raise refusal(error) from None

    @router.get("/tables")
    async def tables() -> dict[str, Any]:
        """The lobby: every table held, newest first, with who sits where and who is connected."""
        return {"tables": [table.lobby_json() for table in lobby.listing()]}

    @router.get("/tables/{table_id}/frames")
    async def table_frames(table_id: str, since: Annotated[int, Query(ge=0)] = 0) -> Response:
        """A table of bots alone, watched while it plays: ``{"game", "seats", "status", "record_id", "frames"}``
        with frames ``since`` .. the latest, shaped as a replay's (every hand face up)."""
        try:
            table = lobby.get(table_id)
            live = table.live_frames()
        except PaijuError as error:
            raise refusal(error) from None
        # Read before the frames are brought up to date: a table said to be over has made every move by then.
        described = {"game": table.game.name, "seats": [seat.name for seat in table.seats],
                     "status": table.status.value, "record_id": table.record_id}
        count = await live.update(table.moves)
        if since > count:
            raise HTTPException(status.HTTP_400_BAD_REQUEST,
                                f"since={since} is past the {count} frames of table {table_id} so far")
        body = json.dumps(described, separators=(",", ":")).encode()
        return Response(body[:-1] + b',"frames":' + live.frames_json(since) + b"}", media_type="application/json")

    return router


def records_router(store: GameStore, frame_cache: FrameCache, leaderboard: Leaderboard) -> APIRouter:
    """The routes over the finished games in ``store``: the list, the leaderboard, a record and its frames."""
    router = APIRouter()

    @router.get("/records")
    async def records(limit: Annotated[int, Query(ge=1, le=MAX_RECORDS_LISTED)] = 50) -> list[dict[str, Any]]:
        """The most recent finished games, newest first."""
        return await asyncio.to_thread(store.list_finished, limit)

    @router.get("/leaderboard")
    async def leaderboard_json() -> dict[str, Any]:
        """Every game's ratings (``paiju.serve.leaderboard``), brought up to date with the games stored since."""
        return await asyncio.to_thread(leaderboard.to_json)

    @router.get("/records/{record_id}")
    async def record(record_id: str) -> dict[str, Any]:
        """The paiju JSON record of a finished game."""
        try:
            return await asyncio.to_thread(store.get_record, record_id)
        except RecordNotFound as error:
            raise refusal(error) from None

    @router.get("/records/{record_id}/frames")
    async def frames(record_id: str) -> Response:
        """Every position of a finished game, all hands face up, for the replay viewer."""
        try:
            return Response(await frame_cache.frames_json(record_id), media_type="application/json")
        except RecordNotFound as error:
            raise refusal(error) from None

    return router
