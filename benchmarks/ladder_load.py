"""Load and misbehaviour on the arena's bot ladder (``/ws/ladder``), every bot a scripted network client.

    python benchmarks/ladder_load.py --bots 50 --minutes 30 --out results.json
    python benchmarks/ladder_load.py --bots 12 --minutes 2 --sleepy 1 --vanish 1 --garbage 1
    python benchmarks/ladder_load.py --bots 50 --minutes 5 --house random,rules --seed 3

**Server.** The arena runs in a child process (``arena_load.arena_process``: ``create_app`` under uvicorn on a free
loopback port, a temporary SQLite file, its log in a file), so that its memory (``VmRSS``, ``VmHWM``) and CPU time
read from ``/proc`` are its own. Its settings are the ladder's defaults except ``ladder_settings``: a 2 s move
timeout and a 60 s pause (so that misbehaviour is punished, and forgiven, within the run), registrations
unlimited (every bot registers from one address), and cheap house bots (``--house``, default ``random,rules,
mr-if,mr-greed``: each game takes those it offers; the graded default set includes search and network agents
that 2 cores cannot run at this load).

**Bots.** ``--bots N`` bots are registered over HTTP (``POST /api/bots``), spread over the games in turn, of four
kinds (``--sleepy``, ``--vanish`` and ``--garbage`` count the misbehaving ones; the rest are ``well``):

- ``well`` joins ``/ws/ladder`` with its key and plays every seat it is given on the seat websocket, answering
  each ``act`` at once with a seeded random legal action; the server queues it again after each game;
- ``sleepy`` plays the same, but lets each ``act`` time out with probability ``--sleep-share`` (0.3);
- ``vanish`` plays 0-6 moves of each game, then drops the seat's and the queue's TCP connections without a
  closing handshake (a crashed bot), and joins again 1-5 s later;
- ``garbage`` plays legally, and sends up to 20 junk messages a game on the seat socket (``arena_load.NASTY``)
  and 0-2 on the queue socket after each ``queued`` (``QUEUE_JUNK``); after 20 refusals the server closes its
  queue connection, and it joins again.

A bot told ``paused`` (or refused at ``join`` because it is paused) waits out the pause and joins again. At the
deadline every bot sends ``leave``; the games under way finish (at most ``drain_limit`` seconds).

**Figures.**

- *Games stored* per game: ladder games in the server's database after the run (read from the SQLite file);
  they must equal the tables the bots were seated at. *Rated*: per game, the sum of ``games`` over the
  standings of ``GET /api/ladder`` divided by the seats of a table (each seat counts once), which must equal
  the stored games; per bot, its standings ``games`` and the length of its rating history
  (``GET /api/ladder/bots/{name}``) against the stored games it sat in.
- *moves/s*: actions sent by the bots before the deadline, over the load's length; *all moves*: the actions
  of the stored games (house bots' and defaults played by timeout included) over the run.
- *Server CPU per move*: the server's CPU seconds (``/proc/PID/stat``) from the first join to the last game
  stored, over all moves. *RSS*: at the first join, its peak (``VmHWM``), at the end; growth is end minus
  start, and end minus the RSS at half time (a steady leak shows in both).
- *Wait*: per bot, from each ``queued`` to the following ``seated`` (p50, p99, max, by kind and game),
  against the bound ``ladder_fill_after`` plus the longest game observed (seated to ``end``, at a bot).
- *Paused*: each ``paused`` message and each ``join`` refused for a pause, with its reason, by kind;
  the bots' status at the end (``GET /api/ladder/bots/{name}``). Well-behaved bots must never be paused.
- *Timeouts*: moves the server played by timeout (its log), by kind (or at a seat no bot was told of); the
  most at one seat of one game (``ladder_forfeit_after`` at most: then the seat forfeits its turns).
- *Problems*: what no bot of that kind should see: an ``error`` not answering junk, a connection closed
  before ``end`` (or a queue connection closed) that the bot did not cause, a seat silent for
  ``message_limit`` seconds, a ``join`` refused (well-behaved bots), an HTTP refusal. *Double seats*: a bot
  seated at a new table while a table it sat at still plays (a seat told again after a rejoin is not one).
- *Tracebacks* in the server's log (0 expected); the queue's responsiveness (``ping`` to ``pong`` on an idle
  queue connection, every second: it includes this process's event loop lag); a spectator's requests
  (``GET /api/ladder``, which rates the games stored since the last request, and a bot's page, every 10 s);
  the clients' event loop lag and CPU; the load average (every 5 s, in the timeline).

The script measures and prints; it asserts nothing (``tests/serve/test_ladder_load.py`` does, on short runs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from arena_load import (
    MAX_EXAMPLES,
    NASTY,
    ArenaServer,
    LoopLag,
    Payload,
    ServerUsage,
    answers_act,
    arena_process,
    latency_summary,
    log_summary,
    read_cpu,
    read_memory,
)
from paiju import load_game

GAMES = ("doudizhu", "guandan", "gongzhu")
KINDS = ("well", "sleepy", "vanish", "garbage")
NO_BOT = "no bot"
"""Where problems of no bot in particular are counted (a refused registration, a spectator's request)."""
HOUSE = ("random", "rules", "mr-if", "mr-greed")
"""The house bots of the run: cheap agents (each game takes those it offers)."""
QUEUE_JUNK: tuple[Payload, ...] = (
    "hello, ladder", b"\x00\xff binary", "[]", '{"type": "act"}', '{"type": "join"}', '{"type": "join", "key": 5}',
    '{"type": "join", "key": "pk-' + "x" * 43 + '"}', "x" * 2048, "[" * 5000, '{"type": "join", "game": 7}',
)
"""Messages a garbage bot sends on its queue socket, each refused with one ``error``."""
DOUBLE_SEAT_GRACE = 1.0
"""Seconds after a ``seated`` before checking whether the bot's earlier table still plays."""
SEAT_JUNK_MAX = 20
"""Most junk messages a garbage bot sends on one seat socket in one game (the ladder strikes at 10)."""
TIMEOUT_LINE = re.compile(r"table (t-[0-9a-f]+): seat (\d+) made no move within")
TYPE_FIELD = re.compile(r'"type":\s*"(\w+)"')
TIMELINE_INTERVAL = 5.0
VIEW_INTERVAL = 10.0
Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class LadderConfig:
    """What a run plays, and the ladder settings it changes."""

    bots: int = 50
    seconds: float = 60.0
    sleepy: int = 4
    vanish: int = 4
    garbage: int = 4
    games: tuple[str, ...] = GAMES
    seed: int = 0
    house: tuple[str, ...] = HOUSE
    move_timeout: float = 2.0
    pause: float = 60.0
    strikes: int | None = None
    """The ladder's strikes before a pause (``None``: its default)."""
    fill_after: float | None = None
    """Seconds before house bots fill a table (``None``: the ladder's default)."""
    sleep_share: float = 0.3
    """Share of its acts a sleepy bot lets time out."""
    vanish_moves: int = 6
    """Most moves a vanish bot plays before dropping its connections."""
    vanish_away: tuple[float, float] = (1.0, 5.0)
    """Seconds a vanished bot stays away (drawn uniformly)."""
    message_limit: float = 60.0
    """Seconds a seat may go without a message before the bot counts a problem."""
    drain_limit: float = 600.0
    """Seconds the games under way at the deadline may take to finish."""

    def kinds(self) -> list[str]:
        """Each bot's kind, the misbehaving ones first."""
        misbehaving = ["sleepy"] * self.sleepy + ["vanish"] * self.vanish + ["garbage"] * self.garbage
        if len(misbehaving) > self.bots:
            raise ValueError(f"{len(misbehaving)} misbehaving bots asked for, but only {self.bots} bots")
        return misbehaving + ["well"] * (self.bots - len(misbehaving))


def ladder_settings(config: LadderConfig) -> dict[str, Any]:
    """The server's settings that the run changes (every other one is ``ServeSettings``' default)."""
    settings: dict[str, Any] = {"ladder_move_timeout": config.move_timeout, "ladder_pause": config.pause,
                                "registrations_per_hour": 1_000_000, "ladder_house": list(config.house)}
    if config.strikes is not None:
        settings["ladder_strikes"] = config.strikes
    if config.fill_after is not None:
        settings["ladder_fill_after"] = config.fill_after
    return settings


def effective_settings(config: LadderConfig) -> dict[str, Any]:
    """The ladder's settings in force during the run (``ladder_*`` and ``registrations_per_hour``)."""
    from paiju.serve.settings import ServeSettings

    defaults = dataclasses.asdict(ServeSettings())
    merged = {**defaults, **ladder_settings(config)}
    return {name: value for name, value in merged.items()
            if name.startswith("ladder_") or name == "registrations_per_hour"}


# The bots.


@dataclass(frozen=True, slots=True)
class GameSeen:
    """A game a bot played to its ``end``."""

    table_id: str
    record_id: str
    seconds: float
    """From ``seated`` to ``end``."""


@dataclass
class Bot:
    """One registered bot and what happened to it."""

    name: str
    game: str
    kind: str
    key: str
    rng: random.Random
    queue: ClientConnection | None = None
    queued_at: float | None = None
    vanished: bool = False
    """Whether it dropped its current queue connection itself."""
    waits: list[float] = field(default_factory=list)
    playing: set[str] = field(default_factory=set)
    """Tables it plays at (seated, no ``end`` yet, not vanished from)."""
    games: list[GameSeen] = field(default_factory=list)
    abandoned: set[str] = field(default_factory=set)
    """Tables it vanished from whose end it has not seen."""
    seat_tasks: set[asyncio.Task[None]] = field(default_factory=set)
    moves: int = 0
    acts_slept: int = 0
    junk_sent: int = 0
    junk_refused: int = 0
    queue_junk_pending: int = 0
    queue_closed_for_junk: int = 0
    vanishings: int = 0
    pauses: list[dict[str, Any]] = field(default_factory=list)
    join_refusals: Counter[str] = field(default_factory=Counter)
    double_seats: int = 0
    known_paused_until: float = 0.0


@dataclass
class Problems:
    """What should not happen, by kind of bot."""

    counts: dict[str, Counter[str]] = field(default_factory=lambda: {kind: Counter() for kind in (*KINDS, NO_BOT)})
    examples: list[str] = field(default_factory=list)

    def add(self, bot: Bot | None, what: str, detail: str) -> None:
        self.counts[NO_BOT if bot is None else bot.kind][what] += 1
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(f"{bot.name if bot else '-'}: {what}: {detail}"[:400])


@dataclass
class LadderRun:
    """Everything the bots of one run share."""

    url: str
    http: httpx.AsyncClient
    config: LadderConfig
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    bots: list[Bot] = field(default_factory=list)
    problems: Problems = field(default_factory=Problems)
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    tables: dict[str, str] = field(default_factory=dict)
    """Table id → game, for every table a bot was seated at."""
    seats: dict[tuple[str, int], Bot] = field(default_factory=dict)
    """(table id, seat) → the bot seated there."""
    start: float = field(default_factory=time.monotonic)
    """When the bots began to join."""
    checks: set[asyncio.Task[None]] = field(default_factory=set)
    """Double-seat checks under way."""

    @property
    def ws_base(self) -> str:
        return "ws" + self.url.removeprefix("http")

    def queued_now(self) -> int:
        return sum(1 for bot in self.bots if bot.queued_at is not None)

    def playing_now(self) -> int:
        return sum(len(bot.playing) for bot in self.bots)


async def register(run: LadderRun, kinds: list[str]) -> None:
    """Register a bot of each kind in ``kinds``, the games in turn within each kind."""
    seen: Counter[str] = Counter()
    for kind in kinds:
        game = run.config.games[(seen[kind] + KINDS.index(kind)) % len(run.config.games)]
        seen[kind] += 1
        name = f"{kind}-{game[:3]}-{seen[kind]:02d}"
        reply = await run.http.post("/api/bots", json={"name": name, "owner": "load@example.org", "game": game})
        if reply.status_code != 201:
            run.problems.add(None, "http", f"POST /api/bots {name}: {reply.status_code} {reply.text[:200]}")
            continue
        rng = random.Random(f"{run.config.seed}/{name}")
        run.bots.append(Bot(name, game, kind, reply.json()["key"], rng))


def message_type(text: str | bytes) -> str | None:
    """A server message's type, read from its first characters (the server writes ``"type"`` second)."""
    if isinstance(text, bytes):
        return None
    found = TYPE_FIELD.search(text, 0, 64)
    if found is not None:
        return found.group(1)
    message = json.loads(text)
    return message.get("type") if isinstance(message, dict) else None


async def bot_life(run: LadderRun, bot: Bot) -> None:
    """Join the ladder again and again until the deadline (after a pause, a vanishing or a refusal, after the
    wait each calls for); then let its games finish."""
    while not run.stopping.is_set():
        wait = await queue_session(run, bot)
        if wait > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(run.stopping.wait(), wait)
    if bot.seat_tasks:
        await asyncio.gather(*bot.seat_tasks, return_exceptions=True)


async def queue_session(run: LadderRun, bot: Bot) -> float:
    """One connection to ``/ws/ladder``: join, then play every seat the ladder gives, until the ladder sends the
    bot off, the bot leaves at the deadline, or the connection drops; the seconds to wait before joining again."""
    try:
        queue = await websockets.connect(f"{run.ws_base}/ws/ladder", proxy=None, ping_interval=None,
                                         open_timeout=run.config.message_limit)
    except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
        run.problems.add(bot, "connect", f"/ws/ladder: {error!r}")
        return 1.0
    bot.queue, bot.vanished = queue, False
    leaver = asyncio.create_task(leave_at_deadline(run, queue))
    wait: float | None = None
    try:
        await queue.send(json.dumps({"type": "join", "key": bot.key}))
        joined = False
        async for text in queue:
            message = json.loads(text)
            joined = joined or message.get("type") == "queued"
            wait = await on_queue_message(run, bot, message, joined)
            if wait is not None:
                break
    except websockets.ConnectionClosed:
        pass
    finally:
        leaver.cancel()
        bot.queued_at = None
        if not bot.vanished:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(queue.close(), 5)
    return wait if wait is not None else queue_closed(run, bot, queue)


async def leave_at_deadline(run: LadderRun, queue: ClientConnection) -> None:
    await run.stopping.wait()
    with contextlib.suppress(websockets.ConnectionClosed):
        await queue.send(json.dumps({"type": "leave"}))


async def on_queue_message(run: LadderRun, bot: Bot, message: Message, joined: bool) -> float | None:
    """Handle one queue message; the seconds to wait before joining again when the session is over, else None."""
    kind = message.get("type")
    now = time.monotonic()
    if kind == "queued":
        bot.queued_at = now
        if bot.kind == "garbage" and not run.stopping.is_set():
            await send_queue_junk(bot)
    elif kind == "seated":
        on_seated(run, bot, message, now)
    elif kind == "paused":
        until = message.get("until")
        bot.pauses.append({"how": "paused message", "status": message.get("status"), "reason": message.get("reason"),
                           "at_s": round(now - run.start, 1)})
        if bot.kind == "well":
            run.problems.add(bot, "paused", str(message.get("reason")))
        bot.known_paused_until = until if isinstance(until, (int, float)) else time.time() + run.config.pause
        return max(0.5, bot.known_paused_until - time.time() + 0.5)
    elif kind == "left":
        return 0.0
    elif kind == "error":
        if not joined:
            return join_refused(run, bot, str(message.get("message")))
        if bot.queue_junk_pending > 0:
            bot.queue_junk_pending -= 1
            bot.junk_refused += 1
        else:
            run.problems.add(bot, "error message", f"queue: {message.get('message')}")
    elif kind != "pong":
        run.problems.add(bot, "unexpected message", f"queue: {json.dumps(message)[:200]}")
    return None


async def send_queue_junk(bot: Bot) -> None:
    assert bot.queue is not None
    for _ in range(bot.rng.randint(0, 2)):
        await bot.queue.send(bot.rng.choice(QUEUE_JUNK))
        bot.junk_sent += 1
        bot.queue_junk_pending += 1


def on_seated(run: LadderRun, bot: Bot, message: Message, now: float) -> None:
    """Count the wait, note a double seat, and start playing the seat."""
    if bot.queued_at is not None:
        bot.waits.append(now - bot.queued_at)
    bot.queued_at = None
    table_id, seat = str(message["table_id"]), int(message["seat"])
    if earlier := (bot.playing | bot.abandoned) - {table_id}:  # the same table told again (a rejoin) is no double seat
        check = asyncio.create_task(check_double_seat(run, bot, earlier))
        run.checks.add(check)
        check.add_done_callback(run.checks.discard)
    run.tables[table_id] = bot.game
    run.seats[(table_id, seat)] = bot
    bot.playing.add(table_id)
    task = asyncio.create_task(play_seat(run, bot, table_id, str(message["path"]), now))
    bot.seat_tasks.add(task)
    task.add_done_callback(bot.seat_tasks.discard)


async def check_double_seat(run: LadderRun, bot: Bot, earlier: set[str]) -> None:
    """Count a double seat if a table ``bot`` sat at before it was seated again still plays a second later
    (``GET /api/tables``: its end may be on its way to the bot on the other socket)."""
    await asyncio.sleep(DOUBLE_SEAT_GRACE)
    reply = await run.http.get("/api/tables")
    if reply.status_code != 200:
        run.problems.add(bot, "http", f"GET /api/tables: {reply.status_code}")
        return
    status = {table["table_id"]: table["status"] for table in reply.json()["tables"]}
    if any(status.get(table_id) == "playing" for table_id in earlier):
        bot.double_seats += 1
    bot.abandoned = {table_id for table_id in bot.abandoned if status.get(table_id) == "playing"}


def join_refused(run: LadderRun, bot: Bot, text: str) -> float:
    """A refused ``join``: note it (a pause learnt this way too); the seconds to wait before trying again."""
    bot.join_refusals[" ".join(text.split()[2:5])] += 1
    paused = re.search(r"is paused for (\d+) s more", text)
    if bot.kind == "well":
        run.problems.add(bot, "join refused", text)
    if paused is None:
        return 1.0
    left = float(paused.group(1))
    if time.time() > bot.known_paused_until:
        bot.known_paused_until = time.time() + left
        bot.pauses.append({"how": "join refused", "status": "paused", "reason": text.partition(": ")[2],
                           "at_s": round(time.monotonic() - run.start, 1)})
    return left + 0.5


def queue_closed(run: LadderRun, bot: Bot, queue: ClientConnection) -> float:
    """The queue connection dropped: expected after the bot's own vanishing or junk; the wait before joining."""
    if bot.vanished:
        return bot.rng.uniform(*run.config.vanish_away)
    reason = f"{queue.close_code} {queue.close_reason or ''}".strip()
    if bot.kind == "garbage" and queue.close_code == 1008 and "refused" in (queue.close_reason or ""):
        bot.queue_closed_for_junk += 1
        bot.queue_junk_pending = 0
        return 0.2
    if not run.stopping.is_set():
        run.problems.add(bot, "queue closed", reason)
    return 1.0


async def play_seat(run: LadderRun, bot: Bot, table_id: str, path: str, seated_at: float) -> None:
    """Play one seat as ``bot``'s kind does, until ``end`` (or until it vanishes)."""
    try:
        seat = await websockets.connect(run.ws_base + path, max_size=None, proxy=None, ping_interval=None,
                                        open_timeout=run.config.message_limit)
    except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
        run.problems.add(bot, "connect", f"{table_id}: {error!r}")
        return
    player = SeatPlayer(run, bot, seat, table_id)
    try:
        ended = await player.play()
    except TimeoutError:
        run.problems.add(bot, "silent seat", f"{table_id}: no message in {run.config.message_limit} s")
        ended = None
    except websockets.ConnectionClosed as closed:
        run.problems.add(bot, "seat closed", f"{table_id}: closed before end: {closed}")
        ended = None
    finally:
        bot.playing.discard(table_id)
        if not player.vanished:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.close(), 5)
    if ended is not None:
        bot.games.append(GameSeen(table_id, str(ended["record_id"]), time.monotonic() - seated_at))


