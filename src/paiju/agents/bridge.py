"""The agent bridge: any paiju agent plays on the far side of the protocol (``shared/specs/protocol.md``).

- ``run_stdio_bot`` (``paiju bot AGENT --game G``) is an external-protocol program: protocol v1 lines on
  stdin, answers on stdout. So ``ext:paiju bot dmc --game doudizhu`` plays wherever agents are named.
- ``run_arena_bot`` (``paiju connect URL --agent AGENT``) plays an arena seat over its websocket
  (``paiju.serve``: ``ws://HOST:PORT/ws/tables/{id}?token=T``) until the game ends.
- ``run_ladder_bot`` (``paiju connect --ladder URL --key K --agent AGENT``) queues a registered bot on the
  arena's ladder (``paiju.serve.ladder``: ``ws://HOST:PORT/ws/ladder``) and plays every seat it is given, one
  game after another, until it has played ``games`` games or the ladder sends it off.
- ``run_platform_bot`` (``paiju connect --platform URL --agent AGENT``) plays a GuanDan agent as a client of a
  competition platform server (``ws://HOST:PORT/game/NAME``: paiju's own or the competition's) until the
  match ends (``PlatformSeat``).

The first two rebuild the agent's observation from each ``act``'s ``obs`` (``Game.observation_from_json``,
under the rules of the last ``start``) and its legal actions from ``legal`` (``Observation.action_from_json``),
and answer ``{"action": A}`` with A the element of ``legal`` the agent chose, copied verbatim. ``start`` calls
the agent's ``begin``, ``end`` its ``finish``. A message the bridge cannot read raises ``BridgeError`` naming
the problem; no answer is ever made up. A perfect-information analysis player (``PerfectInformationAgent``) is
refused: the bridge plays from observations only. The arena's own messages (``welcome``, ``update``, ``explain``,
``pong``) need no answer; its ``error`` (an answer refused, e.g. one that came after the deadline) is logged,
as is the platform's.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar

from paiju.agents import make_agent
from paiju.agents.external import PROTOCOL_VERSION, encode_message, quote
from paiju.core.agent import Agent, require_observing
from paiju.core.errors import AgentError, PaijuError
from paiju.core.game import JSON, Game
from paiju.core.registry import load_game

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

Finished = TypeVar("Finished")

Message = dict[str, JSON]

PLATFORM_PASS = ["PASS", "PASS", "PASS"]
TRIBUTE, BACK = "tribute", "back"
DEAL_SIZE = 27
"""Cards dealt to each GuanDan seat."""

log = logging.getLogger(__name__)


class BridgeError(PaijuError):
    """A protocol message the bridge cannot read (not JSON, a missing or ill-typed field, a bad ``obs``)."""


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A competition platform match the bridge played to the end: its seat, and by seat the games won by the
    seat's team (``victoryNum``) and the games without a winner (``draws``)."""

    seat: int
    victories: list[int]
    draws: list[int]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """An arena game the bridge played to the end: the seat, the result (payoffs by seat) and the stored record."""

    seat: int
    result: Message
    record_id: str


class BridgedSeat:
    """A paiju agent playing one seat of ``game`` from protocol v1 messages.

    With ``reseed``, the first ``start`` of each game that carries a ``seed`` replaces the agent with
    ``reseed(seed)``, so that a bridged agent plays every game of an evaluation as the agent itself would
    (evaluators build each seat's agent afresh for each game, with that game's seed).
    """

    def __init__(self, game: Game, agent: Agent, reseed: Callable[[int], Agent] | None = None) -> None:
        self.game = game
        self.agent = agent
        self.reseed = reseed
        self.seat: int | None = None
        """The seat of the game in progress; ``None`` before the first ``start``."""
        self.rules: Any = None
        self._between_games = True

    def handle(self, message: Message) -> Message | None:
        """Play a ``start``, ``act`` or ``end`` message; the answer to ``act``, ``None`` for the others."""
        kind = message.get("type")
        if message.get("v") != PROTOCOL_VERSION:
            raise BridgeError(f'{kind} message: expected "v": {PROTOCOL_VERSION}, got {message.get("v")!r}')
        if message.get("game") != self.game.name:
            raise BridgeError(f"{kind} message: this seat plays {self.game.name}, not {message.get('game')!r}")
        if kind == "start":
            seed = message.get("seed")
            if self._between_games and self.reseed is not None and isinstance(seed, int) \
                    and not isinstance(seed, bool):
                self.agent.close()
                self.agent = self.reseed(seed)
            self._between_games = False
            self.start(_seat(message, self.game), _field(message, "rules", dict))
            return None
        if kind == "act":
            return self.act(message)
        if kind == "end":
            self.agent.finish(_field(message, "result", dict))
            self._between_games = True
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


