"""The seat websocket, end to end with real ``websockets`` clients against the live arena."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time

import pytest
import websockets

from paiju import load_game
from paiju.agents import make_agent
from paiju.agents.external import canonical_json
from paiju.serve import tables


def run(coroutine):
    return asyncio.run(coroutine)


def human_table(arena, game: str, seats: list[str], **fields) -> tuple[str, dict[int, str]]:
    """Create a table; its id and the token of each human seat."""
    table = arena.create_table(game, seats, **fields)
    return table["table_id"], {seat["seat"]: seat["token"] for seat in table["seats"] if seat["kind"] == "human"}


def test_a_person_plays_a_game_against_bots_to_the_stored_record(arena, seat_policy):
    table_id, tokens = human_table(arena, "doudizhu", ["rules", "human", "rules"], seed=21)

    async def play():
        client = await arena.connect(table_id, tokens[1])
        end = await client.play(seat_policy(3))
        await client.close()
        late = await arena.connect(table_id, tokens[1])
        resumed = [await late.receive() for _ in range(3)]
        await late.close()
        return client.received, end, resumed

    received, end, resumed = run(play())
    assert [message["type"] for message in resumed] == ["welcome", "update", "end"]
    assert resumed[1] == received[-2] and resumed[2] == end
    welcome = received[0]
    assert welcome == {"v": 1, "type": "welcome", "game": "doudizhu", "seat": 1, "table_id": table_id,
                       "seats": [{"seat": 0, "kind": "bot", "agent": "rules"}, {"seat": 1, "kind": "human"},
                                 {"seat": 2, "kind": "bot", "agent": "rules"}],
                       "rules": load_game("doudizhu").default_rules().to_json()}
    assert received[1] == {"v": 1, "type": "start", "game": "doudizhu", "seat": 1, "rules": welcome["rules"]}
    assert received[2]["type"] == "update" and received[2]["last"] is None and received[2]["deal"] == 0
    record = arena.record(end["record_id"])
    state = load_game("doudizhu").from_record(record)
    assert end["result"] == record["result"] == state.result()
    updates = [message for message in received if message["type"] == "update"]
    assert len(updates) == len(record["actions"]) + 1
    assert [update["last"] for update in updates[1:]] == [{"seat": seat, "action": action}
                                                         for seat, action in record["actions"]]
    assert updates[-1]["to_act"] is None
    acts = [message for message in received if message["type"] == "act"]
    assert len(acts) == sum(seat == 1 for seat, _ in record["actions"])
    assert all(0 < act["deadline"] <= 5.0 and act["seat"] == 1 and act["legal"] for act in acts)


@pytest.mark.parametrize(("query", "reason"), [("", "a seat token is required"),
                                               ("?token=forged", "this token opens no seat here")])
def test_a_missing_or_wrong_token_is_a_policy_violation(arena, query, reason):
    table_id, _ = human_table(arena, "gongzhu", ["human", "random", "random", "random"])

    async def refused(url: str) -> websockets.ConnectionClosed:
        async with websockets.connect(url) as connection:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await connection.recv()
        return closed.value

    closed = run(refused(arena.socket_url(table_id, "x").replace("?token=x", query)))
    assert closed.rcvd.code == 1008 and reason in closed.rcvd.reason
    unknown = run(refused(arena.socket_url("t-unknown", "x")))
    assert unknown.rcvd.code == 1008 and "no table 't-unknown'" in unknown.rcvd.reason
    assert arena.table(table_id)["status"] == "waiting"


def test_a_long_unknown_table_id_is_cut_to_fit_the_close_frame(arena):
    async def refused() -> websockets.ConnectionClosed:
        async with websockets.connect(arena.socket_url("t-" + "%E7%89%8C" * 100, "x")) as connection:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await connection.recv()
        return closed.value

    closed = run(refused())
    assert closed.rcvd.code == 1008 and closed.rcvd.reason.startswith("no table 't-牌牌")
    assert len(closed.rcvd.reason.encode()) <= 123


def test_reconnecting_resumes_the_seat(arena, seat_policy):
    table_id, tokens = human_table(arena, "gongzhu", ["human", "random", "random", "random"], seed=4)

    async def play():
        first = await arena.connect(table_id, tokens[0])
        act = await first.receive_type("act")
        await first.close()
        second = await arena.connect(table_id, tokens[0])
        welcome, update, again = await second.receive(), await second.receive(), await second.receive()
        assert welcome["type"] == "welcome" and update["type"] == "update" and again["type"] == "act"
        assert update["obs"] == act["obs"] and update["to_act"] == 0
        assert again["legal"] == act["legal"] and again["deadline"] <= act["deadline"]
        await second.send({"action": again["legal"][0]})
        next_update = await second.receive_type("update")
        assert next_update["last"] == {"seat": 0, "action": again["legal"][0]}
        end = await second.play(seat_policy(0))
        await second.close()
        return again["legal"][0], end

    first_action, end = run(play())
    assert arena.record(end["record_id"])["actions"][0] == [0, first_action]


def test_a_newer_connection_replaces_the_older(arena, seat_policy):
    table_id, tokens = human_table(arena, "doudizhu", ["human", "random", "random"], seed=9)

    async def play():
        older = await arena.connect(table_id, tokens[0])
        await older.receive_type("act")
        newer = await arena.connect(table_id, tokens[0])
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await older.receive()
        assert closed.value.rcvd.code == 1000 and "replaced by a newer connection" in closed.value.rcvd.reason
        resumed = [await newer.receive() for _ in range(3)]
        assert [message["type"] for message in resumed] == ["welcome", "update", "act"]
        await newer.send({"action": seat_policy(5)(resumed[2])})
        end = await newer.play(seat_policy(5))
        await newer.close()
        return end

    assert run(play())["record_id"]


REFUSALS = [
    ("{not json", "not JSON"),
    ("[1, 2]", "a message is a JSON object"),
    ('"action"', "a message is a JSON object"),
    ('{"type": "resign"}', "unknown message type"),
    ('{"type": 7}', "unknown message type"),
    ('{"move": "SQ"}', 'a message without "type" answers act'),
    ('{"action": "S11"}', "is not one of the"),
    ('{"action": ["SQ"]}', "is not one of the"),
    ('{"type": "explain"}', "explain names an agent"),
    ('{"type": "explain", "agent": "ext:rm -rf /"}', "unknown agent 'ext:rm -rf /'"),
    ('{"type": "explain", "agent": "rules"}', "unknown agent 'rules' for gongzhu"),
    ("x" * 20_000, "message too long"),
]


def test_refused_messages_get_an_error_and_change_nothing(arena, seat_policy):
    table_id, tokens = human_table(arena, "gongzhu", ["human", "random", "random", "random"], seed=12)

    async def play():
        client = await arena.connect(table_id, tokens[0])
        act = await client.receive_type("act")
        for text, named in REFUSALS:
            await client.send(text)
            refusal = await client.receive()
            assert refusal["type"] == "error" and named in refusal["message"], (text, refusal)
        await client.connection.send(b'{"action": "SQ"}')
        assert "binary" in (await client.receive())["message"]
        await client.send({"type": "ping"})
        assert await client.receive() == {"v": 1, "type": "pong"}
        await client.send({"action": act["legal"][-1]})
        update = await client.receive_type("update")
        assert update["last"] == {"seat": 0, "action": act["legal"][-1]}
        end = await client.play(seat_policy(1))
        await client.close()
        return end

    end = run(play())
    record = arena.record(end["record_id"])
    assert load_game("gongzhu").from_record(record).is_terminal()


def test_answers_out_of_turn_or_unasked_are_refused(arena):
    table_id, tokens = human_table(arena, "doudizhu", ["human", "human", "random"], seed=2)

    async def play():
        landlord = await arena.connect(table_id, tokens[0])
        await landlord.receive_type("welcome")
        await landlord.send({"action": "3"})
        assert "the game has not started" in (await landlord.receive())["message"]
        await landlord.send({"type": "explain", "agent": "random"})
        assert "the game has not started" in (await landlord.receive())["message"]
        peasant = await arena.connect(table_id, tokens[1])
        act = await landlord.receive_type("act")
        await peasant.receive_type("update")
        await peasant.send({"action": ""})
        assert (await peasant.receive())["message"] == "it is not your turn: seat 0 is to act"
        await peasant.send({"type": "explain", "agent": "random"})
        assert "not your turn" in (await peasant.receive())["message"]
        await landlord.send({"action": act["legal"][0]})
        await landlord.send({"action": act["legal"][0]})
        replies = {message["type"]: message for message in [await landlord.receive() for _ in range(2)]}
        assert sorted(replies) == ["error", "update"]  # the second answer is refused, before or after the update
        assert replies["update"]["last"] == {"seat": 0, "action": act["legal"][0]}
        assert replies["error"]["message"] in ("no act is pending for seat 0", "it is not your turn: seat 1 is to act")
        await landlord.close()
        await peasant.close()

    run(play())
    assert arena.table(table_id)["status"] == "playing"


@pytest.mark.parametrize("game_name", ["doudizhu", "guandan", "gongzhu"])
def test_explain_scores_the_seats_own_decision(arena, game_name):
    game = load_game(game_name)
    agent = {"doudizhu": "rules", "guandan": "rules", "gongzhu": "mr-if"}[game_name]
    seats = ["human"] + ["random"] * (game.num_players - 1)
    table_id, tokens = human_table(arena, game_name, seats, seed=30)

    async def ask():
        client = await arena.connect(table_id, tokens[0])
        act = await client.receive_type("act")
        await client.send({"type": "explain", "agent": agent})
        answer = await client.receive()
        await client.close()
        return act, answer

    act, answer = run(ask())
    assert answer["type"] == "explain" and answer["agent"] == agent
    expected_scale = make_agent(agent, game_name, 0).scale(game.new_state(30).observation(0))
    assert answer["scale"] and (game_name == "doudizhu" or answer["scale"] == expected_scale)
    candidates = answer["candidates"]
    assert 1 <= len(candidates) <= 8
    assert len(candidates) == min(8, len(act["legal"]))
    legal = {canonical_json(action) for action in act["legal"]}
    assert all(canonical_json(candidate["action"]) in legal for candidate in candidates)
    scores = [candidate["score"] for candidate in candidates]
    assert scores == sorted(scores, reverse=True)


def test_each_guandan_round_starts_with_start(arena, seat_policy):
    table_id, tokens = human_table(arena, "guandan", ["human", "random", "random", "random"], seed=6,
                                   rules={"rounds": 3})

    async def play():
        client = await arena.connect(table_id, tokens[0])
        end = await client.play(seat_policy(2))
        await client.close()
        return client.received, end

    received, end = run(play())
    record = arena.record(end["record_id"])
    starts = [index for index, message in enumerate(received) if message["type"] == "start"]
    assert len(starts) == len(record["deals"]) == 3
    assert [received[index + 1]["deal"] for index in starts] == [0, 1, 2]
    assert all(received[index + 1]["type"] == "update" for index in starts)


@pytest.mark.parametrize("arena_settings", [{"move_timeout": 0.15}], indirect=True)
def test_a_silent_seat_gets_the_default_action_in_time(arena, caplog):
    table_id, tokens = human_table(arena, "doudizhu", ["human", "rules", "rules"], seed=17)

    async def stay_silent():
        client = await arena.connect(table_id, tokens[0])
        end = await client.receive_type("end", limit=60)
        await client.close()
        return end

    with caplog.at_level(logging.WARNING, logger="paiju.serve.tables"):
        end = run(stay_silent())
    record = arena.record(end["record_id"])
    game = load_game("doudizhu")
    state = game.new_state(record["seed"], game.rules_from_json(record["rules"]))
    defaults = []
    for seat, value in record["actions"]:
        if seat == 0:
            legal = [game.action_to_json(action) for action in state.legal_actions()]
            assert value == ("" if "" in legal else legal[0])
            defaults.append(value)
        state.apply(state.action_from_json(value), seat=seat)
    warnings = [entry.getMessage() for entry in caplog.records if "made no move" in entry.getMessage()]
    assert len(warnings) == len(defaults) > 0
    assert warnings[0] == (f"table {table_id}: seat 0 made no move within 0.15 s; "
                           f"played the default action {json.dumps(defaults[0])}")


@pytest.mark.parametrize("arena_settings", [{"bot_delay": 0.1}], indirect=True)
def test_bots_wait_bot_delay_before_each_move(arena):
    table_id, tokens = human_table(arena, "gongzhu", ["human", "random", "random", "random"], seed=3)

    async def first_trick() -> list[float]:
        client = await arena.connect(table_id, tokens[0])
        act = await client.receive_type("act")
        await client.send({"action": act["legal"][0]})
        await client.receive_type("update")
        loop = asyncio.get_running_loop()
        arrivals = [loop.time()]
        for _ in range(3):
            await client.receive_type("update")
            arrivals.append(loop.time())
        await client.close()
        return arrivals

    arrivals = run(first_trick())
    assert all(later - earlier >= 0.09 for earlier, later in itertools.pairwise(arrivals))


def test_one_explain_at_a_time_per_seat(arena, monkeypatch):
    explain_candidates = tables.explain_candidates

    def slowly(*arguments):
        time.sleep(0.3)
        return explain_candidates(*arguments)

    monkeypatch.setattr(tables, "explain_candidates", slowly)
    table_id, tokens = human_table(arena, "gongzhu", ["human", "random", "random", "random"], seed=8)

    async def ask_twice():
        client = await arena.connect(table_id, tokens[0])
        await client.receive_type("act")
        await client.send({"type": "explain", "agent": "mr-if"})
        await client.send({"type": "explain", "agent": "random"})
        replies = [await client.receive(), await client.receive()]
        await client.close()
        return replies

    refusal, answer = run(ask_twice())
    assert refusal == {"v": 1, "type": "error", "message": "an explain request for seat 0 is still being answered"}
    assert answer["type"] == "explain" and answer["agent"] == "mr-if"


@pytest.mark.parametrize("arena_settings", [{}, {"ws_compression": True}], indirect=True)
def test_websocket_compression_is_off_unless_asked_for(arena, arena_settings):
    table_id, tokens = human_table(arena, "gongzhu", ["human", "random", "random", "random"])

    async def extensions():
        client = await arena.connect(table_id, tokens[0])  # the client offers permessage-deflate
        offered = client.connection.response.headers.get("Sec-WebSocket-Extensions")
        await client.close()
        return offered

    negotiated = run(extensions())
    assert (negotiated is not None and "permessage-deflate" in negotiated) is arena_settings.ws_compression