class SeatPlayer:
    """One bot at one seat: answers each ``act`` as its kind does."""

    def __init__(self, run: LadderRun, bot: Bot, seat: ClientConnection, table_id: str) -> None:
        self.run, self.bot, self.seat, self.table_id = run, bot, seat, table_id
        self.junk_left = bot.rng.randint(0, SEAT_JUNK_MAX) if bot.kind == "garbage" else 0
        self.moves_before_vanishing = bot.rng.randint(0, run.config.vanish_moves) if bot.kind == "vanish" else -1
        self.errors_expected = 0
        self.acts = 0
        self.vanished = False

    async def play(self) -> Message | None:
        """The ``end`` message, or None once the bot vanished."""
        sent_at: float | None = None
        while True:
            text = await asyncio.wait_for(self.seat.recv(), self.run.config.message_limit)
            if sent_at is not None:
                self.run.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            kind = message_type(text)
            if kind == "act":
                if await self.on_act(json.loads(text)):
                    sent_at = time.perf_counter()
                if self.vanished:
                    return None
            elif kind == "end":
                self.bot.playing.discard(self.table_id)
                return json.loads(text)
            elif kind == "error":
                self.on_error(json.loads(text))

    async def on_act(self, act: Message) -> bool:
        """Answer (or not) an ``act``; whether an action was sent."""
        bot, legal = self.bot, act["legal"]
        self.acts += 1
        if bot.kind == "vanish" and self.acts > self.moves_before_vanishing:
            self.vanish()
            return False
        if bot.kind == "sleepy" and bot.rng.random() < self.run.config.sleep_share:
            bot.acts_slept += 1
            return False
        if bot.kind == "garbage":
            await self.send_junk(legal)
        await self.seat.send(json.dumps({"action": bot.rng.choice(legal)}))
        bot.moves += 1
        if not self.run.stopping.is_set():
            self.run.moves += 1
        return True

    async def send_junk(self, legal: list[Any]) -> None:
        for _ in range(min(self.junk_left, self.bot.rng.randint(0, 3))):
            payload = self.bot.rng.choice(NASTY)[1]
            if answers_act(payload, legal):
                continue
            await self.seat.send(payload)
            self.junk_left -= 1
            self.errors_expected += 1
            self.bot.junk_sent += 1

    def on_error(self, message: Message) -> None:
        if self.errors_expected > 0:
            self.errors_expected -= 1
            self.bot.junk_refused += 1
        else:
            self.run.problems.add(self.bot, "error message", f"{self.table_id}: {message.get('message')}")

    def vanish(self) -> None:
        """Drop the seat's and the queue's TCP connections without a closing handshake."""
        bot = self.bot
        self.vanished = bot.vanished = True
        bot.vanishings += 1
        bot.playing.discard(self.table_id)
        bot.abandoned.add(self.table_id)
        self.seat.transport.abort()
        if bot.queue is not None:
            bot.queue.transport.abort()


