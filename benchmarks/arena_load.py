"""Load, faults, leaks and fuzzing of the arena server (``paiju serve``), every seat a network client.

    python benchmarks/arena_load.py --tables 8 --minutes 1                      # load run
    python benchmarks/arena_load.py --tables 8 --minutes 1 --faults             # load plus abusive clients
    python benchmarks/arena_load.py --fuzz 10000                                # fuzzed messages to a live seat
    python benchmarks/arena_load.py --tables 8 --minutes 1 --seed 3 --out results.json

**Server.** The arena runs in a child process (this script with ``--serve-child``: ``create_app`` under uvicorn
on a free loopback port, a temporary SQLite file, its log written to a file), so that its memory (``VmRSS`` and
``VmHWM`` of ``/proc/PID/status``) and CPU time (``/proc/PID/stat``) are its own: in a thread of this process
they would include the clients, which keep every message they receive, and the clients would share the
server's interpreter lock. Its settings raise the per-client limits (every client here has one address) far
above this load (``serve_settings``).

**Load.** ``--tables N`` slots each play tables one after the other until ``--minutes`` pass; a slot's tables
go round doudizhu (full rules, with bidding), guandan (2 rounds, so that tribute and return are played) and
gongzhu. Every seat is a network client: a table is created over HTTP, half of them with ``human`` seats (the
tokens come back in the reply) and half with ``open`` seats, each reserved with ``POST
/api/tables/{id}/seats/{seat}``; each seat connects to ``/ws/tables/{id}?token=...`` and answers every ``act``
with a seeded random legal action, at once or (``--think S``) after a seeded pause of 0 to 2S seconds, as a bot
that computes or a person would. A game stops being started at the deadline; the games under way
finish.

**Figures.** *moves/s*: actions sent by the clients before the deadline, over the run's length. *Move
latency*: at the seat that acts, from the moment its client has written ``{"action": ...}`` to the moment the
client reads the next message, which is the server's answer to that action: the ``update`` showing it as
``last`` (checked), or a GuanDan round's ``start`` just before that ``update``. It includes the server's
work, both network hops and the delay of this process's event loop, which all clients share. *Errors*: an
``error`` message to a client that sent nothing wrong, a connection closed before ``end``, an HTTP refusal,
no message for ``message_limit`` seconds, an answer that is not the ``update`` of the action sent. *Games*:
finished (every seat got ``end``) and stored (``GET /api/records/{record_id}`` answers). *Server RSS*
(MiB) before the warm-up, at the start of the load, its peak (``VmHWM``), at the end, and growth (end minus
start), sampled every 0.5 s in between; the warm-up first asks every offered agent of each game to explain
one decision, because the first ``dmc`` explanation loads torch and a network into the server (about
+220 MiB, once), which would otherwise count as growth. *CPU* seconds of the server (and per move), of the
clients and of the leak checker's worker; the clients' *event loop lag* (how late a 50 ms sleep wakes),
which tells how much of the latency is this process's.

**Faults** (``--faults``): the same load, a short move timeout (2 s), plus one more slot per abusive client,
each playing tables where one seat is that client and the others are well-behaved clients (reported apart):
``vanish`` plays a few moves then drops the TCP connection without a closing handshake; ``stall`` reads
everything and never answers; ``nonreader`` sends pings without ever reading (raw socket, small receive
buffer), so the server's answers pile up; ``flood`` sends bursts of junk, oversize (over 16 KiB) and over
1 MiB messages while playing; ``garbage`` sends each of ``NASTY`` (not JSON, ``[`` * 10,000, integers of
5,000 digits, binary, ...) and expects one ``error`` for each. After the run a new table must still be
served. The server's log is searched for tracebacks.

**Leaks**: every well-behaved seat's messages are kept in order (as text) and, once its game is stored,
checked against the replayed record (``arena_leaks``, in a worker process): leaked cards, and messages that
differ from the engine's view (mismatches).

**Fuzz** (``--fuzz N``): N random messages (``fuzz_message``) sent one at a time to a seat whose ``act`` is
pending; each must get one answer (``error``, or ``pong`` / ``explain`` for the forms that ask for them) and
the connection must stay open; the seat answers its act every ``FUZZ_ANSWER_EVERY`` messages, so the
messages reach every phase of play.

The script measures and prints; it asserts nothing (``tests/serve/test_arena_load.py`` does, on short runs).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import gc
import json
import os
import random
import resource
import select
import signal
import socket
import string
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from websockets.asyncio.client import ClientConnection

from arena_leaks import LeakReport, check_game
from paiju import load_game
from paiju.serve.app import GC_YOUNG

GAMES = ("doudizhu", "guandan", "gongzhu")
GAME_RULES: dict[str, dict[str, Any] | None] = {"doudizhu": {"mode": "full"}, "guandan": {"rounds": 2},
                                                 "gongzhu": None}
FAULT_KINDS = ("vanish", "stall", "nonreader", "flood", "garbage")
STARTUP_LIMIT = 60.0
"""Seconds the server may take to start."""
MAX_EXAMPLES = 20
MAX_CLIENT_MESSAGE = 16_384
"""The server's limit on a client message (characters); longer ones are refused with ``error``."""
FUZZ_ANSWER_EVERY = 25
FUZZ_REPLY_LIMIT = 10.0

Message = dict[str, Any]
Payload = str | bytes


@dataclass(frozen=True, slots=True)
class LoadConfig:
    """What a run plays."""

    tables: int = 4
    """Slots of well-behaved tables played at once."""
    seconds: float = 60.0
    faults: bool = False
    seed: int = 0
    games: tuple[str, ...] = GAMES
    fault_games: tuple[str, ...] = GAMES
    fault_kinds: tuple[str, ...] = FAULT_KINDS
    move_timeout: float | None = None
    """The server's move timeout; default 30 s, 2 s with faults."""
    warm_up: bool = True
    """Load every agent's models into the server before measuring (``warm_up``)."""
    check_leaks: bool = True
    check_workers: int = 1
    """Worker processes for the leak checker; 0 checks in a thread of this process."""
    nonreader_pings: int = 300_000
    """Most pings one ``nonreader`` client sends."""
    nonreader_hold: float = 30.0
    """Seconds a ``nonreader`` keeps its socket after the game, waiting to be disconnected."""
    flood_bursts: int = 200
    """Most bursts one ``flood`` client sends (``FLOOD_BURST`` messages each)."""
    think: float = 0.0
    """Mean seconds a well-behaved client thinks before it answers an ``act`` (uniform over 0 .. 2 × ``think``,
    drawn from its seat's generator; 0: it answers at once)."""
    message_limit: float = 30.0
    """Seconds a client waits for the server's next message before counting an error."""
    drain_limit: float = 180.0
    """Seconds the games under way at the deadline may take to finish."""

    @property
    def server_move_timeout(self) -> float:
        return self.move_timeout if self.move_timeout is not None else (2.0 if self.faults else 30.0)


