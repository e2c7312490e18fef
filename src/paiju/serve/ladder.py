"""The ladder: bots with accounts (``paiju.serve.accounts``) queue for their game and are seated at rated tables.

Queue websocket: ``/ws/ladder``
===============================

One JSON object per text message. Client to server: ``{"type": "join", "key": K, "game"?: G}`` (queue the bot
whose key is ``K``; ``game``, when given, must be the bot's), ``{"type": "leave"}`` and ``{"type": "ping"}``.
Server to client (all with ``"v": 1``):

- ``queued`` ``{"bot", "game", "waiting"}``: the bot waits for a table (after ``join``, and again after each game);
- ``seated`` ``{"bot", "game", "table_id", "seat", "token", "path"}``: play seat ``seat`` at
  ``path`` (``/ws/tables/{table_id}?token=...``) with the seat protocol (``paiju.serve``); the game has begun;
- ``paused`` ``{"bot", "status", "reason", "until"}``: the bot may not queue (paused by the ladder for
  misbehaving, or by an admin, or banned); the connection is then closed (code 1008);
- ``left`` ``{"bot"}`` after ``leave``; ``error`` ``{"message"}`` for a refused message (nothing changed); ``pong``.

A bot holds one place: joining while it is queued or seated is refused, as is a second bot on one connection;
but a bot seated whose queue connection closed (or that sent ``leave``) may join again from a new connection,
which is sent its ``seated`` again (to find its seat after a reconnect). While its queue connection stays open a
bot is queued again after every game, so it plays around the clock; closing it (or ``leave``) takes it out of
the queue, and a game in progress goes on (its seat socket is separate) with the bot holding its place until
that table ends. Messages are at most ``MAX_MESSAGE_CHARS``; a connection that has ``MAX_REFUSED`` messages
refused is closed (1008). A key is never logged nor quoted back.

Matching
========

Every ``TICK`` seconds, per game: while at least a table's worth of bots wait, the longest-waiting ones are seated
together; when fewer wait and the first has waited ``settings.ladder_fill_after`` seconds, house bots fill the
other seats, drawn from the game's graded set (``HOUSE_BOTS``: the weakest to the strongest built-in agents, so
a bot's rating places it among agents of known strength; ``settings.ladder_house`` replaces the set), each at most
once a table while the set has enough of them. So with
house bots on no bot waits longer than the fill delay plus the game it is in. Seats are shuffled; every deal is
drawn at random (``Lobby.create_ladder``). A bot that leaves while its table is being made undoes that table
(nothing was played); the others wait on at the head of the queue.

Every ladder table plays its game's default rules but for ``LADDER_RULES`` (stored and rated under the ruleset
name ``ruleset(game)``: ``standard``, or GuanDan's ``rounds=4``) with the ladder's time control
(``settings.ladder_move_timeout`` a move); it is never abandoned, so leaving a losing game still rates it, and a
seat that lets ``settings.ladder_forfeit_after`` moves time out forfeits its turns (the default action is played
at once; ``paiju.serve.tables.LadderTerms``).

Misbehaviour: a game in which a bot had a move played by timeout, or ``REFUSED_STRIKE`` messages refused, is a
strike; ``settings.ladder_strikes`` in a row pause the bot for ``settings.ladder_pause`` seconds, with a
reason it is sent (``paused``) and that its page shows; a game played cleanly clears the count.

Duplicate seating (one deal played again with the seats swapped) is not used: a bot on a ladder may be the same
program at every seat of the copy, or fetch the first game's public record, and so would know the other hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from dataclasses import dataclass, field

from fastapi import APIRouter, WebSocket
from starlette.status import WS_1008_POLICY_VIOLATION

from paiju.agents.external import PROTOCOL_VERSION
from paiju.core.errors import PaijuError
from paiju.core.registry import game_names, load_game
from paiju.serve.accounts import AccountError, BotAccount, BotAccounts, BotStatus
from paiju.serve.bots import offered_agents
from paiju.serve.lobby import Lobby, TooManyTables
from paiju.serve.protocol import Message
from paiju.serve.seats import Seat, SeatConnection, SeatKind
from paiju.serve.tables import LadderTerms, Table, TableStatus

LADDER_RULES: dict[str, dict[str, object]] = {"guandan": {"rounds": 4}}
"""Where the ladder's rules differ from a game's defaults: GuanDan plays 4 rounds (tribute and return included,
scored by the sum of the round results) rather than until a team wins at A, which can take thousands of rounds
when one seat plays badly (a bot that forfeited its turns)."""
HOUSE_BOTS = {"doudizhu": ("random", "rules", "perfectdou", "deeprocket", "search"),
              "guandan": ("random", "rules", "dmc", "search"),
              "gongzhu": ("random", "mr-if", "mr-greed", "scrofazero", "search")}
"""Each game's house bots, weakest to strongest (BENCHMARKS.md)."""
TICK = 0.25
MAX_MESSAGE_CHARS = 1024
MAX_REFUSED = 20
REFUSED_STRIKE = 10