class PlatformSeat:
    """A paiju GuanDan agent playing one seat of a competition platform match from its ``notify`` and ``act``
    messages (``shared/specs/guandan.md``, "Competition platform protocol"), under paiju's default rules.

    Each ``act`` is answered ``{"actIndex": i}``, ``i`` the index in ``actionList`` of the action the agent
    chose from the seat's observation, rebuilt as the protocol's ``obs`` (``GuanDanObservation.from_json``):
    the hand, levels, ``publicInfo`` rests and the play to beat from the ``act``; the round's plays and
    finishers, its tribute, back and anti-tribute, the round number and the previous finishing order from the
    notices since the round's ``beginning``. ``beginning`` calls the agent's ``begin`` (a new round),
    ``gameOver`` its ``finish`` with payoffs +1 / -1 by the team of the last round's 1st player (who won at
    A); ``gameResult`` ends the match (``result``).
    """

    def __init__(self, agent: Agent) -> None:
        game = load_game("guandan")
        self.bridged = BridgedSeat(game, agent)
        self.rules = game.default_rules().to_json()
        self.seat: int | None = None
        self.round = -1
        self.previous_order: list[int] | None = None
        self.history: list[list[Any]] = []
        self.finished: list[int] = []
        self.cards_left = [DEAL_SIZE] * 4
        self.gifts: dict[str, list[Any]] = {TRIBUTE: [], BACK: []}
        self.anti_tribute: list[int] | None = None
        self.result: Message | None = None
        """The ``gameResult`` notice, once the match is over."""

    def handle(self, message: Message) -> Message | None:
        """Play one platform message: the answer to ``act``, ``None`` for the others."""
        kind = message.get("type")
        if kind == "act":
            return self.act(message)
        if kind == "notify":
            self.notice(_field(message, "stage", str), message)
        elif kind == "error":
            log.warning("the platform refused a message: %s", message.get("message"))
        else:
            raise BridgeError(f"unknown platform message type {kind!r}; expected notify, act or error")
        return None

    def notice(self, stage: str, message: Message) -> None:
        """Keep what a ``notify`` message of ``stage`` tells."""
        if stage == "beginning":
            self._begin_round(_field(message, "myPos", int))
        elif stage == "play":
            self._play(_field(message, "curPos", int), _field(message, "curAction", list))
        elif stage in (TRIBUTE, BACK):
            for gift in _field(message, "result", list):
                self._gift(stage, gift)
        elif stage == "anti-tribute":
            self.anti_tribute = _seats(message, "antiPos")
        elif stage == "episodeOver":
            self.previous_order = _seats(message, "order")
        elif stage == "gameOver":
            self._end_game()
        elif stage == "gameResult":
            self.result = message
        else:
            raise BridgeError(f"unknown notify stage {stage!r}")

    def _begin_round(self, seat: int) -> None:
        self.seat = seat
        self.round += 1
        self.history, self.finished, self.cards_left = [], [], [DEAL_SIZE] * 4
        self.gifts, self.anti_tribute = {TRIBUTE: [], BACK: []}, None
        self.bridged.start(seat, self.rules)

    def _play(self, seat: int, action: list[Any]) -> None:
        self.history.append([seat, action])
        if action == PLATFORM_PASS:
            return
        cards = action[2] if len(action) == 3 and isinstance(action[2], list) else None
        if not _is_seat(seat) or cards is None:
            raise BridgeError(f"notify play: expected a seat 0-3 and an action [type, rank, cards], got {seat!r}, "
                              f"{action!r:.80}")
        self.cards_left[seat] -= len(cards)
        if self.cards_left[seat] <= 0:
            self.finished.append(seat)

    def _gift(self, stage: str, gift: Any) -> None:
        if not (isinstance(gift, list) and len(gift) == 3 and all(_is_seat(seat) for seat in gift[:2])):
            raise BridgeError(f"notify {stage}: a gift is [giver, receiver, card], got {gift!r:.80}")
        self.gifts[stage].append(gift)
        self.cards_left[gift[0]] -= 1
        self.cards_left[gift[1]] += 1

    def _end_game(self) -> None:
        if self.previous_order:
            winners = self.previous_order[0] % 2
            self.bridged.agent.finish({"payoffs": [1.0 if seat % 2 == winners else -1.0 for seat in range(4)],
                                       "winner": winners})
        self.round, self.previous_order = -1, None

    def act(self, message: Message) -> Message:
        """``{"actIndex": i}``: the index of the action the agent chooses among ``actionList``."""
        if self.seat is None:
            raise BridgeError("act message before any beginning: no round has begun")
        actions = _field(message, "actionList", list)
        greater_pos = _field(message, "greaterPos", int)
        info = _field(message, "publicInfo", list)
        if len(info) != 4 or not all(isinstance(entry, dict) for entry in info):
            raise BridgeError(f"act message: 'publicInfo' must list four objects, got {info!r:.80}")
        obs = {"hand": _field(message, "handCards", list), "level": _field(message, "curRank", str),
               "self_level": _field(message, "selfRank", str), "oppo_level": _field(message, "oppoRank", str),
               "history": self.history,
               "greater": None if greater_pos == -1 else [greater_pos, message.get("greaterAction")],
               "cards_left": [entry.get("rest") for entry in info], "finished": self.finished,
               "round": self.round, "previous_order": self.previous_order, "tribute": self.gifts[TRIBUTE],
               "back": self.gifts[BACK], "anti_tribute": self.anti_tribute}
        chosen = self.bridged.act({"type": "act", "seat": self.seat, "phase": _field(message, "stage", str),
                                   "obs": obs, "legal": actions})["action"]
        return {"actIndex": next(index for index, action in enumerate(actions) if action is chosen)}


