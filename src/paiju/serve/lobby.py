"""The tables in memory: created from a table request, found by id, listed in the lobby, forgotten in time.

Limits (``ServeSettings``), so that no client can lock others out:

- at most ``max_tables`` tables wait or play at once, and at most ``max_tables_per_client`` of them were
  created by one client address; a creation counts from the moment it is asked for, so concurrent
  requests cannot pass the caps by racing;
- one address holds at most ``max_reservations_per_client`` reserved open seats of unfinished tables, and
  makes at most ``requests_per_minute`` creations and reservations per minute (``ClientLimitReached``);
- a seat token unused for ``reservation_timeout`` seconds is given up (``Table.expire_tokens``): a reserved
  open seat opens again, a table waiting on a human seat that never connected is closed; a table still
  waiting after ``WAITING_TABLE_LIFETIME`` seconds is closed (its connections with code 1001);
- a finished or aborted table stays listed for ``ENDED_TABLE_LIFETIME`` seconds, and at most
  ``ended_tables_kept`` of them are kept (the oldest are forgotten first).

``sweep`` applies the time limits; the app runs it every ``SWEEP_INTERVAL`` seconds.

Deals: a table created without a seed is dealt from ``secrets.randbits(SEED_BITS)`` — no seat can search
the seeds for the one that deals its hand. A seed chosen by the creator tells the creator every hand, so it
is accepted only for tables without open seats (every seat is the creator's: its people or its bots).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import deque
from typing import Any

from starlette.status import WS_1001_GOING_AWAY

from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.eval.seeds import derive_seed
from paiju.serve.bots import make_bot, offered_agents
from paiju.serve.seats import Seat, SeatKind, new_token
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore
from paiju.serve.tables import LadderTerms, Table, TableStatus
from paiju.serve.variants import playing_agents, variant_of

ENDED_TABLE_LIFETIME = 600.0
WAITING_TABLE_LIFETIME = 3600.0
SWEEP_INTERVAL = 5.0
SEED_BITS = 128
"""Entropy of the seed a table without a chosen seed is dealt from."""
RATE_WINDOW = 60.0
LADDER_CLIENT = "ladder"
"""What the ladder's tables count as while being created (not an address: no client's limits apply)."""


class TableNotFound(PaijuError):
    """No table has the requested id (it never existed, or was forgotten)."""


class TooManyTables(PaijuError):
    """The server holds as many tables in progress as it may."""


class ClientLimitReached(PaijuError):
    """This client has as many tables in progress, or reserved seats, or recent requests as it may."""


class FixedDealRefused(PaijuError):
    """A chosen seed for a table with open seats: its creator would know the hands of whoever joins."""


class Lobby:
    """Every table the server holds, by id."""

    def __init__(self, store: GameStore, settings: ServeSettings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self._creators: dict[str, str] = {}
        """Table id → the address that created it."""
        self._creating: dict[str, int] = {}
        """Address → creations under way (counted against the caps before the table exists)."""
        self._requests: dict[str, deque[float]] = {}
        """Address → times of its recent creations and reservations."""

    async def create(self, game_name: str, rules: dict[str, Any] | None, seed: int | None,
                     seats: list[str], client: str = "", bot_delay: float | None = None) -> Table:
        """Seat a new table for ``client`` (its address) and open it. Each seat is ``"human"``, ``"open"`` or
        an offered agent's name; ``bot_delay``: the seconds its bots wait before each move (``Table``'s default
        when None).

        Raises ``PaijuError`` naming the problem (unknown game, bad rules, wrong seat count, unknown agent, a
        fixed seed with open seats), ``TooManyTables`` / ``ClientLimitReached`` past a limit; nothing is
        created then.
        """
        self.sweep()
        self._count_request(client)
        game = load_game(game_name)
        ruleset = game.default_rules() if rules is None else game.rules_from_json(rules)
        if len(seats) != game.num_players:
            raise PaijuError(f"{game.name} is played by {game.num_players} seats, got {len(seats)}")
        agents = await asyncio.to_thread(playing_agents, game.name, ruleset.to_json())
        seat_list = [self._seat(game.name, number, spec, client, agents, ruleset.to_json())
                     for number, spec in enumerate(seats)]
        if seed is not None and any(seat.kind is SeatKind.OPEN for seat in seat_list):
            raise FixedDealRefused("a chosen seed tells the table's creator every hand: it is accepted only "
                                   "when no seat is open; leave out the seed to have the deal drawn at random")
        self._check_table_caps(client)
        self._creating[client] = self._creating.get(client, 0) + 1
        try:
            seed = secrets.randbits(SEED_BITS) if seed is None else seed
            bots = await asyncio.to_thread(self._make_bots, game.name, seat_list, seed)
            table = Table(f"t-{secrets.token_hex(6)}", game, ruleset, seed, seat_list, bots, self.store,
                          self.settings, bot_delay)
        finally:
            self._creating[client] -= 1
            if not self._creating[client]:
                del self._creating[client]
        self.tables[table.table_id] = table
        self._creators[table.table_id] = client
        table.open()
        return table

    async def create_ladder(self, game_name: str, players: list[tuple[SeatKind, str]], terms: LadderTerms,
                            rules: dict[str, Any]) -> Table:
        """Open a ladder table of ``game_name`` under ``rules`` (JSON over the defaults), dealt at random:
        ``players[i]`` is ``(SeatKind.LADDER, bot name)`` (the seat's token, in ``seat.token``, is for that bot
        alone) or ``(SeatKind.BOT, agent)``. It counts against ``max_tables`` (``TooManyTables``), not a client's
        limits."""
        game = load_game(game_name)
        seats = []
        for number, (kind, name) in enumerate(players):
            if kind is SeatKind.LADDER:
                seat = Seat(number, SeatKind.LADDER, player=name)
                seat.hand_out(new_token(), f"ladder:{name}")
            else:
                seat = self._seat(game.name, number, name, "", offered_agents(game.name))
            seats.append(seat)
        self._check_table_caps(None)
        seed = secrets.randbits(SEED_BITS)
        self._creating[LADDER_CLIENT] = self._creating.get(LADDER_CLIENT, 0) + 1
        try:
            bots = await asyncio.to_thread(self._make_bots, game.name, seats, seed)
        finally:
            self._creating[LADDER_CLIENT] -= 1
            if not self._creating[LADDER_CLIENT]:
                del self._creating[LADDER_CLIENT]
        ruleset = game.rules_from_json(game.default_rules().to_json() | rules)
        table = Table(f"t-{secrets.token_hex(6)}", game, ruleset, seed, seats, bots, self.store, self.settings,
                      ladder=terms)
        self.tables[table.table_id] = table
        table.open()
        return table

    def reserve(self, table_id: str, seat: int, client: str) -> str:
        """Reserve open seat ``seat`` of table ``table_id`` for ``client``; its token."""
        self._count_request(client)
        table = self.get(table_id)
        held = sum(other.reservations_of(client) for other in self.tables.values())
        if held >= self.settings.max_reservations_per_client:
            raise ClientLimitReached(f"you hold {held} reserved seats of unfinished tables (at most "
                                      f"{self.settings.max_reservations_per_client}); play or let them expire")
        return table.reserve(seat, client)

    def get(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise TableNotFound(f"no table {table_id!r}") from None

    def listing(self) -> list[Table]:
        """The tables held, newest first."""
        self.sweep()
        return list(reversed(self.tables.values()))

    def sweep(self) -> None:
        """Apply the time limits: expire unused seat tokens, close tables waiting too long, forget old ended
        tables (see the module)."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.ended_at is not None and now - table.ended_at > ENDED_TABLE_LIFETIME:
                self._forget(table)
            elif table.expire_tokens(now, self.settings.reservation_timeout):
                self.discard(table, "a seat's player never connected")
            elif table.status is TableStatus.WAITING and now - table.opened_at > WAITING_TABLE_LIFETIME:
                self.discard(table, "the table waited too long for its seats")
        ended = sorted((table for table in self.tables.values() if table.ended_at is not None),
                       key=lambda table: table.ended_at or 0.0)
        for table in ended[:max(0, len(ended) - self.settings.ended_tables_kept)]:
            self._forget(table)
        for client, times in list(self._requests.items()):
            while times and now - times[0] > RATE_WINDOW:
                times.popleft()
            if not times:
                del self._requests[client]

    async def run_sweeps(self) -> None:
        """``sweep`` every ``SWEEP_INTERVAL`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(SWEEP_INTERVAL)
            self.sweep()

    async def close(self) -> None:
        """Stop every table (the server is shutting down; games in progress are lost)."""
        tables = list(self.tables.values())
        self.tables.clear()
        self._creators.clear()
        for table in tables:
            table.dismiss(WS_1001_GOING_AWAY, "the server is shutting down")
        await asyncio.gather(*(table.task for table in tables if table.task), return_exceptions=True)

    def _check_table_caps(self, client: str | None) -> None:
        """``TooManyTables`` when the server, or ``client`` (``None``: the ladder, which has no cap of its own), is
        at its cap of tables in progress."""
        in_progress = [table_id for table_id, table in self.tables.items() if table.in_progress]
        total = len(in_progress) + sum(self._creating.values())
        if total >= self.settings.max_tables:
            raise TooManyTables(f"the server holds {self.settings.max_tables} tables in progress; try again later")
        if client is None:
            return
        own = sum(1 for table_id in in_progress if self._creators.get(table_id) == client)
        if own + self._creating.get(client, 0) >= self.settings.max_tables_per_client:
            raise ClientLimitReached(f"you have {self.settings.max_tables_per_client} tables in progress already "
                                f"(at most {self.settings.max_tables_per_client} per client); finish one first")

    def _count_request(self, client: str) -> None:
        """Count one creation or reservation by ``client``; ``RateLimited`` past ``requests_per_minute``."""
        times = self._requests.setdefault(client, deque())
        now = time.monotonic()
        while times and now - times[0] > RATE_WINDOW:
            times.popleft()
        if len(times) >= self.settings.requests_per_minute:
            raise ClientLimitReached(f"too many requests: at most {self.settings.requests_per_minute} table creations "
                              f"and seat reservations a minute per client; try again in "
                              f"{RATE_WINDOW - (now - times[0]):.0f} s")
        times.append(now)

    def discard(self, table: Table, reason: str) -> None:
        """Stop ``table`` (its game is lost, its connections closed with code 1001 and ``reason``) and forget it."""
        table.dismiss(WS_1001_GOING_AWAY, reason)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        del self.tables[table.table_id]
        self._creators.pop(table.table_id, None)

    @staticmethod
    def _seat(game: str, number: int, spec: str, client: str, agents: list[str],
              rules: dict[str, Any] | None = None) -> Seat:
        """Seat ``number`` as ``spec`` asks; a bot must be one of ``agents`` (those that play the table's ``rules``)."""
        if spec == SeatKind.HUMAN:
            seat = Seat(number, SeatKind.HUMAN)
            seat.hand_out(new_token(), client)
            return seat
        if spec == SeatKind.OPEN:
            return Seat(number, SeatKind.OPEN)
        if spec in offered_agents(game) and spec not in agents:
            variant = variant_of(game, rules or {})
            named = f"the {variant.name} rules of {game}" if variant else f"these {game} rules"
            raise PaijuError(f"seat {number}: {spec!r} does not play {named}; the agents that do: {', '.join(agents)}")
        if spec not in agents:
            raise PaijuError(f"seat {number}: {spec[:40]!r} is neither \"human\", \"open\" nor a {game} agent "
                             f"({', '.join(agents)})")
        return Seat(number, SeatKind.BOT, agent=spec)

    @staticmethod
    def _make_bots(game: str, seats: list[Seat], seed: int) -> dict[int, Agent]:
        """The bot seats' agents, each seeded by a hash of the table's seed and its seat (``derive_seed``)."""
        return {seat.number: make_bot(seat.agent, game, derive_seed(seed, "agent", seat.number))
                for seat in seats if seat.agent is not None}
