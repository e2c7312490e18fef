"""The agent bridge: any paiju agent plays on the far side of the protocol (``shared/specs/protocol.md``).

- ``run_stdio_bot`` (``paiju bot AGENT --game G``) is an external-protocol program: protocol v1 lines on
  stdin, answers on stdout. So ``ext:paiju bot dmc --game doudizhu`` plays wherever agents are named.
- ``run_arena_bot`` (``paiju connect URL --agent AGENT``) plays an arena seat over its websocket
  (``paiju.serve``: ``ws://HOST:PORT/ws/tables/{id}?token=T``) until the game ends.

Both rebuild the agent's observation from each ``act``'s ``obs`` (``Game.observation_from_json``, under the
rules of the last ``start``) and its legal actions from ``legal`` (``Observation.action_from_json``), and
answer ``{"action": A}`` with A the element of ``legal`` the agent chose, copied verbatim. ``start`` calls the
agent's ``begin``, ``end`` its ``finish``. A message the bridge cannot read raises ``BridgeError`` naming
the problem; no answer is ever made up. The arena's own messages (``welcome``, ``update``, ``explain``,
``pong``) need no answer; its ``error`` (an answer refused, e.g. one that came after the deadline) is logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from paiju.agents import make_agent
from paiju.agents.external import PROTOCOL_VERSION, encode_message, quote
from paiju.core.agent import Agent
from paiju.core.errors import AgentError, PaijuError
from paiju.core.game import JSON, Game
from paiju.core.registry import load_game

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

Message = dict[str, JSON]

log = logging.getLogger(__name__)


class BridgeError(PaijuError):
    """A protocol message the bridge cannot read (not JSON, a missing or ill-typed field, a bad ``obs``)."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """An arena game the bridge played to the end: the seat, the result (payoffs by seat) and the stored record."""

    seat: int
    result: Message
    record_id: str


class BridgedSeat:
    """A paiju agent playing one seat of ``game`` from protocol v1 messages."""

    def __init__(self, game: Game, agent: Agent) -> None:
        self.game = game
        self.agent = agent
        self.seat: int | None = None
        """The seat of the game in progress; ``None`` before the first ``start``."""
        self.rules: Any = None

    def handle(self, message: Message) -> Message | None:
        """Play a ``start``, ``act`` or ``end`` message; the answer to ``act``, ``None`` for the others."""
        kind = message.get("type")
        if message.get("v") != PROTOCOL_VERSION:
            raise BridgeError(f'{kind} message: expected "v": {PROTOCOL_VERSION}, got {message.get("v")!r}')
        if message.get("game") != self.game.name:
            raise BridgeError(f"{kind} message: this seat plays {self.game.name}, not {message.get('game')!r}")
        if kind == "start":
            self.start(_seat(message, self.game), _field(message, "rules", dict))
            return None
        if kind == "act":
            return self.act(message)
        if kind == "end":
            self.agent.finish(_field(message, "result", dict))
            return None
        raise BridgeError(f"unknown message type {kind!r}; expected start, act or end")

    def start(self, seat: int, rules: Message) -> None:
        """A game (or GuanDan round) begins with this agent at ``seat`` under ``rules`` (JSON form)."""
        try:
            self.rules = self.game.rules_from_json(rules)
        except PaijuError as error:
            raise BridgeError(f"start message: bad rules: {error}") from None
        self.seat = seat
        self.agent.begin(self.game.name, seat, rules)

    def act(self, message: Message) -> Message:
        """``{"action": A}``: the element of the message's ``legal`` the agent chooses."""
        seat = _seat(message, self.game)
        if self.seat is None:
            raise BridgeError("act message before any start: no game has begun")
        if seat != self.seat:
            raise BridgeError(f"act message for seat {seat}, but this agent plays seat {self.seat}")
        phase = _field(message, "phase", str)
        legal_json = _field(message, "legal", list)
        if not legal_json:
            raise BridgeError("act message: \"legal\" is empty")
        try:
            observation = self.game.observation_from_json(_field(message, "obs", dict), seat, phase, self.rules)
        except PaijuError as error:
            raise BridgeError(f"act message: {error}") from None
        legal = []
        for index, value in enumerate(legal_json):
            try:
                legal.append(observation.action_from_json(value))
            except PaijuError as error:
                raise BridgeError(f"act message: \"legal\" entry {index}: {error}") from None
        choice = self.agent.act(observation, legal)
        for action, value in zip(legal, legal_json, strict=True):
            if action == choice:
                return {"action": value}
        raise AgentError(self.agent.name, seat, f"chose {choice!r}, which is not in legal")


def _field(message: Message, name: str, kind: type) -> Any:
    """``message[name]``, which must be of JSON type ``kind``."""
    value = message.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BridgeError(f"{message.get('type')} message: {name!r} must be {_KINDS[kind]}, got {value!r:.80}")
    return value