log = logging.getLogger(__name__)


def ruleset(game: str) -> str:
    """The name ``game``'s ladder games are stored and rated under: ``standard`` for the default rules, else the
    options that differ (``rounds=4``)."""
    return ",".join(f"{key}={value}" for key, value in LADDER_RULES.get(game, {}).items()) or "standard"


class LadderRefusal(PaijuError):
    """A queue message the ladder refuses; nothing changed."""


@dataclass(eq=False)
class LadderBot:
    """A bot on the ladder: queued, or seated at a table (until that table ends, even after it left)."""

    account: BotAccount
    connection: SeatConnection
    """Its queue connection, where it is told where to play."""
    since: float = field(default_factory=time.monotonic)
    """When it joined the queue (last)."""
    table: Table | None = None
    """The table it plays at, if any."""
    seat: Seat | None = None
    """Its seat there."""
    left: bool = False
    """It left (``leave``, or its queue connection closed) while seated: it is not queued again."""

    @property
    def name(self) -> str:
        return self.account.name


def house_bots(game: str, chosen: tuple[str, ...] | None) -> list[str]:
    """The house bots that fill ``game``'s tables: ``chosen`` (``HOUSE_BOTS[game]`` when ``None``) among the
    agents offered for it."""
    offered = offered_agents(game)
    return [name for name in (HOUSE_BOTS.get(game, ()) if chosen is None else chosen) if name in offered]


