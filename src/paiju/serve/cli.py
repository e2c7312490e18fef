"""``paiju serve``: run the arena under uvicorn (the command line parses options and calls ``serve``)."""

from __future__ import annotations

from pathlib import Path

import uvicorn

from paiju.serve.app import create_app
from paiju.serve.settings import ServeSettings

WS_MAX_BYTES = 1 << 20
"""Largest websocket message uvicorn accepts; client messages are far smaller (see ``protocol``)."""


def uvicorn_config(settings: ServeSettings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """The uvicorn configuration the arena runs under."""
    return uvicorn.Config(create_app(settings), host=host, port=port, ws_max_size=WS_MAX_BYTES,
                          log_level=log_level)


def serve(host: str = "127.0.0.1", port: int = 8000, db: Path = Path("paiju-arena.sqlite3"),
          move_timeout: float = 60.0, bot_delay: float = 0.0, platform_games: int = 1) -> None:
    """Run the arena at ``http://host:port/`` until interrupted, storing finished games in ``db``."""
    settings = ServeSettings(db_path=db, move_timeout=move_timeout, bot_delay=bot_delay,
                             platform_games=platform_games)
    config = uvicorn_config(settings, host, port)
    url = f"http://{host}:{port}/"
    print(f"paiju arena at {url} (finished games are stored in {db})", flush=True)
    uvicorn.Server(config).run()
