"""The GuanDan competition platform endpoint: ``ws://HOST:PORT/game/{name}`` (``shared/specs/guandan.md``,
"Competition platform protocol"; messages in ``platform_messages``).

- **Matches**: as on the competition's own server, any four waiting clients form a match, seated 0..3 in
  connection order (the 1st and 3rd connected are a team, as are the 2nd and 4th), whatever ``name`` each
  connected under (the competition's clients use one name per seat: ``/game/client0`` .. ``/game/client3``);
  the next client to connect waits for the next match. With ``settings.platform_group_by_name`` only
  clients of the same ``name`` are matched together. A client that leaves before its match starts gives up
  its place; the others keep their order.
- **Games**: each match plays ``settings.platform_games`` full games to A under paiju's default GuanDan
  rules, with tribute and back. Every game is dealt from its own seed, kept in its record: a fresh secure
  random seed of ``SEED_BITS`` bits per game, drawn independently, so that no game's deal follows from
  another's record (a stored record is public once its game ends, while the match's next game is still
  played). When all four clients connected with the same ``?seed=S`` (an integer; for tests and replays),
  game ``k`` (from 0) is dealt from ``game_seed(S, k)``, SHA-256 of ``S`` and ``k``: every one of the four can
  then compute every hand, as all four chose ``S``. Different or missing seeds: random seeds.
- **Answers**: ``{"actIndex": i}`` with ``0 <= i <= indexRange``; anything else (text that is not JSON, JSON
  nested too deeply, a number with too many digits, a wrong key or index), or a message when no act is
  pending, is answered ``{"type": "error", "message": ...}`` and changes nothing. The client keeps its turn
  until it answers validly or ``settings.move_timeout`` seconds after the act was sent; then the default
  action (the pass when legal, else the first of ``actionList``) is played and logged.
- **Disconnects**: a client that disconnects mid-match leaves its seat to the default action, played at
  once, for the rest of the match; the match still finishes and is stored. So does a client one of whose
  messages is not written within ``settings.send_timeout`` seconds (it does not read, and its socket
  buffer is full): nothing more is sent to it, and its connection is left to end when the client goes (ASGI
  cannot drop a connection whose unsent data it still holds). When all four have left, the match is
  abandoned (the game in progress is not stored).
- **Limits**: at most ``MAX_WAITING`` clients wait for a match at once (over all names; without grouping by
  name at most three ever wait); a further client that would wait is sent an ``error`` and closed with code
  1013 (try again later). A malformed ``seed`` is refused with an
  ``error`` and code 1008.
- **Storage**: every finished game is stored with ``store.add_finished("guandan", seats, record, result)``,
  each seat named after its own client, ``platform:<name>#<seat>``.

Each match runs in its own task: an error in one is logged, reported to its clients and ends that match only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from paiju.core.registry import load_game
from paiju.games.guandan.state import BACK_PHASE, PLAY_PHASE, TRIBUTE_PHASE, GuanDanState
from paiju.serve import platform_messages as messages
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore

SEATS = 4
SEED_BITS = 128
MAX_WAITING = 256
"""Clients that may wait for a match at once, over all names."""
SERVER_ERROR = "the match stopped on a server error"
POLICY_VIOLATION = 1008
"""Websocket close code for a connection refused for what it asked (a malformed ``seed``)."""
TRY_AGAIN_LATER = 1013
"""Websocket close code for a connection refused while too many clients wait for a match."""
log = logging.getLogger(__name__)


class PlatformClient:
    """One connected client: its websocket, the name it connected under, the seed it asked for, its seat once
    matched, the act it owes. Every message to it must be written within ``send_timeout`` seconds."""

    def __init__(self, websocket: WebSocket, name: str, seed: int | None, send_timeout: float) -> None:
        self.websocket = websocket
        self.name = name
        self.seed = seed
        self.send_timeout = send_timeout
        self.seat = -1
        self.connected = True
        self._sending = asyncio.Lock()
        self._answer: asyncio.Future[int | None] | None = None
        self._index_range = -1

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message; a client that cannot be reached, or does not take the message within
        ``send_timeout`` seconds, counts as disconnected."""
        if not self.connected:
            return
        try:
            await asyncio.wait_for(self._write(json.dumps(message, separators=(",", ":"))), self.send_timeout)
        except TimeoutError:
            log.warning("platform client %r (seat %d) took no message for %s s: treated as disconnected",
                        self.name, self.seat, self.send_timeout)
            self.disconnect()
        except (WebSocketDisconnect, RuntimeError, OSError):
            self.disconnect()

    async def _write(self, text: str) -> None:
        async with self._sending:
            await self.websocket.send_text(text)

    async def ask(self, act: dict[str, Any], timeout: float) -> int | None:
        """Send the ``act`` message and wait for a valid ``actIndex``; ``None`` when the client is gone or
        ``timeout`` seconds pass."""
        if not self.connected:
            return None
        self._answer = asyncio.get_running_loop().create_future()
        self._index_range = act["indexRange"]
        try:
            await self.send(act)
            return await asyncio.wait_for(self._answer, timeout)
        except TimeoutError:
            return None
        finally:
            self._answer = None

    async def listen(self) -> None:
        """Handle the client's messages until it disconnects."""
        try:
            while True:
                event = await self.websocket.receive()
                if event["type"] == "websocket.disconnect":
                    return
                text = event.get("text")
                await self._handle(text if text is not None else (event.get("bytes") or b"").decode("utf-8", "replace"))
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            self.disconnect()

    async def _handle(self, text: str) -> None:
        answer = self._answer
        if answer is None or answer.done():
            await self.send(messages.error("no act is pending: answer only an act message, once"))
            return
        try:
            index = messages.read_answer(text, self._index_range)
        except messages.AnswerError as problem:
            await self.send(messages.error(str(problem)))
            return
        answer.set_result(index)

    def disconnect(self) -> None:
        """Mark the client gone; an act it owes gets no answer."""
        self.connected = False
        if self._answer is not None and not self._answer.done():
            self._answer.set_result(None)

    async def close(self, code: int = 1000) -> None:
        """Close the websocket (the match is over, or the client is refused), waiting at most ``send_timeout``
        seconds."""
        if self.connected:
            self.connected = False
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, TimeoutError):
                await asyncio.wait_for(self.websocket.close(code), self.send_timeout)


