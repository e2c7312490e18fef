"""The tables in memory: created from a table request, found by id, listed in the lobby, forgotten in time.

Finished games live in the store; a finished or aborted table stays listed for ``ENDED_TABLE_LIFETIME``
seconds, a table still waiting for its seats for ``WAITING_TABLE_LIFETIME`` seconds (its connections are
then closed with code 1001). At most ``MAX_ACTIVE_TABLES`` tables wait or play at once.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from starlette.status import WS_1001_GOING_AWAY

from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.serve.bots import make_bot, offered_agents
from paiju.serve.seats import Seat, SeatKind, new_token
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore
from paiju.serve.tables import Table, TableStatus

MAX_ACTIVE_TABLES = 256
ENDED_TABLE_LIFETIME = 600.0
WAITING_TABLE_LIFETIME = 3600.0
SEED_LIMIT = 2**32
"""Seeds drawn for tables created without one are below this."""


class TableNotFound(PaijuError):
    """No table has the requested id (it never existed, or was forgotten)."""


class TooManyTables(PaijuError):
    """``MAX_ACTIVE_TABLES`` tables are waiting or playing already."""


class Lobby:
    """Every table the server holds, by id."""

    def __init__(self, store: GameStore, settings: ServeSettings) -> None:
        self.store = store
        self.settings = settings
        self.tables: dict[str, Table] = {}

    async def create(self, game_name: str, rules: dict[str, Any] | None, seed: int | None,
                     seats: list[str]) -> Table:
        """Seat a new table and open it. Each seat is ``"human"``, ``"open"`` or an offered agent's name.

        Raises ``PaijuError`` naming the problem (unknown game, bad rules, wrong seat count, unknown agent),
        ``TooManyTables`` when the server is full; nothing is created then.
        """
        self._forget_old()
        if sum(table.status in (TableStatus.WAITING, TableStatus.PLAYING) for table in self.tables.values()) \
                >= MAX_ACTIVE_TABLES:
            raise TooManyTables(f"the server holds {MAX_ACTIVE_TABLES} tables in progress; try again later")
        game = load_game(game_name)
        ruleset = game.default_rules() if rules is None else game.rules_from_json(rules)
        if len(seats) != game.num_players:
            raise PaijuError(f"{game.name} is played by {game.num_players} seats, got {len(seats)}")
        seat_list = [self._seat(game.name, number, spec) for number, spec in enumerate(seats)]
        seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
        bots = await asyncio.to_thread(self._make_bots, game.name, seat_list, seed)
        table = Table(f"t-{secrets.token_hex(6)}", game, ruleset, seed, seat_list, bots, self.store,
                      self.settings)
        self.tables[table.table_id] = table
        table.open()
        return table

    def get(self, table_id: str) -> Table:
        try:
            return self.tables[table_id]
        except KeyError:
            raise TableNotFound(f"no table {table_id!r}") from None

    def listing(self) -> list[Table]:
        """The tables held, newest first."""
        self._forget_old()
        return list(reversed(self.tables.values()))

    async def close(self) -> None:
        """Stop every table (the server is shutting down; games in progress are lost)."""
        tables = list(self.tables.values())
        self.tables.clear()
        for table in tables:
            table.dismiss(WS_1001_GOING_AWAY, "the server is shutting down")
        await asyncio.gather(*(table.task for table in tables if table.task), return_exceptions=True)

    @staticmethod
    def _seat(game: str, number: int, spec: str) -> Seat:
        if spec == SeatKind.HUMAN:
            return Seat(number, SeatKind.HUMAN, token=new_token())
        if spec == SeatKind.OPEN:
            return Seat(number, SeatKind.OPEN)
        if spec not in offered_agents(game):
            raise PaijuError(f"seat {number}: {spec!r} is neither \"human\", \"open\" nor a {game} agent "
                             f"({', '.join(offered_agents(game))})")
        return Seat(number, SeatKind.BOT, agent=spec)

    @staticmethod
    def _make_bots(game: str, seats: list[Seat], seed: int) -> dict[int, Agent]:
        """The bot seats' agents, each seeded from the table's seed and its seat."""
        return {seat.number: make_bot(seat.agent, game, seed + seat.number)
                for seat in seats if seat.agent is not None}

    def _forget_old(self) -> None:
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.ended_at is not None and now - table.ended_at > ENDED_TABLE_LIFETIME:
                del self.tables[table.table_id]
            elif table.status is TableStatus.WAITING and now - table.opened_at > WAITING_TABLE_LIFETIME:
                table.dismiss(WS_1001_GOING_AWAY, "the table waited too long for its seats")
                del self.tables[table.table_id]