# Probes.


async def queue_pings(run: LadderRun, round_trips: list[tuple[float, float]]) -> None:
    """Every second, ``ping`` on a queue connection that never joins: (seconds into the run, time to its
    ``pong``)."""
    async with websockets.connect(f"{run.ws_base}/ws/ladder", proxy=None, ping_interval=None) as probe:
        while True:
            started = time.perf_counter()
            await probe.send('{"type": "ping"}')
            await probe.recv()
            round_trips.append((round(time.monotonic() - run.start, 1), time.perf_counter() - started))
            await asyncio.sleep(1.0)


async def ladder_viewer(run: LadderRun, round_trips: list[float]) -> None:
    """Every ``VIEW_INTERVAL`` seconds, as a spectator: ``GET /api/ladder`` (which rates the games stored since the
    last request) and one bot's page; each request's time."""
    rng = random.Random(run.config.seed)
    while True:
        await asyncio.sleep(VIEW_INTERVAL)
        for path in ("/api/ladder", f"/api/ladder/bots/{rng.choice(run.bots).name}" if run.bots else None):
            if path is None:
                continue
            started = time.perf_counter()
            reply = await run.http.get(path)
            round_trips.append(time.perf_counter() - started)
            if reply.status_code != 200:
                run.problems.add(None, "http", f"GET {path}: {reply.status_code}")


