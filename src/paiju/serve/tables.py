"""A table's runtime: its seats, its game, and the asyncio task that plays the game from the deal to the
stored record.

A table is ``waiting`` until every human and open seat's token holder has connected at least once (bots
are ready at once), ``playing`` while its task runs the game, then ``finished`` (the record is stored in
one transaction and every connected seat gets ``end``) or ``aborted``: an unexpected error is logged,
every connected seat gets ``error`` and its websocket is closed with code 1011, nothing is stored, and no
other table notices.

Each turn a bot waits the table's ``bot_delay`` seconds and chooses in a worker thread (the event loop never blocks);
a person or network bot gets ``act`` and has ``move_timeout`` seconds to answer, after which the server
plays the default action (pass when legal, else the first legal action in the engine's order), logs a
warning, and the record keeps it as a normal action — unless none of the table's people and network bots
is connected any more: the table is then abandoned (``aborted``, nothing stored), so that moves played by
timeout for absent players never become a stored game. A ladder table (``LadderTerms``) has its own time
control, is never abandoned (leaving a lost game must not spare a bot its rating), and plays at once the moves of
a seat that let ``forfeit_after`` moves time out; it counts each seat's timeouts and refused messages.

Every seat is sent only its own observation, and the last action as that seat may see it
(``State.action_seen_by``: a GuanDan tribute or return card stays sealed until its phase ends). Each seat's
observation is encoded once per position, reusing the text of the history it was sent before
(``paiju.serve.table_texts``).

Watching: a table of bots alone (no person or network seat, so nobody at it can profit from seeing the hands)
can be watched while it plays, every hand face up (``live_frames``: ``paiju.serve.replay_frames.LiveFrames``);
any other table shows its hands only in its replay, once it has ended.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from starlette.status import WS_1000_NORMAL_CLOSURE, WS_1001_GOING_AWAY, WS_1011_INTERNAL_ERROR

from paiju.agents.external import canonical_json, quote
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.game import JSON, Action, Game, Observation
from paiju.eval.seeds import derive_seed
from paiju.serve import protocol
from paiju.serve.bots import explain_candidates
from paiju.serve.protocol import ActionAnswer, ExplainRequest, Message, ProtocolError
from paiju.serve.replay_frames import LiveFrames
from paiju.serve.seats import Seat, SeatConnection, SeatKind, new_token
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore
from paiju.serve.table_texts import TableTexts
from paiju.serve.variants import playing_agents, ruleset_name

ABORTED_MESSAGE = "the table was stopped by a server error; the game was not stored"
ABANDONED_REASON = "every player left the table; the game was not stored"

log = logging.getLogger(__name__)


class TableStatus(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"
    ABORTED = "aborted"


class SeatNotFound(PaijuError):
    """A seat number the table does not have."""


class SeatUnavailable(PaijuError):
    """A seat that cannot be reserved: not an open seat, or reserved already."""


class HandsHidden(PaijuError):
    """A table with a person or network seat asked to be watched: its hands stay hidden while it plays."""


class TableAbandoned(Exception):
    """A move timed out while none of the table's people or network bots was connected."""


def default_action(legal: Sequence[Action]) -> Action:
    """The move played for a seat that did not answer in time: pass when legal, else the first legal action."""
    return next((action for action in legal if getattr(action, "is_pass", False)), legal[0])


@dataclass(frozen=True, slots=True)
class PendingAct:
    """A decision the table is waiting for: ``answer`` resolves to one of ``legal``."""

    seat: int
    legal: list[Action]
    legal_json: list[JSON]
    deadline: float
    """Event-loop time after which the default action is played."""
    answer: asyncio.Future[Action]


@dataclass(frozen=True, slots=True)
class LadderTerms:
    """How a ladder table differs from a lobby table (``paiju.serve.ladder``): its time control, the timeouts
    after which a seat forfeits its turns, and the ruleset name its game is stored and rated under. It is never
    abandoned: a bot that leaves loses its moves to the default action, and the game is stored and rated."""

    move_timeout: float
    forfeit_after: int
    ruleset: str


