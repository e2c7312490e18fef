"""The seat websocket's messages: protocol v1 (``shared/specs/protocol.md``) plus the arena's own.

Server to client (one JSON object per text message, all with ``"v": 1``): ``welcome``, ``start``,
``update``, ``act`` (with ``deadline``, the seconds left for the move), ``end`` (with ``record_id``),
``error``, ``explain`` (candidates best first, with ``scale``: what their scores mean) and ``pong``. Client
to server: ``{"action": A}``, ``{"type": "explain", "agent": NAME}`` and ``{"type": "ping"}``; anything else
is refused with a ``ProtocolError`` naming the problem. The builders here are the only place these messages
are spelled, and ``encode`` the only place their text is: compact JSON, keys in the builders' order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import orjson

from paiju.agents.external import PROTOCOL_VERSION, quote
from paiju.core.errors import PaijuError
from paiju.core.game import JSON

MAX_MESSAGE_CHARS = 16_384
"""Longest client message read; the longest legal answer (a GuanDan play) is a few hundred characters."""
CLIENT_FORMS = '{"action": A}, {"type": "explain", "agent": NAME} or {"type": "ping"}'

Message = dict[str, JSON]

_standard_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def encode_value(value: JSON) -> str:
    """A JSON value as compact text, characters beyond ASCII as themselves: what ``json.dumps(value,
    separators=(",", ":"), ensure_ascii=False)`` writes, by ``orjson`` (an eighth of the time: the arena encodes
    every seat's observation after every move), or by ``json`` for what ``orjson`` refuses (integers beyond 64
    bits, keys that are not strings)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return _standard_encode(value)


class Encoded(str):
    """A message value given as its JSON text already (``encode`` copies it in): an observation's, encoded once
    for its ``update``, its ``act`` and a reconnect (``paiju.serve.table_texts``)."""


def encode(message: Message) -> str:
    """``message`` as sent: compact JSON text (``encode_value``) with each
    ``Encoded`` value standing for the JSON it spells. The fields between two ``Encoded`` values are encoded together,
    as an object whose braces are dropped."""
    fields: list[str] = []
    run: Message = {}
    for key, value in message.items():
        if isinstance(value, Encoded):
            if run:
                fields.append(encode_value(run)[1:-1])
                run = {}
            fields.append(f"{encode_value(key)}:{value}")
        else:
            run[key] = value
    if run:
        fields.append(encode_value(run)[1:-1])
    return "{" + ",".join(fields) + "}"


class ProtocolError(PaijuError):
    """A client message the server refuses; the message says why, and nothing changed."""


@dataclass(frozen=True, slots=True)
class ActionAnswer:
    """``{"action": A}``: the seat's answer to ``act``."""

    action: JSON


@dataclass(frozen=True, slots=True)
class ExplainRequest:
    """``{"type": "explain", "agent": NAME}``: scored candidates for the seat's pending decision."""

    agent: str


@dataclass(frozen=True, slots=True)
class Ping:
    """``{"type": "ping"}``: answered with ``pong``."""


ClientMessage = ActionAnswer | ExplainRequest | Ping


def parse_client_message(text: str) -> ClientMessage:
    """The client message ``text`` holds; ``ProtocolError`` naming the problem for anything else."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE_CHARS})")
    try:
        message = json.loads(text)
    except json.JSONDecodeError as error:
        raise ProtocolError(f"not JSON ({error.msg}): {quote(text)}") from None
    except RecursionError:
        raise ProtocolError(f"JSON nested too deeply: {quote(text)}") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise ProtocolError(f"unreadable JSON ({error}): {quote(text)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"a message is a JSON object ({CLIENT_FORMS}), got {quote(text)}")
    kind = message.get("type")
    if kind is None:
        if "action" not in message:
            raise ProtocolError(f'a message without "type" answers act: {{"action": A}}, got {quote(text)}')
        return ActionAnswer(message["action"])
    if kind == "ping":
        return Ping()
    if kind == "explain":
        agent = message.get("agent")
        if not isinstance(agent, str):
            raise ProtocolError(f'explain names an agent: {{"type": "explain", "agent": NAME}}, got {quote(text)}')
        return ExplainRequest(agent)
    raise ProtocolError(f"unknown message type {quote(json.dumps(kind))}; messages are {CLIENT_FORMS}")


def welcome(game: str, seat: int, table_id: str, seats: list[Message], rules: Message) -> Message:
    """Sent right after a seat connects (and on every reconnect)."""
    return {"v": PROTOCOL_VERSION, "type": "welcome", "game": game, "seat": seat, "table_id": table_id,
            "seats": seats, "rules": rules}


def start(game: str, seat: int, rules: Message) -> Message:
    """A new game, or a new GuanDan round, begins."""
    return {"v": PROTOCOL_VERSION, "type": "start", "game": game, "seat": seat, "rules": rules}


def update(game: str, seat: int, phase: str, obs: Message | Encoded, to_act: int | None, last: Message | None,
           deal: int) -> Message:
    """The table after an action (``last``: ``{"seat", "action"}``), as ``seat`` may see it."""
    return {"v": PROTOCOL_VERSION, "type": "update", "game": game, "seat": seat, "phase": phase, "obs": obs,
            "to_act": to_act, "last": last, "deal": deal}


def act(game: str, seat: int, phase: str, obs: Message | Encoded, legal: list[JSON], deadline: float) -> Message:
    """The seat's turn: answer with one element of ``legal`` within ``deadline`` seconds."""
    return {"v": PROTOCOL_VERSION, "type": "act", "game": game, "seat": seat, "phase": phase, "obs": obs,
            "legal": legal, "deadline": round(deadline, 1)}


def end(game: str, seat: int, result: Message, record_id: str) -> Message:
    """The game is over and stored as ``record_id``."""
    return {"v": PROTOCOL_VERSION, "type": "end", "game": game, "seat": seat, "result": result,
            "record_id": record_id}


def error(message: str) -> Message:
    """The client's previous message was refused (nothing changed), or the table stopped."""
    return {"v": PROTOCOL_VERSION, "type": "error", "message": message}


def explain(agent: str, candidates: list[Message], scale: str) -> Message:
    """The answer to an explain request: ``[{"action", "score"}, ...]``, best first, and ``scale``: what the
    scores mean, in one line."""
    return {"v": PROTOCOL_VERSION, "type": "explain", "agent": agent, "candidates": candidates, "scale": scale}


def pong() -> Message:
    """The answer to ``ping``."""
    return {"v": PROTOCOL_VERSION, "type": "pong"}