class Ladder:
    """The queues and the bots on the ladder (see the module); every method runs on the event loop."""

    def __init__(self, lobby: Lobby, accounts: BotAccounts) -> None:
        self.lobby = lobby
        self.accounts = accounts
        self.settings = lobby.settings
        self.queues: dict[str, list[LadderBot]] = {game: [] for game in game_names()}
        self.bots: dict[str, LadderBot] = {}
        """Lower-cased name → every bot queued or seated."""
        self.house = {game: house_bots(game, self.settings.ladder_house) for game in game_names()}
        self._followers: set[asyncio.Task[None]] = set()
        """Tasks judging ended tables (held so that they are not garbage-collected)."""
        self._random = random.Random(secrets.randbits(64))

    async def join(self, key: str, game: str | None, connection: SeatConnection) -> LadderBot:
        """Queue the bot whose key is ``key`` (a bot that left its queue connection while seated takes the new one
        and is told its seat again); ``LadderRefusal`` (or ``AccountError``) saying why not."""
        account = await asyncio.to_thread(lambda: self.accounts.standing(self.accounts.authenticate(key).name))
        if account.status is not BotStatus.ACTIVE:
            raise LadderRefusal(_status_line(account))
        if game is not None and game != account.game:
            raise LadderRefusal(f"bot {account.name} is registered for {account.game}, not {game[:40]!r}")
        present = self.bots.get(account.name.lower())
        if present is not None and present.left:
            present.connection, present.left = connection, False
            self._tell_seat(present)
            return present
        if present is not None:
            raise LadderRefusal(f"bot {account.name} is already queued or seated for {account.game}: a bot holds "
                                "one place at a time")
        bot = LadderBot(account, connection)
        self.bots[account.name.lower()] = bot
        self._queue(bot)
        return bot

    def leave(self, bot: LadderBot, connection: SeatConnection | None = None) -> None:
        """Take ``bot`` out of its queue (only if ``connection`` is still its own, when given). A seated bot keeps
        its place until its table ends (its game goes on), then is not queued again."""
        if connection is not None and bot.connection is not connection:
            return
        with contextlib.suppress(ValueError):
            self.queues[bot.account.game].remove(bot)
        if bot.table is not None:
            bot.left = True
        elif self.bots.get(bot.name.lower()) is bot:
            del self.bots[bot.name.lower()]

    def enforce(self, name: str) -> None:
        """Apply an admin's decision on ``name`` now: a bot no longer active leaves the ladder and is told why."""
        bot = self.bots.get(name.lower())
        if bot is not None and not bot.left:
            self._send_off(bot, self.accounts.get(name))

    async def run(self) -> None:
        """Match every ``TICK`` seconds, until cancelled; a failure is logged and matching goes on."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.match()
            except Exception:
                log.exception("ladder: matching failed")

    async def match(self) -> None:
        """Seat what can be seated now (see the module)."""
        for game, queue in self.queues.items():
            with contextlib.suppress(TooManyTables):
                await self._match_game(game, queue)

    async def _match_game(self, game: str, queue: list[LadderBot]) -> None:
        """Seat ``game``'s queue: full tables of bots first, then house bots for the rest once its first waited.
        A bot that leaves while its table is made undoes the table: the others wait on, first in line."""
        seats = load_game(game).num_players
        while queue:
            if len(queue) >= seats:
                group = queue[:seats]
            elif self.house[game] and time.monotonic() - queue[0].since >= self.settings.ladder_fill_after:
                group = list(queue)
            else:
                return
            del queue[:len(group)]
            try:
                table = await self._open(game, group, seats)
            except BaseException:  # no table (the server is full, or a bot failed to load): they wait on
                queue[:0] = [bot for bot in group if self._present(bot)]
                raise
            if not all(map(self._present, group)):
                self.lobby.discard(table, "a ladder bot left before the game began")
                queue[:0] = [bot for bot in group if self._present(bot)]
                continue
            for bot in group:
                bot.table, bot.seat = table, next(seat for seat in table.seats if seat.player == bot.name)
                self._tell_seat(bot)
            assert table.task is not None
            table.task.add_done_callback(lambda _, table=table: self._followers.add(  # type: ignore[misc]
                asyncio.create_task(self._ended(table))))
            log.info("ladder: %s table %s seats %s", game, table.table_id, [seat.name for seat in table.seats])

    def status_json(self) -> dict[str, dict[str, int]]:
        """Per game: bots waiting, bots seated."""
        return {game: {"waiting": len(queue),
                       "playing": sum(1 for bot in self.bots.values() if bot.account.game == game and bot.table)}
                for game, queue in self.queues.items()}

    def _present(self, bot: LadderBot) -> bool:
        return self.bots.get(bot.name.lower()) is bot

    async def _open(self, game: str, group: list[LadderBot], seats: int) -> Table:
        """A new table for ``group`` and house bots, seats shuffled."""
        players: list[tuple[SeatKind, str]] = [(SeatKind.LADDER, bot.name) for bot in group]
        house, empty = self.house[game], seats - len(group)
        drawn = self._random.sample(house, empty) if len(house) >= empty else self._random.choices(house, k=empty)
        players += [(SeatKind.BOT, name) for name in drawn]
        self._random.shuffle(players)
        terms = LadderTerms(self.settings.ladder_move_timeout, self.settings.ladder_forfeit_after, ruleset(game))
        return await self.lobby.create_ladder(game, players, terms, LADDER_RULES.get(game, {}))

    def _tell_seat(self, bot: LadderBot) -> None:
        table, seat = bot.table, bot.seat
        assert table is not None and seat is not None and seat.token is not None
        bot.connection.send(_message("seated", bot=bot.name, game=table.game.name, table_id=table.table_id,
                                     seat=seat.number, token=seat.token,
                                     path=f"/ws/tables/{table.table_id}?token={seat.token}"))

    async def _ended(self, table: Table) -> None:
        """Strikes for the ladder seats that misbehaved; their bots queue again (or are sent off)."""
        seats = [seat for seat in table.seats if seat.kind is SeatKind.LADDER and seat.player is not None]
        accounts = await asyncio.to_thread(lambda: [self._judge(table, seat.number, seat.player or "")
                                                    for seat in seats])
        for account in accounts:
            bot = self.bots.get(account.name.lower())
            if bot is None or bot.table is not table:
                continue
            bot.table = bot.seat = None
            if bot.left or bot.connection.closing:
                del self.bots[bot.name.lower()]
            elif account.status is BotStatus.ACTIVE:
                bot.account = account
                self._queue(bot)
            else:
                self._send_off(bot, account)

    def _judge(self, table: Table, seat: int, name: str) -> BotAccount:
        """Count a strike for seat ``seat`` of a finished ladder table if it misbehaved, else clear its strikes;
        the bot's account after (in a worker thread: the database is written)."""
        account = self.accounts.standing(name)
        if table.status is not TableStatus.FINISHED:
            return account
        timeouts, refused = table.timeouts.get(seat, 0), table.refused.get(seat, 0)
        if timeouts or refused >= REFUSED_STRIKE:
            return self.accounts.strike(name, f"table {table.table_id}: {timeouts} moves played by timeout, "
                                              f"{refused} messages refused")
        if account.strikes:
            self.accounts.clear_strikes(name)
        return self.accounts.standing(name)

    def _queue(self, bot: LadderBot) -> None:
        queue = self.queues[bot.account.game]
        bot.since = time.monotonic()
        queue.append(bot)
        bot.connection.send(_message("queued", bot=bot.name, game=bot.account.game, waiting=len(queue)))

    def _send_off(self, bot: LadderBot, account: BotAccount) -> None:
        self.leave(bot)
        bot.connection.send(_message("paused", bot=bot.name, status=account.status.value, reason=account.reason,
                                     until=account.paused_until))
        bot.connection.close(WS_1008_POLICY_VIOLATION, f"bot {bot.name} is {account.status.value}")