class Table:
    """One game at one table; create it with ``Lobby.create`` (or the ladder's ``Lobby.create_ladder``) and start
    it with ``open``."""

    def __init__(self, table_id: str, game: Game, rules: Any, seed: int, seats: list[Seat],
                 bots: dict[int, Agent], store: GameStore, settings: ServeSettings,
                 bot_delay: float | None = None, ladder: LadderTerms | None = None) -> None:
        self.table_id = table_id
        self.bot_delay = bot_delay if bot_delay is not None else (
            settings.bot_delay if any(seat.kind is not SeatKind.BOT for seat in seats) else 0.0)
        """Seconds each bot waits before acting: the table's choice, else the server's for a table with a person
        or network seat, and none for a table of bots alone (to be watched move by move, it chooses a delay)."""
        self.ladder = ladder
        """The terms of a ladder table (``None``: a lobby table)."""
        self.game = game
        self.seed = seed
        self.seats = seats
        self.bots = bots
        self.store = store
        self.settings = settings
        self.state = game.new_state(seed, rules)
        self._texts = TableTexts(self.state)
        self.rules_json: Message = self.state.to_record()["rules"]
        self.ruleset = ruleset_name(game.name, self.rules_json)
        """The rule variant's name (``paiju.serve.variants``), stored with the game; ``None``: the classic rules."""
        self.agents = playing_agents(game.name, self.rules_json)
        """The agents that play these rules: those an explain request may ask."""
        self.status = TableStatus.WAITING
        self.created = datetime.now(UTC).isoformat(timespec="seconds")
        self.opened_at = time.monotonic()
        self.ended_at: float | None = None
        """``time.monotonic()`` when the table finished or was aborted."""
        self.last: tuple[int, Action] | None = None
        """The latest action and its seat."""
        self.moves: list[tuple[int, Action]] = []
        """Every ``(seat, action)`` played so far, in order."""
        self.watchable = all(seat.kind is SeatKind.BOT for seat in seats)
        """Whether the table may be watched while it plays, every hand face up: its seats are all bots."""
        self._opening = self.state.clone() if self.watchable else None
        self._live: LiveFrames | None = None
        self.result: Message | None = None
        self.record_id: str | None = None
        self.task: asyncio.Task[None] | None = None
        self._pending: PendingAct | None = None
        self._explaining: set[int] = set()
        self._advisers: set[asyncio.Task[None]] = set()
        """Explain tasks in progress (held here so that they are not garbage-collected)."""
        self._seated = asyncio.Event()
        self.timeouts: dict[int, int] = {}
        """Seat → its moves played by timeout."""
        self.refused: dict[int, int] = {}
        """Seat → its messages refused with ``error``."""

    def open(self) -> None:
        """Start the table's task: it waits for the seats, plays the game and stores it."""
        self.task = asyncio.create_task(self._run(), name=f"table {self.table_id}")
        self._check_seated()

    def dismiss(self, code: int, reason: str) -> None:
        """Stop the table's task (a game in progress is lost) and close its websockets with ``code``."""
        if self.task is not None:
            self.task.cancel()
        for seat in self.seats:
            if seat.connection is not None:
                seat.connection.close(code, reason)

    def lobby_json(self) -> Message:
        """``{"table_id", "game", "ruleset", "status", "seats", "created", "bot_delay", "watchable"}`` as the lobby
        lists it."""
        return {"table_id": self.table_id, "game": self.game.name, "ruleset": self.ruleset, "status": self.status.value,
                "seats": [seat.lobby_json() for seat in self.seats], "created": self.created,
                "bot_delay": self.bot_delay, "watchable": self.watchable}

    def live_frames(self) -> LiveFrames:
        """The table's frames, every hand face up, made on first request (``HandsHidden`` unless ``watchable``)."""
        if self._opening is None:
            raise HandsHidden(f"table {self.table_id} has a person or network seat: its hands stay hidden while it "
                              "plays; its replay opens when it ends")
        if self._live is None:
            self._live = LiveFrames(self.game, self._opening)
        return self._live

    def seat(self, number: int) -> Seat:
        if not 0 <= number < len(self.seats):
            raise SeatNotFound(f"table {self.table_id} has no seat {number} (seats 0-{len(self.seats) - 1})")
        return self.seats[number]

    def seat_opened_by(self, token: str) -> Seat | None:
        """The seat whose token is ``token``, if any."""
        return next((seat for seat in self.seats if seat.opens_with(token)), None)

    def reserve(self, number: int, client: str) -> str:
        """Give open seat ``number`` a token held by ``client`` (its address) and return it."""
        seat = self.seat(number)
        if seat.kind is not SeatKind.OPEN:
            raise SeatUnavailable(f"seat {number} of table {self.table_id} is not open: it is a {seat.kind} seat")
        if seat.token is not None:
            raise SeatUnavailable(f"seat {number} of table {self.table_id} is already reserved")
        if self.status is not TableStatus.WAITING:
            raise SeatUnavailable(f"table {self.table_id} is {self.status}: its seats can no longer be reserved")
        seat.hand_out(new_token(), client)
        return seat.token  # type: ignore[return-value]

    def expire_tokens(self, now: float, timeout: float) -> bool:
        """Give up the seat tokens of a waiting table unused for ``timeout`` seconds: an open seat opens again;
        a human seat cannot, so then the answer is True (the table can never start and is to be closed)."""
        if self.status is not TableStatus.WAITING:
            return False
        unused = [seat for seat in self.seats if seat.token is not None and not seat.joined
                  and now - seat.token_issued > timeout]
        for seat in unused:
            if seat.kind is SeatKind.OPEN:
                log.info("table %s: the reservation of seat %d expired unused", self.table_id, seat.number)
                seat.hand_out(None, None)
        return any(seat.kind is SeatKind.HUMAN for seat in unused)

    def reservations_of(self, client: str) -> int:
        """Open seats of this unfinished table that ``client`` holds reserved."""
        if self.status not in (TableStatus.WAITING, TableStatus.PLAYING):
            return 0
        return sum(1 for seat in self.seats if seat.kind is SeatKind.OPEN and seat.holder == client)

    @property
    def in_progress(self) -> bool:
        """Waiting for its seats or playing."""
        return self.status in (TableStatus.WAITING, TableStatus.PLAYING)

    # The seat websocket's side: every method runs on the event loop, so none needs a lock.

    def attach(self, seat: Seat, connection: SeatConnection) -> None:
        """Attach a new websocket to ``seat``, replacing (closing) an older one, and bring it up to date:
        ``welcome``, then once the game has begun the current ``update`` and the pending ``act`` or the ``end``."""
        if seat.connection is not None:
            seat.connection.close(WS_1000_NORMAL_CLOSURE, f"replaced by a newer connection to seat {seat.number}")
        seat.connection, seat.joined = connection, True
        connection.send(protocol.welcome(self.game.name, seat.number, self.table_id,
                                         [other.public_json() for other in self.seats], self.rules_json))
        if self.status is TableStatus.ABORTED:
            self._send_abort(connection)
            return
        if self.status is not TableStatus.WAITING:
            connection.send(self._update(seat.number))
            self._send_act(seat)
            self._send_end(seat)
        self._check_seated()

    def detach(self, seat: Seat, connection: SeatConnection) -> None:
        """Forget ``connection`` (its client left), unless a newer one replaced it already."""
        if seat.connection is connection:
            seat.connection = None

    def receive(self, seat: Seat, connection: SeatConnection, text: str) -> None:
        """Handle one client message; a refused one gets ``error`` and changes nothing."""
        if seat.connection is not connection:
            return  # a replaced connection's last words
        try:
            message = protocol.parse_client_message(text)
            if isinstance(message, ActionAnswer):
                self._answer(seat, message.action)
            elif isinstance(message, ExplainRequest):
                self._explain(seat, connection, message.agent)
            else:
                connection.send(protocol.pong())
        except ProtocolError as refusal:
            self.refused[seat.number] = self.refused.get(seat.number, 0) + 1
            connection.send(protocol.error(str(refusal)))

    def _pending_for(self, seat: Seat) -> PendingAct:
        """The decision ``seat`` is asked for now; ``ProtocolError`` saying why there is none."""
        if self.status is TableStatus.WAITING:
            raise ProtocolError("the game has not started: the table is waiting for every seat to connect")
        if self.status is not TableStatus.PLAYING or self.state.is_terminal():
            raise ProtocolError(f"the game is over (the table is {self.status})")
        pending = self._pending
        if pending is not None and pending.seat == seat.number and not pending.answer.done():
            return pending
        to_act = self.state.current_player
        if to_act != seat.number:
            raise ProtocolError(f"it is not your turn: seat {to_act} is to act")
        raise ProtocolError(f"no act is pending for seat {seat.number}")

    def _answer(self, seat: Seat, value: JSON) -> None:
        """Resolve the pending act with the legal action whose JSON equals ``value`` as JSON (``canonical_json``:
        ``1`` is not ``true``); the legal values are plain JSON, so only those equal in Python are spelled out."""
        pending = self._pending_for(seat)
        try:
            wanted = canonical_json(value)
        except RecursionError:
            raise ProtocolError("the action is nested too deeply to be any legal action") from None
        for action, legal_value in zip(pending.legal, pending.legal_json, strict=True):
            if legal_value == value and canonical_json(legal_value) == wanted:
                pending.answer.set_result(action)
                return
        refusal = f"action {quote(wanted)} is not one of the {len(pending.legal)} legal actions"
        raise ProtocolError(f"{refusal}{self._why_refused(pending, value)}")

    def _why_refused(self, pending: PendingAct, value: JSON) -> str:
        """What the engine says of an answer that is no legal action's JSON (``": "`` and its reason, ``"; ..."`` and
        the legal spelling of a legal action written otherwise), or ``""`` when it says nothing more."""
        try:
            action = self.state.action_from_json(value)
            if action in pending.legal:
                spelled = pending.legal_json[pending.legal.index(action)]
                return f"; that play is written {quote(canonical_json(spelled))}"
            self.state.clone().apply(action, seat=pending.seat)
        except PaijuError as error:
            return f": {error}"
        except Exception:  # whatever else a reader raises, the refusal stands without a reason
            return ""
        return ""

    def _explain(self, seat: Seat, connection: SeatConnection, agent: str) -> None:
        """Start answering an explain request in a worker thread, on a copy of the state."""
        self._pending_for(seat)
        if agent not in self.agents:
            rules = f" under these rules ({self.ruleset})" if self.ruleset else ""
            raise ProtocolError(f"unknown agent {agent!r} for {self.game.name}{rules}; known: {', '.join(self.agents)}")
        if seat.number in self._explaining:
            raise ProtocolError(f"an explain request for seat {seat.number} is still being answered")
        self._explaining.add(seat.number)
        snapshot = self.state.clone()  # the seat may answer while the adviser thinks
        adviser = asyncio.create_task(self._advise(seat.number, connection, agent, snapshot.observation(seat.number),
                                                   snapshot.legal_actions()))
        self._advisers.add(adviser)
        adviser.add_done_callback(self._advisers.discard)

    async def _advise(self, number: int, connection: SeatConnection, agent: str, observation: Observation,
                      legal: list[Action]) -> None:
        try:
            candidates, scale = await asyncio.to_thread(explain_candidates, self.game, agent, observation, legal,
                                                        self.rules_json, derive_seed(self.seed, "agent", number))
            connection.send(protocol.explain(agent, candidates, scale))
        except Exception:  # an adviser failing must not stop the table
            log.exception("table %s: agent %s could not explain seat %d's decision", self.table_id, agent, number)
            connection.send(protocol.error(f"agent {agent!r} could not explain this decision"))
        finally:
            self._explaining.discard(number)

    # The table's task.

    def _check_seated(self) -> None:
        if all(seat.ready for seat in self.seats):
            self._seated.set()

    async def _run(self) -> None:
        try:
            await self._seated.wait()
            self.status = TableStatus.PLAYING
            await self._play()
            await self._store()
        except asyncio.CancelledError:
            raise
        except TableAbandoned:
            log.info("table %s (%s) abandoned by every player; nothing stored", self.table_id, self.game.name)
            self.status, self.ended_at = TableStatus.ABORTED, time.monotonic()
            self.dismiss(WS_1001_GOING_AWAY, ABANDONED_REASON)
        except Exception:
            log.exception("table %s (%s, seed %d) aborted", self.table_id, self.game.name, self.seed)
            self.status, self.ended_at = TableStatus.ABORTED, time.monotonic()
            for seat in self.seats:
                if seat.connection is not None:
                    self._send_abort(seat.connection)
        finally:
            await asyncio.to_thread(self._close_bots)
            self.bots = {}  # an ended table is kept for the lobby; its agents (networks) are not needed

    async def _play(self) -> None:
        """Play to the end: ``start`` at each new deal, ``update`` after it and after every action."""
        state, deal = self.state, None
        while True:
            if state.deal_number != deal and not state.is_terminal():
                deal = state.deal_number
                if self.bots:
                    await asyncio.to_thread(self._begin_bots)
                self._broadcast(lambda seat: protocol.start(self.game.name, seat.number, self.rules_json))
            self._broadcast(lambda seat: self._update(seat.number))
            seat = state.current_player
            if seat is None:
                self._texts.forget()
                return
            legal = state.legal_actions()
            action = await (self._bot_move(seat, legal) if seat in self.bots else self._remote_move(seat, legal))
            state.apply(action, seat=seat)
            self._texts.moved()
            self.last = (seat, action)
            self.moves.append(self.last)

    async def _bot_move(self, seat: int, legal: list[Action]) -> Action:
        await asyncio.sleep(self.bot_delay)
        return await asyncio.to_thread(self.bots[seat].act, self.state.observation(seat), legal)

    async def _remote_move(self, seat: int, legal: list[Action]) -> Action:
        """Ask the seat's client (now, and again on reconnect) and wait up to ``move_timeout`` seconds (a ladder
        table's own time control); at a ladder table, a seat that let ``forfeit_after`` moves time out has
        forfeited its turns: its moves are the default action at once."""
        loop = asyncio.get_running_loop()
        timeout = self.settings.move_timeout if self.ladder is None else self.ladder.move_timeout
        if self.ladder is not None and self.timeouts.get(seat, 0) >= self.ladder.forfeit_after:
            return default_action(legal)
        pending = PendingAct(seat, legal, [self.game.action_to_json(action) for action in legal],
                             loop.time() + timeout, loop.create_future())
        self._pending = pending
        self._send_act(self.seats[seat])
        try:
            return await asyncio.wait_for(pending.answer, timeout)
        except TimeoutError:
            if self.ladder is None and not self._anyone_connected():
                raise TableAbandoned from None
            self.timeouts[seat] = self.timeouts.get(seat, 0) + 1
            action = default_action(legal)
            log.warning("table %s: seat %d made no move within %g s; played the default action %s",
                        self.table_id, seat, timeout, canonical_json(self.game.action_to_json(action)))
            return action
        finally:
            self._pending = None

    def _anyone_connected(self) -> bool:
        """Whether a person or network bot of this table is connected now."""
        return any(seat.connection is not None and not seat.connection.closing
                   for seat in self.seats if seat.kind is not SeatKind.BOT)

    async def _store(self) -> None:
        """Store the finished game (one transaction), then tell every seat."""
        self.result = self.state.result()
        if self.bots:
            await asyncio.to_thread(self._finish_bots, self.result)
        self.record_id = await asyncio.to_thread(  # a long game's record takes a while to build: off the loop too
            lambda: self.store.add_finished(self.game.name, [seat.name for seat in self.seats], self.state.to_record(),
                                            self.result, None if self.ladder is None else self.ladder.ruleset,
                                            self.ruleset))
        self.status, self.ended_at = TableStatus.FINISHED, time.monotonic()
        for seat in self.seats:
            self._send_end(seat)

    # Messages: each seat is sent its own observation only.

    def _update(self, seat: int) -> Message:
        state = self.state
        last = None
        if self.last is not None:
            actor, action = self.last
            last = {"seat": actor, "action": state.action_seen_by(seat, actor, action)}
        return protocol.update(self.game.name, seat, state.phase, self._texts.observation(seat), state.current_player,
                               last, state.deal_number)

    def _broadcast(self, message_for: Callable[[Seat], Message]) -> None:
        """Send ``message_for(seat)`` to every connected seat."""
        for seat in self.seats:
            if seat.connection is not None:
                seat.connection.send(message_for(seat))

    def _send_act(self, seat: Seat) -> None:
        pending = self._pending
        if seat.connection is None or pending is None or pending.seat != seat.number or pending.answer.done():
            return
        remaining = max(0.0, pending.deadline - asyncio.get_running_loop().time())
        seat.connection.send(protocol.act(self.game.name, seat.number, self.state.phase,
                                          self._texts.observation(seat.number), pending.legal_json,
                                          remaining))

    def _send_end(self, seat: Seat) -> None:
        if seat.connection is not None and self.record_id is not None and self.result is not None:
            seat.connection.send(protocol.end(self.game.name, seat.number, self.result, self.record_id))

    @staticmethod
    def _send_abort(connection: SeatConnection) -> None:
        connection.send(protocol.error(ABORTED_MESSAGE))
        connection.close(WS_1011_INTERNAL_ERROR, "table aborted")

    # Bots (called in worker threads).

    def _begin_bots(self) -> None:
        for seat, bot in self.bots.items():
            bot.begin(self.game.name, seat, self.rules_json)

    def _finish_bots(self, result: Message) -> None:
        for bot in self.bots.values():
            bot.finish(result)

    def _close_bots(self) -> None:
        for seat, bot in self.bots.items():
            try:
                bot.close()
            except Exception:
                log.exception("table %s: closing the bot at seat %d failed", self.table_id, seat)
