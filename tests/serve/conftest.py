"""The arena under test: the real app under uvicorn on a free loopback port, in a background thread.

``arena_url`` yields the base URL (``http://127.0.0.1:PORT``); override ``arena_settings`` in a test module
to change the settings. ``arena`` wraps the URL with helpers: create tables over HTTP, connect seat
clients (``websockets``), read the stored records.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from paiju.serve.cli import uvicorn_config
from paiju.serve.settings import ServeSettings

LOOSE_CLIENT_LIMITS = {"max_tables_per_client": 256, "max_reservations_per_client": 1024,
                       "requests_per_minute": 100_000}
STARTUP_LIMIT = 15.0
MESSAGE_LIMIT = 15.0
"""Seconds a test client waits for the server's next message."""


@contextmanager
def running_arena(settings: ServeSettings) -> Iterator[str]:
    """Run the arena with ``settings`` in a background thread; yield its base URL, stop it after."""
    # IPPROTO_TCP named explicitly: asyncio turns Nagle's algorithm off only on sockets that say so.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(settings, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_LIMIT
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the arena did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(STARTUP_LIMIT)
        listener.close()


@pytest.fixture
def arena_settings(request: pytest.FixtureRequest, tmp_path) -> ServeSettings:
    """The settings the arena under test runs with: a fresh database per test, a 5 s move limit, per-client
    limits far above what one test's clients (all on one address) need; a test changes them with
    ``@pytest.mark.parametrize("arena_settings", [{"move_timeout": 0.2}], indirect=True)``."""
    overrides = getattr(request, "param", {})
    return ServeSettings(**{"db_path": tmp_path / "arena.sqlite3", "move_timeout": 5.0,
                            "static_dir": tmp_path / "static", **LOOSE_CLIENT_LIMITS, **overrides})


@pytest.fixture
def arena_url(arena_settings: ServeSettings) -> Iterator[str]:
    """The base URL of a live arena."""
    with running_arena(arena_settings) as url:
        yield url


Policy = Callable[[dict[str, Any]], Any]
"""Chooses an answer (an element of ``legal``) to an ``act`` message."""


def random_policy(seed: int) -> Policy:
    chooser = random.Random(seed)
    return lambda act: chooser.choice(act["legal"])


class SeatClient:
    """A seat's websocket client that keeps every message the server sends it, in order."""

    def __init__(self, connection: websockets.ClientConnection) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []

    async def receive(self, limit: float = MESSAGE_LIMIT) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.connection.recv(), limit))
        self.received.append(message)
        return message

    async def receive_type(self, *types: str, limit: float = MESSAGE_LIMIT) -> dict[str, Any]:
        """The next message of one of ``types``, keeping (and skipping) the others."""
        while (message := await self.receive(limit))["type"] not in types:
            pass
        return message

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.connection.send(message if isinstance(message, str) else json.dumps(message))

    async def play(self, policy: Policy) -> dict[str, Any]:
        """Answer every ``act`` with ``policy`` until ``end``; returns the ``end`` message."""
        while True:
            message = await self.receive_type("act", "end", "error")
            if message["type"] == "act":
                await self.send({"action": policy(message)})
            elif message["type"] == "end":
                return message
            else:
                raise AssertionError(f"the server refused a legal answer: {message}")

    async def close(self) -> None:
        await self.connection.close()


class Arena:
    """Helpers over a live arena at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=MESSAGE_LIMIT)

    def create_table(self, game: str, seats: list[str], **fields: Any) -> dict[str, Any]:
        reply = self.http.post("/api/tables", json={"game": game, "seats": seats, **fields})
        assert reply.status_code == 201, reply.text
        return reply.json()

    def socket_url(self, table_id: str, token: str) -> str:
        return f"ws{self.url.removeprefix('http')}/ws/tables/{table_id}?token={token}"

    async def connect(self, table_id: str, token: str) -> SeatClient:
        return SeatClient(await websockets.connect(self.socket_url(table_id, token), max_size=None))

    async def connect_humans(self, table: dict[str, Any]) -> dict[int, SeatClient]:
        """A client for every ``human`` seat of a table just created."""
        return {seat["seat"]: await self.connect(table["table_id"], seat["token"])
                for seat in table["seats"] if seat["kind"] == "human"}

    def wait_for_records(self, count: int, limit: float = 60.0) -> list[dict[str, Any]]:
        """The stored games once there are at least ``count``, failing after ``limit`` seconds."""
        deadline = time.monotonic() + limit
        while len(records := self.records(500)) < count:
            assert time.monotonic() < deadline, f"only {len(records)} of {count} games were stored in time"
            time.sleep(0.05)
        return records

    def records(self, limit: int = 50) -> list[dict[str, Any]]:
        return self.http.get("/api/records", params={"limit": limit}).json()

    def record(self, record_id: str) -> dict[str, Any]:
        reply = self.http.get(f"/api/records/{record_id}")
        assert reply.status_code == 200, reply.text
        return reply.json()

    def table(self, table_id: str) -> dict[str, Any]:
        return next(table for table in self.http.get("/api/tables").json()["tables"] if table["table_id"] == table_id)


@pytest.fixture
def arena(arena_url: str) -> Iterator[Arena]:
    """Helpers over a live arena."""
    helpers = Arena(arena_url)
    yield helpers
    helpers.http.close()


@pytest.fixture
def seat_policy() -> Callable[[int], Policy]:
    """``seat_policy(seed)``: a policy answering each ``act`` with a seeded random legal action."""
    return random_policy