def ping_figures(round_trips: list[tuple[float, float]]) -> dict[str, Any]:
    """The queue pings' distribution (ms), and the slowest ones with when they happened."""
    slowest = sorted(round_trips, key=lambda ping: -ping[1])[:10]
    return {**latency_summary([seconds for _, seconds in round_trips]),
            "slowest": [{"at_s": at, "ms": round(1000 * seconds, 1)} for at, seconds in slowest]}


async def timeline(run: LadderRun, usage: ServerUsage, rows: list[list[float]]) -> None:
    """Every ``TIMELINE_INTERVAL`` seconds: moves so far, the server's CPU seconds and RSS, bots queued and
    seated, the load average."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(OSError):
            rows.append([round(time.monotonic() - start, 1), run.moves,
                         round(read_cpu(usage.pid) - usage.start_cpu, 2), round(read_memory(usage.pid)[0], 1),
                         run.queued_now(), run.playing_now(), round(os.getloadavg()[0], 2)])
        await asyncio.sleep(TIMELINE_INTERVAL)


# After the run.


def read_store(db_path: Path) -> dict[str, Any]:
    """The stored ladder games: per game their number, moves, house seats and longest game; per seat name its
    games."""
    per_game: dict[str, dict[str, Any]] = {}
    per_name: Counter[str] = Counter()
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as connection:
        registered = {row[0] for row in connection.execute("SELECT name FROM ladder_bots")}
        rows = connection.execute("SELECT record_id, game, seats, record FROM finished_games "
                                  "WHERE ladder IS NOT NULL")
        for record_id, game, seats_text, record in rows:
            moves, seats = len(json.loads(record)["actions"]), json.loads(seats_text)
            counts = per_game.setdefault(game, {"games": 0, "moves": 0, "house_seats": 0, "longest_moves": 0})
            counts["games"] += 1
            counts["moves"] += moves
            counts["house_seats"] += sum(1 for name in seats if name not in registered)
            if moves > counts["longest_moves"]:
                counts["longest_moves"], counts["longest_record"], counts["longest_seats"] = moves, record_id, seats
            per_name.update(seats)
        other = connection.execute("SELECT count(*) FROM finished_games WHERE ladder IS NULL").fetchone()[0]
    return {"games": per_game, "seats_by_name": dict(per_name), "non_ladder_games": other}


async def ratings_check(run: LadderRun, stored: dict[str, Any]) -> dict[str, Any]:
    """The ladder's standings and every bot's page against the stored games."""
    reply = await run.http.get("/api/ladder")
    if reply.status_code != 200:
        run.problems.add(None, "http", f"GET /api/ladder: {reply.status_code}")
        return {}
    ladder = reply.json()["games"]
    rated = {game: sum(row["games"] for row in ladder[game]["standings"]) / load_game(game).num_players
             for game in ladder}
    pages, mismatched = {}, []
    for bot in run.bots:
        page = await run.http.get(f"/api/ladder/bots/{bot.name}")
        if page.status_code != 200:
            run.problems.add(bot, "http", f"GET /api/ladder/bots/{bot.name}: {page.status_code}")
            continue
        body = page.json()
        rated_games = (body["rating"] or {}).get("games", 0)
        sat = stored["seats_by_name"].get(bot.name, 0)
        if not rated_games == len(body["history"]) == sat:
            mismatched.append(f"{bot.name}: stored {sat}, rated {rated_games}, history {len(body['history'])}")
        pages[bot.name] = {"status": body["bot"]["status"], "reason": body["bot"]["reason"],
                           "games_rated": rated_games, "rating": (body["rating"] or {}).get("rating")}
    return {"rated_by_game": rated, "house": {game: ladder[game]["house"] for game in ladder},
            "bot_mismatches": mismatched, "bots": pages}


def timeouts_by_kind(run: LadderRun, log_path: Path) -> dict[str, Any]:
    """Moves the server played by timeout (its log), by kind of bot, and the most at one seat of one game."""
    per_seat: Counter[tuple[str, int]] = Counter()
    for line in log_path.read_text(errors="replace").splitlines():
        if found := TIMEOUT_LINE.search(line):
            per_seat[(found.group(1), int(found.group(2)))] += 1
    by_kind: Counter[str] = Counter()
    for seat, count in per_seat.items():
        bot = run.seats.get(seat)
        by_kind[bot.kind if bot else "seat no bot was told of"] += count
    return {"by_kind": dict(by_kind), "most_at_one_seat": max(per_seat.values(), default=0),
            "seats_with_timeouts": len(per_seat)}


def seconds_summary(values: list[float]) -> dict[str, Any]:
    """Count, p50, p99 and max of ``values`` in seconds."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 3)

    return {"count": len(ordered), "p50": at(0.5), "p99": at(0.99), "max": at(1.0)}