def serve_settings(config: LoadConfig) -> dict[str, Any]:
    """The server's settings for ``config``: its move timeout, and caps far above the run's own load."""
    slots = config.tables + (len(config.fault_kinds) if config.faults else 0) + 8
    return {"move_timeout": config.server_move_timeout, "max_tables": 4 * slots, "max_tables_per_client": 4 * slots,
            "max_reservations_per_client": 16 * slots, "requests_per_minute": 1_000_000}


# The server, in a child process.


@dataclass(frozen=True, slots=True)
class ArenaServer:
    url: str
    pid: int
    log_path: Path


def serve_child(options: str) -> None:
    """The child's side of ``arena_process``: build the settings, print the port, serve until SIGTERM."""
    import uvicorn

    from paiju.serve.cli import uvicorn_config
    from paiju.serve.settings import ServeSettings

    overrides = json.loads(options)
    known = {setting.name for setting in dataclasses.fields(ServeSettings)}
    if unknown := sorted(set(overrides) - known):
        print(f"arena_load: settings this server does not have, ignored: {', '.join(unknown)}", file=sys.stderr)
    paths = {"db_path", "static_dir"}
    settings = ServeSettings(**{name: Path(value) if name in paths else value
                                for name, value in overrides.items() if name in known})
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.bind(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    uvicorn.Server(uvicorn_config(settings, "127.0.0.1", listener.getsockname()[1], log_level="warning")).run(
        sockets=[listener])


@contextmanager
def arena_process(settings: dict[str, Any], workdir: Path) -> Iterator[ArenaServer]:
    """Run the arena in a child process with ``settings`` (``ServeSettings`` fields; a database in
    ``workdir``); its log goes to ``workdir / "server.log"``. Stopped with SIGTERM (then SIGKILL) after."""
    log_path = workdir / "server.log"
    options = json.dumps({"db_path": str(workdir / "arena.sqlite3"), **settings})
    with open(log_path, "w") as log:
        child = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve-child", options],
                                 stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        url = f"http://127.0.0.1:{_child_port(child)}"
        _wait_until_serving(url, child)
        yield ArenaServer(url, child.pid, log_path)
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


def _child_port(child: subprocess.Popen[str]) -> int:
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], STARTUP_LIMIT)
    line = child.stdout.readline() if ready else ""
    if not line.strip().isdigit():
        raise RuntimeError(f"the arena did not start (exit status {child.poll()}); see its log")
    return int(line)


def _wait_until_serving(url: str, child: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + STARTUP_LIMIT
    while time.monotonic() < deadline and child.poll() is None:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/games", timeout=5, trust_env=False).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the arena at {url} did not answer (exit status {child.poll()}); see its log")