_KINDS = {dict: "a JSON object", list: "a list", str: "a string", int: "an integer"}


def _seat(message: Message, game: Game) -> int:
    seat = _field(message, "seat", int)
    if not 0 <= seat < game.num_players:
        raise BridgeError(f"{message.get('type')} message: a {game.name} seat is 0-{game.num_players - 1}, got {seat}")
    return seat


def read_message(text: str | bytes) -> Message:
    """One protocol message: a JSON object, in UTF-8 text."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        message = json.loads(text)
    except UnicodeDecodeError:
        raise BridgeError(f"not UTF-8 text: {text[:80]!r}") from None
    except json.JSONDecodeError as error:
        raise BridgeError(f"not JSON ({error.msg}): {quote(text.rstrip())}") from None
    if not isinstance(message, dict):
        raise BridgeError(f"a message is a JSON object, got {quote(text.rstrip())}")
    return message


def run_stdio_bot(agent_spec: str, game: str, seed: int, stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Play as agent ``agent_spec`` (built with ``seed``) every ``game`` game that protocol v1 lines on ``stdin``
    ask for, answering each ``act`` with one line on ``stdout`` (flushed), until ``stdin`` ends.

    Raises ``BridgeError`` naming the line and the problem for input it cannot read (nothing is answered).
    """
    bridged = BridgedSeat(load_game(game), make_agent(agent_spec, game, seed))
    try:
        for number, line in enumerate(stdin, 1):
            if not line.strip():
                continue
            try:
                answer = bridged.handle(read_message(line))
            except BridgeError as error:
                raise BridgeError(f"line {number}: {error}") from None
            if answer is not None:
                stdout.write(encode_message(answer))
                stdout.flush()
    finally:
        bridged.agent.close()


async def run_arena_bot(url: str, agent_spec: str, seed: int = 0) -> FinishedGame:
    """Play the arena seat at ``url`` (``ws://HOST:PORT/ws/tables/{id}?token=T``) as agent ``agent_spec`` (built
    with ``seed``) until the game ends; the agent thinks in a worker thread. Raises ``PaijuError`` when the
    connection fails or closes before the end, and ``BridgeError`` for a message it cannot read."""
    import websockets  # only the arena bot needs it: ``paiju bot`` starts faster without

    try:
        async with websockets.connect(url) as connection:
            game = await _play_seat(connection, agent_spec, seed)
            if game is None:
                raise _closed_early(connection.close_code, connection.close_reason)
            return game
    except websockets.exceptions.ConnectionClosed as closed:
        frame = closed.rcvd
        raise _closed_early(None if frame is None else frame.code, None if frame is None else frame.reason) from None
    except (OSError, websockets.exceptions.InvalidURI, websockets.exceptions.InvalidHandshake) as error:
        raise PaijuError(f"cannot connect to the arena at {url}: {error}") from None


def _closed_early(code: int | None, reason: str | None) -> PaijuError:
    why = "without a close frame" if code is None else f"with code {code}" + (f" ({reason})" if reason else "")
    return PaijuError(f"the arena closed the connection {why} before the game ended")


async def _play_seat(connection: ClientConnection, agent_spec: str, seed: int) -> FinishedGame | None:
    """Play the seat until ``end`` (its game) or until the arena closes the connection (``None``)."""
    bridged: BridgedSeat | None = None
    welcome: Message = {}
    try:
        async for text in connection:
            message = read_message(text)
            kind = message.get("type")
            if kind == "welcome":
                welcome = message
                game = load_game(_field(message, "game", str))
                bridged = bridged or BridgedSeat(game, await asyncio.to_thread(make_agent, agent_spec, game.name, seed))
            elif kind in ("start", "act", "end"):
                if bridged is None:
                    raise BridgeError(f"the arena sent {kind} before welcome")
                if kind == "act" and bridged.seat is None:  # joined a game in progress: no start will come
                    bridged.start(_seat(welcome, bridged.game), _field(welcome, "rules", dict))
                answer = await asyncio.to_thread(bridged.handle, message)
                if answer is not None:
                    await connection.send(json.dumps(answer))
                if kind == "end":
                    return FinishedGame(_seat(message, bridged.game), message["result"],
                                        _field(message, "record_id", str))
            elif kind == "error":
                log.warning("the arena refused a message: %s", message.get("message"))
            elif kind not in ("update", "explain", "pong"):
                raise BridgeError(f"unknown arena message type {kind!r}")
    finally:
        if bridged is not None:
            await asyncio.to_thread(bridged.agent.close)
    return None


__all__ = ["BridgeError", "BridgedSeat", "FinishedGame", "read_message", "run_arena_bot", "run_stdio_bot"]
