"""Junk from clients never changes a game: every refused message gets ``error`` and play goes on."""

from __future__ import annotations

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju import load_game
from paiju.agents.external import canonical_json
from paiju.serve.bots import offered_agents
from paiju.serve.protocol import ClientMessage, ProtocolError, parse_client_message

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)
JUNK = st.one_of(
    st.text(max_size=40),
    JSON_VALUES.map(json.dumps),
    st.builds(lambda action: json.dumps({"action": action}), JSON_VALUES | st.sampled_from(["SQ", "H10", "C2"])),
    st.builds(lambda kind: json.dumps({"type": kind}), JSON_VALUES | st.sampled_from(["act", "end", "explain"])),
    st.builds(lambda agent: json.dumps({"type": "explain", "agent": agent}), JSON_VALUES | st.just("ext:sh")),
)


@given(st.text(max_size=200) | JSON_VALUES.map(json.dumps))
def test_any_text_parses_to_a_client_message_or_a_protocol_error(text):
    try:
        assert isinstance(parse_client_message(text), ClientMessage)
    except ProtocolError as refusal:
        assert str(refusal)


def accepted(text: str, legal: list) -> bool:
    """Whether the server must accept ``text`` (a legal answer, a ping, an explain by an offered agent)."""
    try:
        message = json.loads(text)
    except ValueError:
        return False
    if not isinstance(message, dict):
        return False
    if "type" not in message:
        return "action" in message and canonical_json(message["action"]) in {canonical_json(a) for a in legal}
    return message["type"] == "ping" or (message["type"] == "explain" and message.get("agent")
                                         in offered_agents("gongzhu"))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), seed=st.integers(0, 2**20))
def test_junk_between_moves_leaves_a_valid_game(arena, seat_policy, data, seed):
    table = arena.create_table("gongzhu", ["human", "random", "human", "mr-if"], seed=seed)

    async def play_with_junk(client, policy) -> dict:
        while True:
            message = await client.receive_type("act", "end")
            if message["type"] == "end":
                return message
            for text in data.draw(st.lists(JUNK, min_size=1, max_size=3)):
                if accepted(text, message["legal"]):
                    continue
                await client.send(text)
                refusal = await client.receive()
                assert refusal["type"] == "error" and refusal["message"], (text, refusal)
            await client.send({"action": policy(message)})

    async def play() -> list:
        clients = await arena.connect_humans(table)
        ends = await asyncio.gather(*(play_with_junk(client, seat_policy(seed + seat))
                                      for seat, client in clients.items()))
        for client in clients.values():
            await client.close()
        return [ends, clients]

    ends, clients = asyncio.run(play())
    record = arena.record(ends[0]["record_id"])
    state = load_game("gongzhu").from_record(record)
    assert state.is_terminal() and record["result"] == ends[1]["result"] == state.result()
    for client in clients.values():
        assert sum(message["type"] == "update" for message in client.received) == len(record["actions"]) + 1
        assert sum(message["type"] == "error" for message in client.received) >= 1