def _status_line(account: BotAccount) -> str:
    if account.status is BotStatus.BANNED:
        return f"bot {account.name} is banned: {account.reason or 'by an admin'}"
    until = "until an admin resumes it" if account.paused_until is None else \
        f"for {max(0.0, account.paused_until - time.time()):.0f} s more"
    return f"bot {account.name} is paused {until}: {account.reason or 'by an admin'}"


def _message(kind: str, **fields: object) -> Message:
    return {"v": PROTOCOL_VERSION, "type": kind, **fields}  # type: ignore[dict-item]


def parse_queue_message(text: str) -> tuple[str, dict[str, object]]:
    """``(type, message)`` of a queue message; ``LadderRefusal`` naming the problem (never quoting the text, which
    may hold a key)."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise LadderRefusal(f"message too long ({len(text)} characters; at most {MAX_MESSAGE_CHARS})")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise LadderRefusal("not JSON") from None
    if not isinstance(message, dict) or message.get("type") not in ("join", "leave", "ping"):
        raise LadderRefusal('messages are {"type": "join", "key": K, "game"?: G}, {"type": "leave"} or '
                            '{"type": "ping"}')
    kind = message["type"]
    if kind == "join" and (not isinstance(message.get("key"), str) or
                           not isinstance(message.get("game", ""), str)):
        raise LadderRefusal('join carries the bot\'s key as a string: {"type": "join", "key": K}')
    return kind, message


def ladder_router(ladder: Ladder) -> APIRouter:
    """The queue websocket ``/ws/ladder`` over ``ladder``."""
    router = APIRouter()

    @router.websocket("/ws/ladder")
    async def queue_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        settings = ladder.settings
        connection = SeatConnection(websocket, settings.max_queued_messages, settings.send_timeout)
        joined: list[LadderBot] = []
        try:
            await connection.serve(_read(websocket, ladder, connection, joined))
        finally:
            for bot in joined:
                ladder.leave(bot, connection)
            await connection.stop()

    return router


async def _read(websocket: WebSocket, ladder: Ladder, connection: SeatConnection, joined: list[LadderBot]) -> None:
    refused = 0
    while refused < MAX_REFUSED:
        event = await websocket.receive()
        if event["type"] == "websocket.disconnect":
            return
        try:
            if event.get("text") is None:
                raise LadderRefusal("messages are JSON text; a binary message was sent")
            kind, message = parse_queue_message(event["text"])
            if kind == "join":
                if joined:
                    raise LadderRefusal(f"this connection has joined as {joined[0].name} already")
                game = message.get("game")
                joined.append(await ladder.join(str(message["key"]), str(game) if game else None, connection))
            elif kind == "leave":
                if not joined:
                    raise LadderRefusal("this connection has not joined")
                ladder.leave(joined[0], connection)
                connection.send(_message("left", bot=joined.pop().name))
            else:
                connection.send(_message("pong"))
        except (LadderRefusal, AccountError) as refusal:
            refused += 1
            connection.send(_message("error", message=str(refusal)))
        await connection.room()
    connection.close(WS_1008_POLICY_VIOLATION, f"{MAX_REFUSED} messages refused")
