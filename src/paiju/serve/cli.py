"""``paiju serve``: run the arena under uvicorn (the command line parses options and calls ``serve``)."""

from __future__ import annotations

import uvicorn

from paiju.serve.app import create_app
from paiju.serve.settings import ServeSettings

WS_MAX_BYTES = 1 << 20
"""Largest websocket message uvicorn accepts; client messages are far smaller (see ``protocol``)."""


def uvicorn_config(settings: ServeSettings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """The uvicorn configuration the arena runs under."""
    return uvicorn.Config(create_app(settings), host=host, port=port, ws_max_size=WS_MAX_BYTES,
                          log_level=log_level)


def serve(settings: ServeSettings, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the arena with ``settings`` at ``http://host:port/`` until interrupted."""
    config = uvicorn_config(settings, host, port)
    url = f"http://{host}:{port}/"
    print(f"paiju arena at {url} (finished games are stored in {settings.db_path})", flush=True)
    uvicorn.Server(config).run()