@dataclass
class ServerUsage:
    """The server process's memory and CPU, sampled every ``interval`` seconds."""

    pid: int
    interval: float = 0.5
    samples: list[tuple[float, float]] = field(default_factory=list)
    """(seconds since the first sample, RSS in MiB)."""
    start_cpu: float = 0.0
    start: float = 0.0
    before_warm_up: float | None = None
    """RSS (MiB) before the warm-up's explain requests loaded the agents' models."""

    def sample(self) -> float:
        rss, _peak = read_memory(self.pid)
        if not self.samples:
            self.start, self.start_cpu = time.monotonic(), read_cpu(self.pid)
        self.samples.append((round(time.monotonic() - self.start, 2), rss))
        return rss

    async def run(self) -> None:
        while True:
            with contextlib.suppress(OSError):
                self.sample()
            await asyncio.sleep(self.interval)

    def summary(self) -> dict[str, Any]:
        rss, peak = read_memory(self.pid)
        start = self.samples[0][1] if self.samples else rss
        step = max(1, len(self.samples) // 200)
        return {"rss_mib": {"before_warm_up": self.before_warm_up, "start": round(start, 1), "peak": round(peak, 1),
                            "end": round(rss, 1), "growth": round(rss - start, 1),
                            "max_sampled": round(max((value for _, value in self.samples), default=rss), 1)},
                "cpu_s": round(read_cpu(self.pid) - self.start_cpu, 2),
                "rss_samples": self.samples[::step]}


@dataclass
class LoopLag:
    """How late this process's event loop wakes a task that sleeps ``interval`` seconds: the delay every
    client's message waits for on top of the server and the network."""

    interval: float = 0.05
    lags: list[float] = field(default_factory=list)

    async def run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.lags.append(time.perf_counter() - before - self.interval)


def read_memory(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of process ``pid`` in MiB."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["VmHWM"]


def read_cpu(pid: int) -> float:
    """User plus system CPU seconds of process ``pid``."""
    with open(f"/proc/{pid}/stat") as stat:
        after_name = stat.read().rpartition(")")[2].split()
    return (int(after_name[11]) + int(after_name[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended (the leak checker's workers, once shut down)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


TRACEBACK = "Traceback (most recent call last):"


def log_summary(path: Path) -> dict[str, Any]:
    """What the server logged: tracebacks (each one's exception line), and counts of other lines."""
    lines = path.read_text(errors="replace").splitlines()
    exceptions = []
    for number, line in enumerate(lines):
        if line.startswith(TRACEBACK):
            following = (text for text in lines[number + 1:] if text and not text.startswith((" ", "\t")))
            exceptions.append(next(following, "?")[:300])
    timeouts = sum("made no move within" in line for line in lines)
    return {"lines": len(lines), "tracebacks": len(exceptions), "exceptions": Counter(exceptions).most_common(),
            "move_timeouts": timeouts,
            "error_lines": [line[:300] for line in lines if line.startswith("ERROR")][:MAX_EXAMPLES]}


# Well-behaved clients.


@dataclass
class Group:
    """The figures of a group of well-behaved clients (the load's, or those at the fault tables)."""

    moves: int = 0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    """Move latencies (seconds) by game."""
    tables: Counter[str] = field(default_factory=Counter)
    finished: Counter[str] = field(default_factory=Counter)
    stored: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    error_examples: list[str] = field(default_factory=list)

    def error(self, kind: str, detail: str) -> None:
        self.errors[kind] += 1
        if len(self.error_examples) < MAX_EXAMPLES:
            self.error_examples.append(f"{kind}: {detail}"[:400])

    def summary(self, seconds: float, moves: int | None = None) -> dict[str, Any]:
        moves = self.moves if moves is None else moves
        return {"tables": dict(self.tables), "games_finished": dict(self.finished),
                "games_stored": self.stored, "moves": self.moves,
                "moves_per_s": round(moves / seconds, 1) if seconds > 0 else None,
                "latency_ms": latency_summary([value for values in self.latencies.values() for value in values]),
                "latency_ms_by_game": {game: latency_summary(values)
                                       for game, values in sorted(self.latencies.items())},
                "errors": dict(self.errors),
                "error_examples": self.error_examples}


def latency_summary(latencies: list[float]) -> dict[str, Any]:
    if not latencies:
        return {"count": 0}
    ordered = sorted(latencies)

    def at(fraction: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 2)

    return {"count": len(ordered), "p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0)}


class Checker:
    """Runs ``check_game`` on each finished game in worker processes (or a thread), collecting the reports."""

    def __init__(self, workers: int) -> None:
        self.executor: Executor | None = (ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
                                          if workers else None)
        self.report = LeakReport()
        self.failures: list[str] = []
        self.pending: set[asyncio.Future[LeakReport]] = set()

    def submit(self, record: Message, received: dict[int, list[str]]) -> None:
        future = asyncio.get_running_loop().run_in_executor(self.executor, check_game, record, received)
        self.pending.add(future)
        future.add_done_callback(self._collect)

    def _collect(self, future: asyncio.Future[LeakReport]) -> None:
        self.pending.discard(future)
        if future.cancelled():
            return
        if (error := future.exception()) is not None:
            self.failures.append(f"{type(error).__name__}: {error}"[:400])
        else:
            self.report.add(future.result())

    async def wait(self) -> None:
        if self.pending:
            await asyncio.gather(*self.pending, return_exceptions=True)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)
            self.executor = None

    def summary(self) -> dict[str, Any]:
        return {**self.report.to_json(), "checker_failures": self.failures}


@dataclass
class Run:
    """Everything the clients of one run share."""

    url: str
    http: httpx.AsyncClient
    config: LoadConfig
    checker: Checker | None
    rng: random.Random
    deadline: float = 0.0

    def socket_url(self, table_id: str, token: str) -> str:
        return f"ws{self.url.removeprefix('http')}/ws/tables/{table_id}?token={token}"

    def before_deadline(self) -> bool:
        return time.monotonic() < self.deadline


@dataclass(frozen=True, slots=True)
class SeatedTable:
    table_id: str
    game: str
    tokens: dict[int, str]


@dataclass
class SeatRun:
    """What one seat's client received, in order (the text of each message: a few long-lived strings cost the
    clients' garbage collector far less than the parsed messages would), and its ``end`` (None if it never
    came)."""

    seat: int
    messages: list[str] = field(default_factory=list)
    end: Message | None = None
    acts: int = 0


async def connect(run: Run, table: SeatedTable, seat: int, compression: str | None = "deflate") -> ClientConnection:
    return await websockets.connect(run.socket_url(table.table_id, table.tokens[seat]), max_size=None,
                                    proxy=None, ping_interval=None, open_timeout=run.config.message_limit,
                                    compression=compression)


async def create_table(run: Run, group: Group, game: str, seat_kind: str, seed: int | None = None
                       ) -> SeatedTable | None:
    """A new table of ``game`` whose every seat is ``seat_kind`` (``human`` or ``open``, then reserved), with
    each seat's token; None after an HTTP refusal (counted as an error). A ``human`` table is dealt from
    ``seed`` (default: drawn from the run's seed); the server deals an ``open`` one at random."""
    players = load_game(game).num_players
    body: Message = {"game": game, "seats": [seat_kind] * players}
    if GAME_RULES[game] is not None:
        body["rules"] = GAME_RULES[game]
    if seat_kind == "human":
        body["seed"] = run.rng.randrange(2**32) if seed is None else seed
    reply = await run.http.post("/api/tables", json=body)
    if reply.status_code != 201:
        group.error("http", f"POST /api/tables: {reply.status_code} {reply.text[:200]}")
        return None
    created = reply.json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"] if "token" in seat}
    for seat in range(players):
        if seat in tokens:
            continue
        reserved = await run.http.post(f"/api/tables/{created['table_id']}/seats/{seat}")
        if not reserved.is_success:
            group.error("http", f"POST /api/tables/.../seats/{seat}: {reserved.status_code} {reserved.text[:200]}")
            return None
        tokens[seat] = reserved.json()["token"]
    group.tables[game] += 1
    return SeatedTable(created["table_id"], game, tokens)


async def play_seat(run: Run, group: Group, table: SeatedTable, seat: int, rng: random.Random,
                    answer: bool = True) -> SeatRun:
    """A client at ``seat`` that answers each ``act`` with a random legal action (``answer=False``: never
    answers, a staller) until ``end``, keeping every message when leaks are checked; problems are ``group``'s
    errors."""
    played = SeatRun(seat)
    where = f"{table.game} {table.table_id} seat {seat}"
    try:
        connection = await connect(run, table, seat)
    except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
        group.error("connect", f"{where}: {error!r}")
        return played
    async with connection:
        sent_at: float | None = None
        sent: Any = None
        while True:
            try:
                async with asyncio.timeout(run.config.message_limit):
                    raw = await connection.recv()
            except TimeoutError:
                group.error("timeout", f"{where}: no message in {run.config.message_limit} s")
                return played
            except websockets.ConnectionClosed as closed:
                group.error("closed", f"{where}: closed before end: {closed}")
                return played
            now = time.perf_counter()
            text = raw if isinstance(raw, str) else '{"type": "binary"}'
            if run.checker is not None:
                played.messages.append(text)
            message = orjson.loads(text)
            if sent_at is not None:
                group.latencies.setdefault(table.game, []).append(now - sent_at)
                sent_at = None
            kind = message.get("type")
            if kind == "update" and sent is not None:
                if message.get("last") != {"seat": seat, "action": sent}:
                    group.error("unexpected", f"{where}: sent {sent!r}, then got update with last "
                                              f"{message.get('last')!r}")
                sent = None
            if kind == "act":
                played.acts += 1
                if answer:
                    sent = rng.choice(message["legal"])
                    if run.config.think:
                        await asyncio.sleep(rng.uniform(0.0, 2.0 * run.config.think))
                    await connection.send(orjson.dumps({"action": sent}).decode())
                    sent_at = time.perf_counter()
                    group.moves += 1
            elif kind == "end":
                played.end = message
                return played
            elif kind == "error":
                group.error("error message", f"{where}: {message.get('message')}")


async def finish_table(run: Run, group: Group, table: SeatedTable, seats: list[SeatRun]) -> None:
    """Count a finished game, fetch its record, and hand the seats' messages to the leak checker."""
    ends = [played.end for played in seats]
    if not ends or any(end is None for end in ends):
        return
    record_ids = {end["record_id"] for end in ends if end is not None}
    if len(record_ids) != 1:
        group.error("unexpected", f"{table.table_id}: seats were told of different records {record_ids}")
        return
    group.finished[table.game] += 1
    record_id = record_ids.pop()
    reply = await run.http.get(f"/api/records/{record_id}")
    if reply.status_code != 200:
        group.error("http", f"GET /api/records/{record_id}: {reply.status_code} {reply.text[:200]}")
        return
    group.stored += 1
    if run.checker is not None:
        run.checker.submit(reply.json(), {played.seat: played.messages for played in seats})


def seat_rngs(run: Run, table: SeatedTable) -> dict[int, random.Random]:
    return {seat: random.Random(run.rng.randrange(2**32)) for seat in table.tokens}


async def load_slot(run: Run, group: Group, slot: int) -> None:
    """Play tables one after the other until the deadline (games in turn, ``human`` and ``open`` seats)."""
    games = run.config.games
    number = 0
    while run.before_deadline():
        game = games[(slot + number) % len(games)]
        table = await create_table(run, group, game, "open" if (slot + number) % 2 else "human")
        number += 1
        if table is None:
            await asyncio.sleep(0.5)
            continue
        await play_table(run, group, table, seat_rngs(run, table))


async def play_table(run: Run, group: Group, table: SeatedTable, rngs: dict[int, random.Random]) -> list[SeatRun]:
    """Play every seat of ``table`` with a well-behaved client choosing with ``rngs[seat]``; count the game
    and check it for leaks."""
    seats = list(await asyncio.gather(*(play_seat(run, group, table, seat, rngs[seat]) for seat in table.tokens)))
    await finish_table(run, group, table, seats)
    return seats


# Abusive clients.

FaultClient = Callable[["Run", SeatedTable, int, random.Random, asyncio.Event], Awaitable[dict[str, Any]]]


def fault_slot(kind: str) -> Callable[[Run, Group, dict[str, list[dict[str, Any]]], int], Awaitable[None]]:
    async def slot(run: Run, group: Group, outcomes: dict[str, list[dict[str, Any]]], number: int) -> None:
        games = run.config.fault_games
        while run.before_deadline():
            game = games[number % len(games)]
            number += 1
            table = await create_table(run, group, game, "open" if number % 2 else "human")
            if table is None:
                await asyncio.sleep(0.5)
                continue
            outcomes[kind].append(await play_fault_table(run, group, table, kind))
    return slot


async def play_fault_table(run: Run, group: Group, table: SeatedTable, kind: str) -> dict[str, Any]:
    """One table where a random seat is the abusive client ``kind`` and the others are well-behaved."""
    rngs = seat_rngs(run, table)
    abuser = run.rng.choice(sorted(table.tokens))
    game_over = asyncio.Event()
    if kind == "stall":
        staller = asyncio.create_task(play_seat(run, group, table, abuser, rngs[abuser], answer=False))
    else:
        abusive = asyncio.create_task(FAULT_CLIENTS[kind](run, table, abuser, rngs[abuser], game_over))
    others = await asyncio.gather(*(play_seat(run, group, table, seat, rngs[seat])
                                    for seat in table.tokens if seat != abuser))
    game_over.set()
    if kind == "stall":
        stalled = await staller
        outcome = {"acts_unanswered": stalled.acts, "got_end": stalled.end is not None}
        seats = [*others, stalled]
    else:
        outcome = await abusive
        seats = list(others)
    await finish_table(run, group, table, seats)
    stored = all(played.end is not None for played in others)
    return {"kind": kind, "game": table.game, "seat": abuser, "game_stored": stored, **outcome}


async def vanish(run: Run, table: SeatedTable, seat: int, rng: random.Random, game_over: asyncio.Event
                 ) -> dict[str, Any]:
    """Play a few moves, then drop the TCP connection without a closing handshake."""
    planned, played = rng.randint(0, 6), 0
    connection = await connect(run, table, seat)
    with contextlib.suppress(websockets.ConnectionClosed, TimeoutError):
        while played < planned:
            message = json.loads(await asyncio.wait_for(connection.recv(), run.config.message_limit))
            if message["type"] == "act":
                await connection.send(json.dumps({"action": rng.choice(message["legal"])}))
                played += 1
            elif message["type"] == "end":
                break
    connection.transport.abort()
    await game_over.wait()
    return {"moves_before_vanishing": played}


def websocket_frame(payload: bytes, opcode: int = 1) -> bytes:
    """A masked client frame (RFC 6455) carrying ``payload`` whole."""
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload)) if length < 4096 else (
        (int.from_bytes(payload, "big") ^ int.from_bytes((mask * (length // 4 + 1))[:length], "big"))
        .to_bytes(length, "big"))
    return header + mask + masked


def tcp_state(sock: socket.socket) -> int:
    """The socket's TCP state (1 established, 7 closed, 8 close-wait: the server closed its side)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


async def nonreader(run: Run, table: SeatedTable, seat: int, rng: random.Random, game_over: asyncio.Event
                    ) -> dict[str, Any]:
    """Open the seat's websocket over a raw socket with a 4 KiB receive buffer, send pings, never read.

    Reports the pings sent, whether the server stopped taking them (a send blocked for 2 s), and whether and
    when (seconds from the connection) the server dropped the connection: the socket's TCP state, which
    needs no reading, leaves ``established``."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    host, port = run.url.removeprefix("http://").split(":")
    started = time.monotonic()
    await loop.sock_connect(sock, (host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    path = run.socket_url(table.table_id, table.tokens[seat]).partition(f":{port}")[2]
    await loop.sock_sendall(sock, (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    chunk = websocket_frame(b'{"type":"ping"}') * 1000
    sent, blocked, sending_for = 0, False, 0.0
    dropped_after: float | None = None
    watcher = asyncio.create_task(_until_dropped(sock, game_over, run.config.nonreader_hold))
    try:
        while sent < run.config.nonreader_pings and not watcher.done():
            try:
                await asyncio.wait_for(loop.sock_sendall(sock, chunk), 2.0)
            except TimeoutError:
                blocked = True
                break
            sent += 1000
            await asyncio.sleep(0)
        sending_for = round(time.monotonic() - started, 1)
    except OSError:
        pass
    try:
        if await watcher:
            dropped_after = round(time.monotonic() - started, 1)
    finally:
        sock.close()
    return {"pings_sent": sent, "seconds_sending": sending_for, "server_stopped_reading": blocked,
            "disconnected": dropped_after is not None, "seconds_to_disconnect": dropped_after}


async def _until_dropped(sock: socket.socket, game_over: asyncio.Event, hold: float) -> bool:
    """Poll the socket's TCP state until the server closes it (True) or ``hold`` seconds after the game
    (False)."""
    hold_until: float | None = None
    while hold_until is None or time.monotonic() < hold_until:
        if tcp_state(sock) != 1:
            return True
        if hold_until is None and game_over.is_set():
            hold_until = time.monotonic() + hold
        await asyncio.sleep(0.1)
    return False


FLOOD_BURST = 100
"""Messages in one burst of a ``flood`` client."""
FLOOD_CLOSES = ("1009", "1008", "1006")
"""How the server may end a flooder's connection: 1009 (a message over 1 MiB), 1008 (more answers waited to be
written than ``max_queued_messages``), 1006 (the socket closed without a close frame reaching the client,
which was still sending)."""


async def flood(run: Run, table: SeatedTable, seat: int, rng: random.Random, game_over: asyncio.Event
                ) -> dict[str, Any]:
    """Play the seat, and meanwhile send bursts of junk: short junk, messages over 16 KiB, and every tenth
    burst one over 1 MiB (which uvicorn refuses by closing with 1009); reconnect after any close."""
    stats: Counter[str] = Counter()
    closes: Counter[str] = Counter()
    bursts = 0
    while not game_over.is_set() and stats["reconnects"] < 50:
        try:
            connection = await connect(run, table, seat, compression=None)
        except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
            closes[f"connect failed: {type(error).__name__}"] += 1
            break
        reader = asyncio.create_task(_answer_acts(connection, rng, stats))
        try:
            while not game_over.is_set() and not reader.done() and bursts < run.config.flood_bursts:
                bursts += 1
                for number in range(FLOOD_BURST):
                    await connection.send(flood_message(rng, huge=bursts % 10 == 0 and number == 0))
                    stats["sent"] += 1
                await asyncio.sleep(0.05)
            over = asyncio.create_task(game_over.wait())
            await asyncio.wait({reader, over}, return_when=asyncio.FIRST_COMPLETED)
            over.cancel()
        except websockets.ConnectionClosed:
            pass
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, websockets.ConnectionClosed):
            await reader
        if stats["ended"] or connection.close_code is None:
            await connection.close()
            break
        closes[f"{connection.close_code} {connection.close_reason or ''}".strip()[:80]] += 1
        stats["reconnects"] += 1
    await game_over.wait()
    return {"bursts": bursts, **stats, "closes": dict(closes)}


def flood_message(rng: random.Random, huge: bool) -> str:
    if huge:
        return '{"action": "' + "x" * (2 << 20) + '"}'
    if rng.random() < 0.2:
        return json.dumps({"type": "ping", "pad": "y" * rng.randint(MAX_CLIENT_MESSAGE, 4 * MAX_CLIENT_MESSAGE)})
    return fuzz_message(rng)


async def _answer_acts(connection: ClientConnection, rng: random.Random, stats: Counter[str]) -> None:
    """Read everything: answer each act legally, count the answers, stop at end."""
    async for raw in connection:
        message = json.loads(raw)
        stats[f"got {message['type']}"] += 1
        if message["type"] == "act":
            await connection.send(json.dumps({"action": rng.choice(message["legal"])}))
        elif message["type"] == "end":
            stats["ended"] += 1
            return


NASTY: tuple[tuple[str, Payload], ...] = (
    ("not JSON", "hello, arena"),
    ("empty text", ""),
    ("truncated JSON", '{"action": '),
    ("[ x 10,000", "[" * 10_000),
    ("{ x 3,000", '{"a":' * 3_000),
    ("closed nesting 5,000 deep", "[" * 5_000 + "]" * 5_000),
    ("action nested 900 deep", '{"action": ' + "[" * 900 + "]" * 900 + "}"),
    ("action nested 990 deep", '{"action": ' + "[" * 990 + "]" * 990 + "}"),
    ("integer of 5,000 digits", "9" * 5_000),
    ("action of 5,000 digits", '{"action": ' + "9" * 5_000 + "}"),
    ("action of -4,301 digits", '{"action": -' + "1" * 4_301 + "}"),
    ("action 1e999999", '{"action": 1e999999}'),
    ("action NaN", '{"action": NaN}'),
    ("action -Infinity", '{"action": -Infinity}'),
    ("escaped lone surrogate", '{"action": "\\ud800"}'),
    ("agent lone surrogate", '{"type": "explain", "agent": "\\udfff"}'),
    ("NUL", "\x00"),
    ("byte order mark", '\ufeff{"type": "ping"}'),
    ("null", "null"),
    ("array", "[]"),
    ("string ping", '"ping"'),
    ("unknown type", '{"type": "act"}'),
    ("type object", '{"type": {"type": "ping"}}'),
    ("explain ext agent", '{"type": "explain", "agent": "ext:sh -c id"}'),
    ("explain agent list", '{"type": "explain", "agent": ["random"]}'),
    ("illegal action", '{"action": "not a card"}'),
    ("duplicate action keys", '{"action": 1, "action": [2]}'),
    ("1,500 keys", json.dumps({str(number): number for number in range(1_500)})),
    ("16 KiB + 1", "x" * (MAX_CLIENT_MESSAGE + 1)),
    ("100 KiB action", '{"action": "' + "x" * 100_000 + '"}'),
    ("binary", b"\x00\xff" * 100),
    ("binary JSON", b'{"type": "ping"}'),
    ("empty binary", b""),
)
"""Messages a garbage client sends, each to be answered with one ``error``, the connection kept."""


async def garbage(run: Run, table: SeatedTable, seat: int, rng: random.Random, game_over: asyncio.Event
                  ) -> dict[str, Any]:
    """At the first ``act``, send each of ``NASTY`` and wait for its answer; then play on."""
    answers: dict[str, str] = {}
    connection = await connect(run, table, seat)
    try:
        while True:
            message = json.loads(await asyncio.wait_for(connection.recv(), run.config.message_limit))
            if message["type"] == "act":
                break
            if message["type"] == "end":
                return {"answers": answers, "problems": ["the game ended before the seat's first act"]}
        for name, payload in NASTY:
            answers[name], connection = await _send_and_read_answer(run, table, seat, connection, payload)
        await _answer_acts(connection, rng, Counter())
    except (websockets.ConnectionClosed, TimeoutError) as error:
        answers["(playing on)"] = f"{type(error).__name__}: {error}"
    finally:
        await connection.close()
    problems = [f"{name}: {answer}" for name, answer in answers.items() if answer != "error"]
    return {"answers": dict(Counter(answers.values())), "problems": problems}


async def _send_and_read_answer(run: Run, table: SeatedTable, seat: int, connection: ClientConnection,
                                payload: Payload) -> tuple[str, ClientConnection]:
    """Send ``payload``; the type of the first message that answers it (game messages skipped), or how the
    connection ended (then a new connection to the seat is returned)."""
    try:
        await connection.send(payload)
        deadline = time.monotonic() + FUZZ_REPLY_LIMIT
        while True:
            raw = await asyncio.wait_for(connection.recv(), max(0.0, deadline - time.monotonic()))
            kind = json.loads(raw)["type"]
            if kind not in ("update", "act", "start", "welcome", "end"):
                return kind, connection
    except TimeoutError:
        return "no answer", connection
    except websockets.ConnectionClosed:
        closed = f"closed {connection.close_code} {connection.close_reason or ''}".strip()
        return closed, await connect(run, table, seat)


FAULT_CLIENTS: dict[str, FaultClient] = {"vanish": vanish, "nonreader": nonreader, "flood": flood,
                                         "garbage": garbage}


def fault_problems(kind: str, outcomes: list[dict[str, Any]]) -> list[str]:
    """What the server did wrong to clients of ``kind`` (well-behaved seats' problems are ``Group`` errors)."""
    problems = []
    for outcome in outcomes:
        where = f"{kind} at {outcome['game']} seat {outcome['seat']}"
        if not outcome["game_stored"]:
            problems.append(f"{where}: the other seats' game did not end")
        problems.extend(f"{where}: {problem}" for problem in outcome.get("problems", []))
        if kind == "nonreader" and outcome["server_stopped_reading"] and not outcome["disconnected"]:
            problems.append(f"{where}: the server stopped reading, yet kept the connection after the game")
        if kind == "flood":
            bad = {close: count for close, count in outcome["closes"].items() if close.split()[0] not in FLOOD_CLOSES}
            if bad:
                problems.append(f"{where}: connection closed with codes {bad} (expected: {', '.join(FLOOD_CLOSES)})")
    return problems


async def warm_up(run: Run, games: tuple[str, ...]) -> None:
    """Ask every offered agent of each game to explain a decision once, so that the models the agents load
    on first use (the ``dmc`` agents load torch and their networks) are in the server before the load."""
    offered = (await run.http.get("/api/games")).json()["games"]
    for game in games:
        reply = await run.http.post("/api/tables", json={"game": game, "seats": ["human"] + ["random"] * (
            offered[game]["num_players"] - 1)})
        created = reply.json()
        table = SeatedTable(created["table_id"], game, {0: created["seats"][0]["token"]})
        async with await connect(run, table, 0) as connection:
            while json.loads(await connection.recv())["type"] != "act":
                pass
            for agent in offered[game]["agents"]:
                await connection.send(json.dumps({"type": "explain", "agent": agent}))
                while json.loads(await connection.recv())["type"] not in ("explain", "error"):
                    pass


async def serves_a_new_table(run: Run) -> bool:
    """Whether the server still creates a table (gongzhu: one client, three random bots) and plays it to a
    stored game."""
    reply = await run.http.post("/api/tables", json={"game": "gongzhu", "seats": ["human", "random", "random",
                                                                                  "random"]})
    if reply.status_code != 201:
        return False
    created = reply.json()
    table = SeatedTable(created["table_id"], "gongzhu", {0: created["seats"][0]["token"]})
    group = Group()
    played = await play_seat(run, group, table, 0, random.Random(0))
    if played.end is None:
        return False
    return (await run.http.get(f"/api/records/{played.end['record_id']}")).status_code == 200


# The runs.


TIMELINE_INTERVAL = 5.0


async def _timeline(rows: list[tuple[float, int, float, float]], load: Group, usage: ServerUsage) -> None:
    """Every ``TIMELINE_INTERVAL`` seconds: the load's moves so far, the server's CPU seconds and RSS, so that
    a slowdown or a growth during the run shows."""
    start = time.monotonic()
    while True:
        with contextlib.suppress(OSError):
            rows.append((round(time.monotonic() - start, 1), load.moves,
                         round(read_cpu(usage.pid) - usage.start_cpu, 2), round(read_memory(usage.pid)[0], 1)))
        await asyncio.sleep(TIMELINE_INTERVAL)


async def run_load(config: LoadConfig, server: ArenaServer) -> dict[str, Any]:
    """Play ``config``'s load (and faults) against ``server``; every figure, as JSON. The clients' process collects
    garbage as the server does (``paiju.serve.app.GC_YOUNG``): each message they read makes many short-lived objects."""
    checker = Checker(config.check_workers) if config.check_leaks else None
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=config.message_limit, trust_env=False) as http:
            return await _measure(Run(server.url, http, config, checker, random.Random(config.seed)), server)
    finally:
        if checker is not None:
            checker.close()


async def _measure(run: Run, server: ArenaServer) -> dict[str, Any]:
    config, checker = run.config, run.checker
    usage = ServerUsage(server.pid)
    load, faulted = Group(), Group()
    outcomes: dict[str, list[dict[str, Any]]] = {kind: [] for kind in config.fault_kinds}
    usage.before_warm_up = round(usage.sample(), 1)
    if config.warm_up:
        await warm_up(run, tuple(dict.fromkeys(config.games + (config.fault_games if config.faults else ()))))
    usage.samples.clear()
    usage.sample()
    lag = LoopLag()
    timeline: list[tuple[float, int, float, float]] = []
    samplers = [asyncio.create_task(usage.run()), asyncio.create_task(lag.run()),
                asyncio.create_task(_timeline(timeline, load, usage))]
    client_cpu, checker_cpu = time.process_time(), children_cpu()
    start = time.perf_counter()
    run.deadline = time.monotonic() + config.seconds
    slots = [load_slot(run, load, slot) for slot in range(config.tables)]
    if config.faults:
        slots += [fault_slot(kind)(run, faulted, outcomes, number) for number, kind in enumerate(config.fault_kinds)]
    tasks = [asyncio.create_task(slot) for slot in slots]
    await asyncio.sleep(config.seconds)
    moves_at_deadline, cpu_at_deadline = load.moves + faulted.moves, read_cpu(server.pid) - usage.start_cpu
    load_moves_at_deadline = load.moves
    done, unfinished = await asyncio.wait(tasks, timeout=config.drain_limit) if tasks else (set(), set())
    for task in unfinished:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    crashed = [repr(task.exception())[:400] for task in done if task.exception() is not None]
    elapsed = time.perf_counter() - start
    if checker is not None:
        await checker.wait()
        checker.close()
    survived = await serves_a_new_table(run) if config.faults else None
    for sampler in samplers:
        sampler.cancel()
    results: dict[str, Any] = {
        "config": {**dataclasses.asdict(config), "server_settings": serve_settings(config)},
        "seconds": round(elapsed, 1),
        "load": load.summary(config.seconds, load_moves_at_deadline),
        "server": usage.summary(),
        "client_cpu_s": round(time.process_time() - client_cpu, 2),
        "checker_cpu_s": round(children_cpu() - checker_cpu, 2),
        "client_loop_lag_ms": latency_summary(lag.lags),
        "timeline": {"every_s": TIMELINE_INTERVAL, "columns": ["s", "load moves", "server cpu s", "server rss MiB"],
                     "rows": timeline},
        "leaks": checker.summary() if checker is not None else None,
        "harness": {"slots_unfinished_at_drain_limit": len(unfinished), "slot_crashes": crashed},
    }
    if config.faults:
        results["fault_tables"] = faulted.summary(config.seconds)
        results["faults"] = {kind: {"tables": len(found), "outcomes": found[:MAX_EXAMPLES],
                                    "problems": fault_problems(kind, found)} for kind, found in outcomes.items()}
        results["survived"] = survived
    results["server"]["cpu_s_to_deadline"] = round(cpu_at_deadline, 2)
    results["server"]["cpu_share_to_deadline"] = round(cpu_at_deadline / config.seconds, 3)
    results["server"]["cpu_ms_per_move"] = (round(1000 * cpu_at_deadline / moves_at_deadline, 2)
                                            if moves_at_deadline else None)
    return results


# Fuzzing.

CARD_WORDS = ("H10", "SQ", "C2", "DA", "SB", "HR", "ST", "HT", "33", "BR", "3456789", "", "PASS", "tribute",
              "back", "Single", "Pair", "Bomb")
TEXT_CHARACTERS = string.printable + "牌局掼蛋斗地主拱猪♠♥♦♣\u00e9\u200b\ufffd"


def random_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: scalars of every kind, lists and objects up to 4 deep."""
    roll = rng.random()
    if depth < 4 and roll < 0.25:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 4 and roll < 0.4:
        return {random_text(rng, 8): random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    scalars: list[Callable[[], Any]] = [
        lambda: None, lambda: rng.random() < 0.5, lambda: rng.randint(-(2**70), 2**70), lambda: rng.randint(-3, 60),
        lambda: rng.uniform(-1e300, 1e300), lambda: random_text(rng, 12), lambda: rng.choice(CARD_WORDS),
        lambda: float(rng.choice(["inf", "-inf"])),
    ]
    return rng.choice(scalars)()


def random_text(rng: random.Random, longest: int) -> str:
    return "".join(rng.choice(TEXT_CHARACTERS) for _ in range(rng.randint(0, longest)))


def fuzz_message(rng: random.Random) -> Payload:
    """One random client message: nasty payloads, random text, random JSON, mangled actions and requests,
    binary, messages around and over the 16 KiB limit (never over 1 MiB)."""
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(NASTY)[1]
    if roll < 0.2:
        return random_text(rng, 60)
    if roll < 0.35:
        return json.dumps(random_json(rng))
    if roll < 0.65:
        action = rng.choice([random_json(rng), rng.choice(CARD_WORDS),
                             [rng.choice(CARD_WORDS), rng.choice(CARD_WORDS), [rng.choice(CARD_WORDS)]],
                             ["tribute", "tribute", [rng.choice(CARD_WORDS)]], rng.randint(-1, 4)])
        extra = {random_text(rng, 6): random_json(rng)} if rng.random() < 0.3 else {}
        return json.dumps({"action": action, **extra})
    if roll < 0.85:
        kind = rng.choice(["ping", "explain", "act", "end", "", None, 7, random_text(rng, 8)])
        message: Message = {"type": kind}
        if kind == "explain" or rng.random() < 0.3:
            message["agent"] = rng.choice(["random", "mr-if", "mr-greed", "rules", "dmc", "search", "ext:sh", "",
                                           random_json(rng)])
        return json.dumps(message, allow_nan=True)
    if roll < 0.93:
        return os.urandom(rng.randint(0, 200))
    return '{"action": "' + "z" * rng.randint(MAX_CLIENT_MESSAGE - 20, 4 * MAX_CLIENT_MESSAGE) + '"}'


def expected_answers(payload: Payload) -> set[str]:
    """The message types the server may answer ``payload`` with, an action that is not legal being assumed."""
    if isinstance(payload, bytes) or len(payload) > MAX_CLIENT_MESSAGE:
        return {"error"}
    try:
        message = json.loads(payload)
    except (ValueError, RecursionError):
        return {"error"}
    if isinstance(message, dict) and message.get("type") == "ping":
        return {"pong"}
    if isinstance(message, dict) and message.get("type") == "explain" and isinstance(message.get("agent"), str):
        return {"explain", "error"}
    return {"error"}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def answers_act(payload: Payload, legal: list[Any]) -> bool:
    """Whether the server would take ``payload`` as a legal answer to the pending act."""
    if isinstance(payload, bytes) or len(payload) > MAX_CLIENT_MESSAGE:
        return False
    try:
        message = json.loads(payload)
        return (isinstance(message, dict) and message.get("type") is None and "action" in message
                and canonical(message["action"]) in {canonical(action) for action in legal})
    except (ValueError, RecursionError):
        return False


@dataclass
class FuzzReport:
    """What fuzzing one seat found."""

    sent: int = 0
    skipped_legal: int = 0
    answers: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    """Answers not among ``expected_answers`` (first ``MAX_EXAMPLES``); ``unexpected_count`` counts all."""
    unexpected_count: int = 0
    closes: Counter[str] = field(default_factory=Counter)
    games: int = 0
    games_stored: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"sent": self.sent, "skipped_legal": self.skipped_legal, "answers": dict(self.answers),
                "unexpected_count": self.unexpected_count, "unexpected": self.unexpected,
                "closes": dict(self.closes), "games": self.games, "games_stored": self.games_stored}


class FuzzedSeat:
    """Seat 0 of a table against random bots, the games in turn; a new table after each game."""

    def __init__(self, run: Run, report: FuzzReport, rng: random.Random, games: tuple[str, ...]) -> None:
        self.run, self.report, self.rng, self.games = run, report, rng, games
        self.tables = 0
        self.table: SeatedTable | None = None
        self.connection: ClientConnection | None = None
        """None between games."""
        self.act: Message | None = None

    async def open_table(self) -> None:
        game = self.games[self.tables % len(self.games)]
        self.tables += 1
        body: Message = {"game": game, "seats": ["human"] + ["random"] * (load_game(game).num_players - 1)}
        if GAME_RULES[game] is not None:
            body["rules"] = GAME_RULES[game]
        reply = await self.run.http.post("/api/tables", json=body)
        reply.raise_for_status()
        created = reply.json()
        self.table = SeatedTable(created["table_id"], game, {0: created["seats"][0]["token"]})
        await self.reconnect()

    async def reconnect(self) -> None:
        assert self.table is not None
        self.connection = await connect(self.run, self.table, 0)
        await self.until_act()

    async def until_act(self) -> None:
        """Read until this seat's ``act``, or the ``end`` (the game is counted and the connection closed)."""
        assert self.connection is not None
        while True:
            message = json.loads(await asyncio.wait_for(self.connection.recv(), FUZZ_REPLY_LIMIT))
            if message["type"] == "act":
                self.act = message
                return
            if message["type"] == "end":
                self.report.games += 1
                if (await self.run.http.get(f"/api/records/{message['record_id']}")).status_code == 200:
                    self.report.games_stored += 1
                await self.connection.close()
                self.connection = self.act = None
                return

    async def send(self, payload: Payload) -> None:
        """Send one fuzzed message while the seat's act is pending, and read its answer."""
        if self.connection is None:
            await self.open_table()
        assert self.connection is not None and self.act is not None
        if answers_act(payload, self.act["legal"]):
            self.report.skipped_legal += 1
            return
        self.report.sent += 1
        try:
            await self.connection.send(payload)
            message = json.loads(await asyncio.wait_for(self.connection.recv(), FUZZ_REPLY_LIMIT))
        except TimeoutError:
            self.unexpected(payload, "no answer")
            return
        except websockets.ConnectionClosed:
            self.report.closes[f"{self.connection.close_code} {self.connection.close_reason or ''}".strip()] += 1
            self.unexpected(payload, f"connection closed {self.connection.close_code}")
            await self.reconnect()
            return
        self.report.answers[message["type"]] += 1
        if message["type"] not in expected_answers(payload):
            self.unexpected(payload, f"answered {message['type']}")

    async def answer_act(self) -> None:
        """Answer the pending act with a random legal action (opening a table first between games)."""
        if self.connection is None:
            await self.open_table()
        assert self.connection is not None and self.act is not None
        await self.connection.send(json.dumps({"action": self.rng.choice(self.act["legal"])}))
        await self.until_act()

    def unexpected(self, payload: Payload, problem: str) -> None:
        self.report.unexpected_count += 1
        if len(self.report.unexpected) < MAX_EXAMPLES:
            self.report.unexpected.append(f"{problem}: {payload[:120]!r} ({len(payload)} long)")


async def fuzz_seat(url: str, payloads: list[Payload], seed: int = 0, games: tuple[str, ...] = GAMES
                    ) -> FuzzReport:
    """Send ``payloads`` one at a time to a live seat whose act is pending, answering the act legally every
    ``FUZZ_ANSWER_EVERY`` payloads; then play the game under way to its end."""
    report = FuzzReport()
    async with httpx.AsyncClient(base_url=url, timeout=FUZZ_REPLY_LIMIT, trust_env=False) as http:
        seat = FuzzedSeat(Run(url, http, LoadConfig(), None, random.Random(seed)), report, random.Random(seed), games)
        for number, payload in enumerate(payloads, start=1):
            await seat.send(payload)
            if number % FUZZ_ANSWER_EVERY == 0:
                await seat.answer_act()
        while seat.connection is not None:
            await seat.answer_act()
    return report


async def run_fuzz(count: int, seed: int, server: ArenaServer) -> dict[str, Any]:
    """Fuzz one seat with ``count`` messages drawn from ``seed``, after the warm-up."""
    rng = random.Random(seed)
    usage = ServerUsage(server.pid)
    usage.before_warm_up = round(usage.sample(), 1)
    async with httpx.AsyncClient(base_url=server.url, timeout=FUZZ_REPLY_LIMIT, trust_env=False) as http:
        await warm_up(Run(server.url, http, LoadConfig(), None, rng), GAMES)
    usage.samples.clear()
    usage.sample()
    start = time.perf_counter()
    report = await fuzz_seat(server.url, [fuzz_message(rng) for _ in range(count)], seed)
    return {"config": {"fuzz": count, "seed": seed}, "seconds": round(time.perf_counter() - start, 1),
            "fuzz": report.to_json(), "server": usage.summary()}


# Output.


def summary_lines(results: dict[str, Any]) -> list[str]:
    """The figures a person reads first."""
    config = results["config"]
    lines = [f"run: {results['seconds']} s" + (f" ({config['seconds']} s of load, then the games under way finished)"
                                               if "seconds" in config else "")]
    server = results["server"]
    rss = server["rss_mib"]
    if "load" in results:
        for name in ("load", "fault_tables"):
            if name in results:
                lines.extend(_group_lines(name, results[name]))
    if "fuzz" in results:
        fuzz = results["fuzz"]
        lines.append(f"fuzz: {fuzz['sent']} sent ({fuzz['skipped_legal']} legal answers skipped); answers "
                     f"{fuzz['answers']}; unexpected {fuzz['unexpected_count']}; closes {fuzz['closes']}; "
                     f"games {fuzz['games']} (stored {fuzz['games_stored']})")
        lines.extend(f"  {problem}" for problem in fuzz["unexpected"][:5])
    if "client_loop_lag_ms" in results:
        loop_lag = results["client_loop_lag_ms"]
        lines.append(f"clients' event loop lag: p50 {loop_lag.get('p50')} ms, p99 {loop_lag.get('p99')} ms, "
                     f"max {loop_lag.get('max')} ms")
    if "cpu_share_to_deadline" in server:
        cpu = (f"CPU {server['cpu_s_to_deadline']} s until the deadline ({server['cpu_share_to_deadline']:.0%} of one "
               f"core; {server['cpu_ms_per_move']} ms a move), {server['cpu_s']} s in all")
    else:
        cpu = f"CPU {server['cpu_s']} s ({server['cpu_s'] / results['seconds']:.0%} of one core)"
    clients = (f"; clients' CPU {results['client_cpu_s']} s, leak checker's {results['checker_cpu_s']} s"
               if "client_cpu_s" in results else "")
    lines.append(f"server: RSS before warm-up {rss['before_warm_up']} MiB, start {rss['start']}, peak {rss['peak']}, "
                 f"end {rss['end']} (growth {rss['growth']:+}); {cpu}{clients}")
    if log := results.get("server_log"):
        lines.append(f"server log: {log['tracebacks']} tracebacks, {log['move_timeouts']} moves by timeout")
        lines.extend(f"  {count} x {exception}" for exception, count in log["exceptions"])
    if leaks := results.get("leaks"):
        lines.append(f"leaks: {leaks['leaked_cards']} leaked cards in {leaks['games']} games / {leaks['messages']} "
                     f"messages {leaks['leaks_by_kind'] or ''}; {leaks['mismatches']} mismatches; "
                     f"{len(leaks['checker_failures'])} checker failures")
        lines.extend(f"  {leak}" for leak in leaks["leaks"][:5])
        lines.extend(f"  {mismatch}" for mismatch in leaks["mismatch_examples"][:5])
    for kind, found in results.get("faults", {}).items():
        lines.append(f"fault {kind}: {found['tables']} tables, {len(found['problems'])} problems")
        lines.extend(f"  {problem}" for problem in found["problems"][:5])
    if "survived" in results:
        lines.append(f"a new table after the faults: {'served' if results['survived'] else 'NOT served'}")
    return lines


def _group_lines(name: str, group: dict[str, Any]) -> list[str]:
    latency = group["latency_ms"]
    lines = [f"{name}: {group['moves_per_s']} moves/s, latency p50 {latency.get('p50')} ms, p99 "
             f"{latency.get('p99')} ms, max {latency.get('max')} ms ({latency['count']} moves); games finished "
             f"{group['games_finished']}, stored {group['games_stored']}; errors {group['errors'] or 0}"]
    lines.extend(f"  {example}" for example in group["error_examples"][:5])
    return lines


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables played at once (default 4)")
    parser.add_argument("--minutes", type=float, default=1.0, help="length of the run (default 1)")
    parser.add_argument("--faults", action="store_true", help="add the abusive clients")
    parser.add_argument("--think", type=float, default=0.0, metavar="S",
                        help="mean seconds a client thinks before each move (uniform over 0..2S; default 0: at once)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write every figure to this JSON file")
    parser.add_argument("--fuzz", type=int, default=0, metavar="N", help="send N fuzzed messages to a live seat")
    parser.add_argument("--fault-kinds", default=",".join(FAULT_KINDS),
                        help=f"abusive clients to run with --faults (default {','.join(FAULT_KINDS)})")
    parser.add_argument("--games", default=",".join(GAMES), help=f"games played (default {','.join(GAMES)})")
    parser.add_argument("--move-timeout", type=float, help="the server's (default 30 s, 2 s with --faults)")
    parser.add_argument("--no-leak-check", action="store_true", help="keep no messages, check no leaks")
    parser.add_argument("--serve-child", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    arguments = parse_arguments(argv)
    if arguments.serve_child:
        serve_child(arguments.serve_child)
        return
    from common import machine

    config = LoadConfig(tables=arguments.tables, seconds=60 * arguments.minutes, faults=arguments.faults,
                        seed=arguments.seed, move_timeout=arguments.move_timeout, think=arguments.think,
                        games=tuple(arguments.games.split(",")), fault_games=tuple(arguments.games.split(",")),
                        fault_kinds=tuple(kind for kind in arguments.fault_kinds.split(",") if kind),
                        check_leaks=not arguments.no_leak_check)
    settings = serve_settings(config) if not arguments.fuzz else {**serve_settings(config), "move_timeout": 600.0}
    with tempfile.TemporaryDirectory(prefix="arena-load-") as workdir:
        with arena_process(settings, Path(workdir)) as server:
            if arguments.fuzz:
                results = asyncio.run(run_fuzz(arguments.fuzz, arguments.seed, server))
            else:
                results = asyncio.run(run_load(config, server))
        results["server_log"] = log_summary(server.log_path)
    results["machine"] = {**machine(), "load_average": os.getloadavg(),
                          "max_rss_clients_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    print("\n".join(summary_lines(results)))
    if arguments.out:
        arguments.out.write_text(json.dumps(results, indent=1, default=str) + "\n")
        print(f"every figure: {arguments.out}")


if __name__ == "__main__":
    sys.exit(main())