def wait_figures(run: LadderRun, fill_after: float) -> dict[str, Any]:
    """Queue waits by kind and by game, the longest game per game, and the bound they are held to."""
    durations: dict[str, list[float]] = {}
    for bot in run.bots:
        durations.setdefault(bot.game, []).extend(game.seconds for game in bot.games)
    longest = max((max(values) for values in durations.values() if values), default=0.0)
    waits = [wait for bot in run.bots for wait in bot.waits]
    return {"all": seconds_summary(waits),
            "by_kind": {kind: seconds_summary([wait for bot in run.bots if bot.kind == kind for wait in bot.waits])
                        for kind in KINDS},
            "by_game": {game: seconds_summary([wait for bot in run.bots if bot.game == game for wait in bot.waits])
                        for game in run.config.games},
            "game_seconds": {game: seconds_summary(values) for game, values in durations.items()},
            "bound_s": round(fill_after + longest, 1),
            "over_bound": sum(1 for wait in waits if wait > fill_after + longest)}


def bot_figures(run: LadderRun) -> dict[str, Any]:
    """Per kind: bots, moves, games seen, pauses (with their reasons), refusals, junk, vanishings, double seats."""
    figures = {}
    for kind in KINDS:
        bots = [bot for bot in run.bots if bot.kind == kind]
        if not bots:
            continue
        reasons = Counter(re.sub(r"table t-[0-9a-f]+", "table …", str(pause["reason"]))
                          for bot in bots for pause in bot.pauses)
        figures[kind] = {
            "bots": len(bots), "moves": sum(bot.moves for bot in bots),
            "games_seen": sum(len(bot.games) for bot in bots),
            "bots_paused": sum(1 for bot in bots if bot.pauses), "pauses": sum(len(bot.pauses) for bot in bots),
            "pause_reasons": reasons.most_common(8),
            "join_refusals": dict(sum((bot.join_refusals for bot in bots), Counter())),
            "acts_slept": sum(bot.acts_slept for bot in bots), "vanishings": sum(bot.vanishings for bot in bots),
            "junk_sent": sum(bot.junk_sent for bot in bots), "junk_refused": sum(bot.junk_refused for bot in bots),
            "queue_closed_for_junk": sum(bot.queue_closed_for_junk for bot in bots),
            "double_seats": sum(bot.double_seats for bot in bots)}
    return figures