def _field(message: Message, name: str, kind: type) -> Any:
    """``message[name]``, which must be of JSON type ``kind``."""
    value = message.get(name)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BridgeError(f"{message.get('type')} message: {name!r} must be {_KINDS[kind]}, got {value!r:.80}")
    return value


_KINDS = {dict: "a JSON object", list: "a list", str: "a string", int: "an integer"}


def _is_seat(value: Any) -> bool:
    """Whether ``value`` is a GuanDan seat, 0-3."""
    return type(value) is int and 0 <= value < 4


def _seats(message: Message, name: str) -> list[int]:
    """``message[name]``, a list of GuanDan seats."""
    seats = _field(message, name, list)
    if not all(map(_is_seat, seats)):
        raise BridgeError(f"{message.get('type')} message: {name!r} must list seats 0-3, got {seats!r:.80}")
    return seats


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


def _bridged_agent(spec: str, game: str, seed: int) -> Agent:
    """``make_agent``, refusing a perfect-information analysis player (the module docstring)."""
    return require_observing(make_agent(spec, game, seed), "the agent bridge")


def run_stdio_bot(agent_spec: str, game: str, seed: int, stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """Play as agent ``agent_spec`` (built with ``seed``) every ``game`` game that protocol v1 lines on ``stdin``
    ask for, answering each ``act`` with one line on ``stdout`` (flushed), until ``stdin`` ends.

    Raises ``BridgeError`` naming the line and the problem for input it cannot read (nothing is answered).
    """
    bridged = BridgedSeat(load_game(game), _bridged_agent(agent_spec, game, seed),
                          reseed=lambda game_seed: _bridged_agent(agent_spec, game, game_seed))
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
    return await _play_connected(url, functools.partial(_play_seat, agent_spec=agent_spec, seed=seed),
                                 "the arena", "the game ended")


@dataclass(frozen=True, slots=True)
class LadderRun:
    """What a bot played on the ladder: its name and its games, in order."""

    bot: str
    games: list[FinishedGame]


async def run_ladder_bot(url: str, key: str, agent_spec: str, seed: int = 0, games: int | None = None,
                         on_game: Callable[[FinishedGame], None] | None = None) -> LadderRun:
    """Queue the bot whose key is ``key`` on the ladder at ``url`` (``ws://HOST:PORT/ws/ladder``) and play each
    seat it is given as agent ``agent_spec`` (game ``n`` from 0 built with seed ``derive_seed(seed, "ladder",
    n)``), calling ``on_game`` after each, until ``games`` games are played (``None``: until the ladder closes the
    queue connection). It leaves the queue as soon as it is seated for its last game. ``PaijuError`` when the
    ladder refuses the key or sends the bot off (paused or banned), with the ladder's reason."""
    import websockets

    from paiju.eval.seeds import derive_seed

    played: list[FinishedGame] = []
    base = url.split("/ws/ladder", 1)[0]
    name = ""
    try:
        async with websockets.connect(url) as connection:
            await connection.send(json.dumps({"type": "join", "key": key}))
            async for text in connection:
                message = read_message(text)
                kind = message.get("type")
                if kind in ("error", "paused"):
                    raise PaijuError(f"the ladder refused bot {name or '(key)'}: "
                                     f"{message.get('message') or message.get('reason')}")
                if kind == "queued":
                    name = _field(message, "bot", str)
                elif kind == "seated":
                    if games is not None and len(played) + 1 >= games:
                        await connection.send(json.dumps({"type": "leave"}))
                    finished = await run_arena_bot(base + _field(message, "path", str), agent_spec,
                                                   derive_seed(seed, "ladder", len(played)))
                    played.append(finished)
                    if on_game is not None:
                        on_game(finished)
                    if games is not None and len(played) >= games:
                        return LadderRun(name, played)
    except websockets.exceptions.ConnectionClosed:
        pass
    except (OSError, websockets.exceptions.InvalidURI, websockets.exceptions.InvalidHandshake) as error:
        raise PaijuError(f"cannot connect to the ladder at {url}: {error}") from None
    if games is not None:
        raise PaijuError(f"the ladder closed the connection after {len(played)} of {games} games")
    return LadderRun(name, played)


async def _play_connected(url: str, play: Callable[[ClientConnection], Awaitable[Finished | None]], server: str,
                          end: str) -> Finished:
    """Connect to ``url`` and ``play`` over the connection; ``PaijuError`` naming ``server`` when the connection
    fails, or closes before ``play`` saw ``end`` (it then returns ``None``)."""
    import websockets  # only the network clients need it: ``paiju bot`` starts faster without

    try:
        async with websockets.connect(url) as connection:
            finished = await play(connection)
            if finished is None:
                raise _closed_early(connection.close_code, connection.close_reason, server, end)
            return finished
    except websockets.exceptions.ConnectionClosed as closed:
        frame = closed.rcvd
        raise _closed_early(None if frame is None else frame.code, None if frame is None else frame.reason,
                            server, end) from None
    except (OSError, websockets.exceptions.InvalidURI, websockets.exceptions.InvalidHandshake) as error:
        raise PaijuError(f"cannot connect to {server} at {url}: {error}") from None


def _closed_early(code: int | None, reason: str | None, server: str, end: str) -> PaijuError:
    why = "without a close frame" if code is None else f"with code {code}" + (f" ({reason})" if reason else "")
    return PaijuError(f"{server} closed the connection {why} before {end}")


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
                if bridged is None:
                    agent = await asyncio.to_thread(_bridged_agent, agent_spec, game.name, seed)
                    bridged = BridgedSeat(game, agent)
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


async def run_platform_bot(url: str, agent_spec: str, seed: int = 0) -> FinishedMatch:
    """Play a seat of the GuanDan competition platform server at ``url`` (``ws://HOST:PORT/game/NAME``) as agent
    ``agent_spec`` (built with ``seed``, playing paiju's default GuanDan rules) until the match's
    ``gameResult``; the agent thinks in a worker thread. Raises ``PaijuError`` when the connection fails or
    closes before the end, and ``BridgeError`` for a message it cannot read."""
    return await _play_connected(url, functools.partial(_play_platform, agent_spec=agent_spec, seed=seed),
                                 "the platform", "the match ended")


async def _play_platform(connection: ClientConnection, agent_spec: str, seed: int) -> FinishedMatch | None:
    """Play until ``gameResult`` (the match) or until the server closes the connection (``None``)."""
    agent = await asyncio.to_thread(_bridged_agent, agent_spec, "guandan", seed)
    seat = PlatformSeat(agent)
    try:
        async for text in connection:
            answer = await asyncio.to_thread(seat.handle, read_message(text))
            if answer is not None:
                await connection.send(json.dumps(answer))
            if seat.result is not None:
                assert seat.seat is not None
                return FinishedMatch(seat.seat, _field(seat.result, "victoryNum", list),
                                     _field(seat.result, "draws", list))
    finally:
        await asyncio.to_thread(agent.close)
    return None


__all__ = ["BridgeError", "BridgedSeat", "FinishedGame", "FinishedMatch", "PlatformSeat", "read_message",
           "run_arena_bot", "run_platform_bot", "run_stdio_bot"]
