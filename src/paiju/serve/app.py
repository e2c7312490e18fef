"""``create_app``: the arena's FastAPI application (see ``paiju.serve`` for the endpoints)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request, status
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from paiju.agents import agent_names
from paiju.core.registry import game_names
from paiju.serve.accounts import BotAccounts
from paiju.serve.http_api import api_router
from paiju.serve.ladder import Ladder, ladder_router
from paiju.serve.ladder_api import ladder_api_router
from paiju.serve.leaderboard import Leaderboard
from paiju.serve.limits import BodyLimit, redact_tokens_in_server_logs
from paiju.serve.lobby import Lobby
from paiju.serve.platform import platform_router
from paiju.serve.replay_frames import FrameCache
from paiju.serve.seat_socket import seat_router
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore

GC_YOUNG = 20_000
"""Allocations between two collections of the youngest generation while the server runs."""


def create_app(settings: ServeSettings | None = None) -> FastAPI:
    """The arena over ``settings`` (defaults: ``ServeSettings()``); the SQLite file is created if missing."""
    settings = settings or ServeSettings()
    store = GameStore(settings.db_path, settings.max_stored_games)
    lobby = Lobby(store, settings)
    accounts = BotAccounts(settings.db_path, {name for game in game_names() for name in agent_names(game)},
                           settings.registrations_per_hour, settings.ladder_strikes, settings.ladder_pause)
    ladder = Ladder(lobby, accounts)
    redact_tokens_in_server_logs()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # What is loaded by now lives as long as the server: keep it out of the collector's full scans,
        # whose pauses would otherwise grow with every module and network loaded. Each message allocates many
        # short-lived objects: young collections every GC_YOUNG allocations rather than 700 cost less CPU a move.
        gc.freeze()
        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
        loops = [asyncio.create_task(lobby.run_sweeps(), name="lobby sweeps"),
                 asyncio.create_task(ladder.run(), name="ladder matching")]
        yield
        for loop in loops:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
        await lobby.close()

    app = FastAPI(title="paiju arena", lifespan=lifespan)
    app.state.settings, app.state.store, app.state.lobby, app.state.ladder = settings, store, lobby, ladder
    app.add_exception_handler(RequestValidationError, _validation_refusal)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.include_router(api_router(lobby, store, FrameCache(store), Leaderboard(store)))
    app.include_router(ladder_api_router(ladder, accounts, store, Leaderboard(store, ladder=True),
                                         settings.admin_token))
    app.include_router(seat_router(lobby))
    app.include_router(ladder_router(ladder))
    app.include_router(platform_router(store, settings))
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), name="static")

    def page(name: str, what: str) -> FileResponse:
        path = settings.static_dir / name
        if not path.is_file():
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"the {what} page is not installed")
        return FileResponse(path)

    app.get("/", include_in_schema=False)(lambda: page("index.html", "lobby"))
    app.get("/leaderboard", include_in_schema=False)(lambda: page("leaderboard.html", "leaderboard"))
    app.get("/ladder", include_in_schema=False)(lambda: page("ladder.html", "ladder"))
    app.get("/ladder/bots/{name}", include_in_schema=False)(lambda name: page("bot.html", "bot"))

    return app


async def _validation_refusal(request: Request, error: Exception) -> JSONResponse:
    """A body or parameter of the wrong shape: 422 with one readable ``detail`` string."""
    assert isinstance(error, RequestValidationError)
    problems = "; ".join(f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}"
                         for problem in error.errors())
    return JSONResponse({"detail": problems}, status_code=status.HTTP_422_UNPROCESSABLE_CONTENT)