# The run.


async def run_ladder(config: LadderConfig, server: ArenaServer, db_path: Path) -> dict[str, Any]:
    """Register the bots, run them for ``config.seconds``, let the games finish; every figure, as JSON."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False) as http:
        run = LadderRun(server.url, http, config)
        await register(run, config.kinds())
        return await _measure(run, server, db_path)


async def _measure(run: LadderRun, server: ArenaServer, db_path: Path) -> dict[str, Any]:
    config = run.config
    usage, lag = ServerUsage(server.pid), LoopLag()
    usage.sample()
    pings: list[tuple[float, float]] = []
    views: list[float] = []
    rows: list[list[float]] = []
    samplers = [asyncio.create_task(usage.run()), asyncio.create_task(lag.run()),
                asyncio.create_task(queue_pings(run, pings)), asyncio.create_task(timeline(run, usage, rows)),
                asyncio.create_task(ladder_viewer(run, views))]
    client_cpu = time.process_time()
    run.start = start = time.monotonic()
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    tasks = [asyncio.create_task(bot_life(run, bot)) for bot in run.bots]
    await asyncio.sleep(config.seconds)
    run.stopping.set()
    open_waits = [time.monotonic() - bot.queued_at for bot in run.bots if bot.queued_at is not None]
    cpu_at_deadline = read_cpu(server.pid) - usage.start_cpu
    _, unfinished = await asyncio.wait(tasks, timeout=config.drain_limit) if tasks else (set(), set())
    for task in unfinished:
        task.cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*run.checks, return_exceptions=True)
    tables_left = await tables_finished(run, start + config.seconds + config.drain_limit)
    elapsed = time.monotonic() - start
    server_cpu = read_cpu(server.pid) - usage.start_cpu
    rss_half = next((rss for at, rss in usage.samples if at >= elapsed / 2), None)
    for sampler in samplers:
        sampler.cancel()
    await asyncio.gather(*samplers, return_exceptions=True)
    stored = await asyncio.to_thread(read_store, db_path)
    ratings = await ratings_check(run, stored)
    fill_after = effective_settings(config)["ladder_fill_after"]
    all_moves = sum(counts["moves"] for counts in stored["games"].values())
    server_figures = usage.summary()
    server_figures.update({
        "cpu_s": round(server_cpu, 2), "cpu_s_to_deadline": round(cpu_at_deadline, 2),
        "cpu_share": round(server_cpu / elapsed, 3) if elapsed else None,
        "cpu_ms_per_move": round(1000 * server_cpu / all_moves, 2) if all_moves else None,
        "rss_growth_second_half": round(server_figures["rss_mib"]["end"] - rss_half, 1) if rss_half else None})
    return {
        "started_at": started_at,
        "config": {**dataclasses.asdict(config), "server_settings_changed": ladder_settings(config),
                   "ladder_settings": effective_settings(config)},
        "seconds": round(elapsed, 1),
        "bots_registered": len(run.bots),
        "games": {"stored": stored["games"], "tables_seated": dict(Counter(run.tables.values())),
                  "rated": ratings.get("rated_by_game"), "non_ladder_stored": stored["non_ladder_games"],
                  "rating_mismatches": ratings.get("bot_mismatches"),
                  "records_seen_not_stored": records_seen_not_stored(run, db_path)},
        "moves_per_s": round(run.moves / config.seconds, 1),
        "all_moves_per_s": round(all_moves / elapsed, 1) if elapsed else None,
        "move_latency_ms": latency_summary(run.latencies),
        "waits_s": {**wait_figures(run, fill_after), "open_at_deadline": seconds_summary(open_waits)},
        "kinds": bot_figures(run),
        "pauses": [{"bot": bot.name, "kind": bot.kind, **pause} for bot in run.bots for pause in bot.pauses],
        "bots_at_end": ratings.get("bots"),
        "house": ratings.get("house"),
        "timeouts": timeouts_by_kind(run, server.log_path),
        "problems": {kind: dict(counts) for kind, counts in run.problems.counts.items()},
        "problem_examples": run.problems.examples,
        "server": server_figures,
        "queue_ping_ms": ping_figures(pings),
        "ladder_view_ms": latency_summary(views),
        "client_cpu_s": round(time.process_time() - client_cpu, 2),
        "client_loop_lag_ms": latency_summary(lag.lags),
        "timeline": {"every_s": TIMELINE_INTERVAL,
                     "columns": ["s", "bot moves", "server cpu s", "server rss MiB", "bots queued", "seats playing",
                                 "load average 1 min"], "rows": rows},
        "harness": {"bots_unfinished_at_drain_limit": len(unfinished), "tables_unfinished": tables_left,
                    "bot_crashes": [repr(outcome)[:400] for outcome in outcomes
                                    if isinstance(outcome, BaseException)]},
    }


async def tables_finished(run: LadderRun, deadline: float) -> int:
    """Wait until no table is in progress (a table that only vanished bots sat at plays on without them), or
    until ``deadline``; the tables still in progress then."""
    while True:
        reply = await run.http.get("/api/tables")
        busy = sum(1 for table in reply.json()["tables"] if table["status"] in ("waiting", "playing")) \
            if reply.status_code == 200 else -1
        if busy == 0 or time.monotonic() > deadline:
            return busy
        await asyncio.sleep(0.5)


def records_seen_not_stored(run: LadderRun, db_path: Path) -> int:
    """Record ids the bots were told at ``end`` that the database does not hold."""
    seen = {game.record_id for bot in run.bots for game in bot.games}
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as connection:
        held = {row[0] for row in connection.execute("SELECT record_id FROM finished_games")}
    return len(seen - held)


# Output.


def summary_lines(results: dict[str, Any]) -> list[str]:
    """The figures a person reads first."""
    games, waits, server = results["games"], results["waits_s"], results["server"]
    rss = server["rss_mib"]
    lines = [f"run: {results['seconds']} s ({results['config']['seconds']} s of load, then the games under way "
             f"finished); {results['bots_registered']} bots",
             "games stored " + ", ".join(f"{game} {counts['games']} ({counts['moves']} moves, longest "
                                         f"{counts['longest_moves']})" for game, counts in games["stored"].items())
             + f"; tables seated {games['tables_seated']}; rated {games['rated']}; "
             f"rating mismatches {len(games['rating_mismatches'] or [])}; end records not stored "
             f"{games['records_seen_not_stored']}",
             f"moves/s {results['moves_per_s']} by the bots, {results['all_moves_per_s']} in all; latency "
             f"p50 {results['move_latency_ms'].get('p50')} ms, p99 {results['move_latency_ms'].get('p99')} ms",
             f"wait queued→seated: {waits['all']} (bound {waits['bound_s']} s, {waits['over_bound']} over); "
             f"open at the deadline {waits['open_at_deadline']}"]
    for kind, figures in results["kinds"].items():
        lines.append(f"{kind}: {figures['bots']} bots, {figures['moves']} moves, {figures['games_seen']} games, "
                     f"{figures['bots_paused']} bots paused ({figures['pauses']} pauses), join refusals "
                     f"{figures['join_refusals']}, slept {figures['acts_slept']}, vanished {figures['vanishings']}, "
                     f"junk {figures['junk_sent']} ({figures['junk_refused']} refused), double seats "
                     f"{figures['double_seats']}")
        lines.extend(f"    {count} x {reason}" for reason, count in figures["pause_reasons"][:3])
    lines.append(f"timeouts by kind {results['timeouts']['by_kind']}, most at one seat "
                 f"{results['timeouts']['most_at_one_seat']}")
    lines.append(f"problems: {results['problems']}")
    lines.extend(f"  {example}" for example in results["problem_examples"][:8])
    lines.append(f"server: RSS start {rss['start']} MiB, peak {rss['peak']}, end {rss['end']} (growth "
                 f"{rss['growth']:+}, second half {server['rss_growth_second_half']}); CPU {server['cpu_s']} s "
                 f"({server['cpu_share']:.0%} of one core; {server['cpu_ms_per_move']} ms a move); clients' CPU "
                 f"{results['client_cpu_s']} s")
    ping, view, lag = results["queue_ping_ms"], results["ladder_view_ms"], results["client_loop_lag_ms"]
    lines.append(f"queue ping p50 {ping.get('p50')} ms, p99 {ping.get('p99')} ms, max {ping.get('max')} ms; ladder "
                 f"and bot pages p50 {view.get('p50')} ms, max {view.get('max')} ms; clients' loop lag p99 "
                 f"{lag.get('p99')} ms, max {lag.get('max')} ms")
    if log := results.get("server_log"):
        lines.append(f"server log: {log['tracebacks']} tracebacks, {log['move_timeouts']} moves by timeout")
        lines.extend(f"  {count} x {exception}" for exception, count in log["exceptions"])
    if machine := results.get("machine"):
        lines.append(f"load average at the end {machine['load_average']}")
    return lines


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=50, help="bots registered (default 50)")
    parser.add_argument("--minutes", type=float, default=1.0, help="length of the load (default 1)")
    parser.add_argument("--sleepy", type=int, default=4, help="bots that let moves time out (default 4)")
    parser.add_argument("--vanish", type=int, default=4, help="bots that drop their connections (default 4)")
    parser.add_argument("--garbage", type=int, default=4, help="bots that send junk (default 4)")
    parser.add_argument("--games", default=",".join(GAMES), help=f"games (default {','.join(GAMES)})")
    parser.add_argument("--house", default=",".join(HOUSE), help=f"house bots (default {','.join(HOUSE)})")
    parser.add_argument("--move-timeout", type=float, default=2.0, help="ladder_move_timeout (default 2 s)")
    parser.add_argument("--pause", type=float, default=60.0, help="ladder_pause (default 60 s)")
    parser.add_argument("--sleep-share", type=float, default=0.3, help="acts a sleepy bot lets time out (0.3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--keep-db", type=Path, help="copy the server's database (the games, the accounts) here")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    from common import machine

    config = LadderConfig(bots=arguments.bots, seconds=60 * arguments.minutes, sleepy=arguments.sleepy,
                          vanish=arguments.vanish, garbage=arguments.garbage,
                          games=tuple(arguments.games.split(",")), seed=arguments.seed,
                          house=tuple(name for name in arguments.house.split(",") if name),
                          move_timeout=arguments.move_timeout, pause=arguments.pause,
                          sleep_share=arguments.sleep_share)
    with tempfile.TemporaryDirectory(prefix="ladder-load-") as workdir:
        with arena_process(ladder_settings(config), Path(workdir)) as server:
            results = asyncio.run(run_ladder(config, server, Path(workdir) / "arena.sqlite3"))
        results["server_log"] = log_summary(server.log_path)
        if arguments.keep_db:
            shutil.copyfile(Path(workdir) / "arena.sqlite3", arguments.keep_db)
    results["command"] = " ".join(["python", "benchmarks/ladder_load.py", *(sys.argv[1:] if argv is None else argv)])
    results["machine"] = {**machine(), "load_average": os.getloadavg(), "clients_and_server": "same machine"}
    print("\n".join(summary_lines(results)))
    if arguments.out:
        arguments.out.write_text(json.dumps(results, indent=1, default=str) + "\n")
        print(f"every figure: {arguments.out}")


if __name__ == "__main__":
    sys.exit(main())
