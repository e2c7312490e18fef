"""``paiju serve``: run the arena under uvicorn (the command line parses options and calls ``serve``).

Before anything is printed, the address is checked: a port outside 1-65535, a host that does not resolve, or a
port another program already listens on is one ``PaijuError`` line saying how to choose another
(``make demo PORT=8123``). With ``open_browser`` the arena's page is opened once the server listens, where a
graphical browser can be: on macOS and Windows, or under X11 / Wayland (never a console browser, which would
take over the terminal the server logs to).
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import webbrowser

import uvicorn

from paiju.core.errors import PaijuError
from paiju.serve.app import create_app
from paiju.serve.settings import ServeSettings
from paiju.serve.websocket_protocol import ArenaWebSocketProtocol

WS_MAX_BYTES = 1 << 20
"""Largest websocket message uvicorn accepts; client messages are far smaller (see ``protocol``)."""
BROWSER_DELAY = 1.5
"""Seconds between starting the server and opening the page."""


def uvicorn_config(settings: ServeSettings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    """The uvicorn configuration the arena runs under: uvicorn's ``auto`` event loop and HTTP parser, which are
    uvloop and httptools (installed with paiju; uvloop not on Windows, where asyncio's loop is used) — about 7 %
    less server CPU a move than asyncio's loop and h11 under the load benchmark (BENCHMARKS.md)."""
    return uvicorn.Config(create_app(settings), host=host, port=port, ws=ArenaWebSocketProtocol,
                          ws_max_size=WS_MAX_BYTES, ws_per_message_deflate=settings.ws_compression,
                          log_level=log_level)


def check_address(host: str, port: int) -> None:
    """``PaijuError`` unless the arena can listen on ``host``:``port`` now (module docs)."""
    if not 1 <= port <= 65535:
        raise PaijuError(f"port {port} is out of range: choose a port from 1 to 65535 (e.g. make demo PORT=8123)")
    try:
        family, kind, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise PaijuError(f"host {host!r} does not resolve ({error.strerror}): use an address such as 127.0.0.1 "
                         "(this machine only) or 0.0.0.0 (every interface)") from None
    try:
        with socket.socket(family, kind) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else port - 1
            raise PaijuError(f"port {port} on {host} is busy: another program listens on it; stop that program "
                             f"or choose another port (make demo PORT={other}, or paiju serve --port {other})"
                             ) from None
        raise PaijuError(f"cannot listen on {host}:{port}: {error.strerror}") from None


def can_open_browser() -> bool:
    """Whether a graphical browser can be opened here (module docs)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(settings: ServeSettings, host: str = "127.0.0.1", port: int = 8000, open_browser: bool = False) -> None:
    """Run the arena with ``settings`` at ``http://host:port/`` until interrupted."""
    check_address(host, port)
    config = uvicorn_config(settings, host, port)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown}:{port}/"
    print(f"paiju arena at {url} (finished games are stored in {settings.db_path})", flush=True)
    if open_browser and can_open_browser():
        threading.Timer(BROWSER_DELAY, webbrowser.open, (url,)).start()
    uvicorn.Server(config).run()