def asked_seed(clients: Sequence[PlatformClient]) -> int | None:
    """The seed all four clients asked for, or ``None`` (none asked, or they asked for different ones)."""
    asked = {client.seed for client in clients}
    if len(asked) == 1:
        return asked.pop()
    log.info("platform clients asked for different seeds %s: dealing from random seeds", sorted(map(str, asked)))
    return None


def game_seed(asked: int | None, number: int) -> int:
    """The seed of game ``number`` (from 0) of a match: a fresh secure random one of ``SEED_BITS`` bits, or,
    when the clients asked for seed ``asked``, the first ``SEED_BITS`` bits of SHA-256 of
    ``"paiju platform {asked} {number}"``."""
    if asked is None:
        return secrets.randbits(SEED_BITS)
    digest = hashlib.sha256(f"paiju platform {asked} {number}".encode()).digest()
    return int.from_bytes(digest[:SEED_BITS // 8], "big")


class PlatformMatch:
    """Four clients playing ``settings.platform_games`` games of GuanDan (see the module)."""

    def __init__(self, clients: list[PlatformClient], store: GameStore, settings: ServeSettings) -> None:
        self.clients = clients
        self.store = store
        self.settings = settings
        self.label = " ".join(client.name for client in clients)
        self.asked_seed = asked_seed(clients)
        self.play_area: messages.PlayArea = messages.EMPTY_PLAY_AREA

    @property
    def abandoned(self) -> bool:
        return not any(client.connected for client in self.clients)

    async def run(self) -> None:
        """Play the match, report it, close the clients; an error ends this match alone."""
        try:
            winners = []
            for number in range(self.settings.platform_games):
                state = load_game("guandan").new_state(game_seed(self.asked_seed, number))
                await self._play(state)
                if self.abandoned:
                    log.warning("platform match %r abandoned: every client left during game %d", self.label, number)
                    return
                await self._store(state)
                winners.append(state.winner)
                await self._broadcast(messages.game_over(number + 1, self.settings.platform_games))
            await self._broadcast(messages.game_result(winners))
        except Exception:  # one match's failure must not reach the others
            log.exception("platform match %r failed", self.label)
            # The details stay in the log: an engine error may quote a hand.
            await self._broadcast(messages.error(SERVER_ERROR))
        finally:
            for client in self.clients:
                await client.close()

    async def _play(self, state: GuanDanState) -> None:
        round_number = -1
        while not state.is_terminal() and not self.abandoned:
            if state.deal_number != round_number:
                round_number = state.deal_number
                await self._begin_round(state)
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            request = messages.act(state.observation(seat), self.play_area, legal)
            index = await self.clients[seat].ask(request, self.settings.move_timeout)
            if index is None:
                index = messages.default_index(legal)
                log.info("platform match %r: seat %d did not answer in time or left; default action %s",
                         self.label, seat, legal[index])
            await self._apply(state, seat, legal[index])
            await asyncio.sleep(0)  # let other matches run even when nobody here is waited for

    async def _begin_round(self, state: GuanDanState) -> None:
        self.play_area = messages.EMPTY_PLAY_AREA
        for client in self.clients:
            await client.send(messages.beginning(state.hands[client.seat], client.seat))
        if state.anti:
            await self._broadcast(messages.anti_tribute(state.anti))

    async def _apply(self, state: GuanDanState, seat: int, action: Any) -> None:
        """Apply ``action`` and tell every client what became public."""
        phase, greater, hands, rounds = state.phase, state.greater, list(state.hands), len(state.rounds)
        state.apply(action, seat)
        if phase == PLAY_PHASE:
            self.play_area = messages.next_play_area(self.play_area, seat, action, state.greater is None)
            await self._broadcast(messages.play(seat, action, greater))
        elif phase == TRIBUTE_PHASE and state.phase != TRIBUTE_PHASE:
            await self._broadcast(messages.gifts(TRIBUTE_PHASE, state.tributes))
        elif phase == BACK_PHASE and state.phase != BACK_PHASE:
            await self._broadcast(messages.gifts(BACK_PHASE, state.backs))
        if len(state.rounds) > rounds:
            summary = state.rounds[-1]
            rest = [(other, hand) for other, hand in enumerate(hands) if hand and other != seat]
            await self._broadcast(messages.episode_over(summary.outcome.order, summary.standing.level, rest))

    async def _store(self, state: GuanDanState) -> None:
        seats = [f"platform:{client.name}#{client.seat}" for client in self.clients]
        record_id = await asyncio.to_thread(self.store.add_finished, "guandan", seats, state.to_record(),
                                            state.result())
        log.info("platform match %r: game stored as %s", self.label, record_id)

    async def _broadcast(self, message: dict[str, Any]) -> None:
        for client in self.clients:
            await client.send(message)


class PlatformLobby:
    """Clients waiting for the four that make a match (in one queue, or one per name when
    ``settings.platform_group_by_name``); the matches running."""

    def __init__(self, store: GameStore, settings: ServeSettings) -> None:
        self.store = store
        self.settings = settings
        self.waiting: dict[str, list[PlatformClient]] = {}
        self.matches: set[asyncio.Task[None]] = set()

    def _queue(self, client: PlatformClient) -> str:
        return client.name if self.settings.platform_group_by_name else ""

    def join(self, client: PlatformClient) -> bool:
        """Seat ``client`` at the next match of its queue and start the match when it is the fourth; ``False``
        (nothing changes) when it would wait while ``MAX_WAITING`` clients already do."""
        queue = self._queue(client)
        group = self.waiting.get(queue, [])
        if len(group) + 1 < SEATS and sum(map(len, self.waiting.values())) >= MAX_WAITING:
            return False
        group = self.waiting.setdefault(queue, [])
        group.append(client)
        if len(group) < SEATS:
            return True
        del self.waiting[queue]
        for seat, member in enumerate(group):
            member.seat = seat
        match = PlatformMatch(group, self.store, self.settings)
        task = asyncio.create_task(match.run(), name=f"platform match {match.label}")
        self.matches.add(task)
        task.add_done_callback(self.matches.discard)
        return True

    def leave(self, client: PlatformClient) -> None:
        """Give up ``client``'s place if its match has not started; the others keep their order."""
        queue = self._queue(client)
        group = self.waiting.get(queue, [])
        if client not in group:
            return
        group.remove(client)
        if not group:
            del self.waiting[queue]


def parse_seed(text: str | None) -> int | None:
    """The ``seed`` query parameter: absent, or a decimal integer (``ValueError`` otherwise)."""
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"seed must be an integer, got {text[:40]!r}") from None


def platform_router(store: GameStore, settings: ServeSettings) -> APIRouter:
    """The router serving ``/game/{name}``."""
    router = APIRouter()
    lobby = PlatformLobby(store, settings)

    @router.websocket("/game/{name}")
    async def platform_game(websocket: WebSocket, name: str) -> None:
        await websocket.accept()
        try:
            seed = parse_seed(websocket.query_params.get("seed"))
        except ValueError as problem:
            await _refuse(PlatformClient(websocket, name, None, settings.send_timeout), str(problem),
                          POLICY_VIOLATION)
            return
        client = PlatformClient(websocket, name, seed, settings.send_timeout)
        if not lobby.join(client):
            await _refuse(client, f"too many clients are waiting for a match ({MAX_WAITING}); try again later",
                          TRY_AGAIN_LATER)
            return
        try:
            await client.listen()
        finally:
            lobby.leave(client)

    return router


async def _refuse(client: PlatformClient, problem: str, code: int) -> None:
    """Send ``problem`` to ``client`` as an ``error`` and close its websocket with ``code``."""
    await client.send(messages.error(problem))
    await client.close(code)
