"""No client can lock others out or grow the server without bound: table and reservation caps (global, per
client, atomic under racing requests), a request rate limit, expiring reservations, abandoned tables,
bounded bodies, outboxes and retention."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
import websockets

from paiju.serve import lobby
from paiju.serve.seats import SeatConnection
from paiju.serve.store import GameStore

GONGZHU_HUMAN = ["human", "random", "random", "random"]


def refused(reply: httpx.Response, status: int, named: str) -> bool:
    return reply.status_code == status and named in reply.json()["detail"]


@pytest.mark.parametrize("arena_settings", [{"max_tables": 2}], indirect=True)
def test_the_server_holds_a_bounded_number_of_tables(arena):
    for _ in range(2):
        arena.create_table("gongzhu", GONGZHU_HUMAN)
    reply = arena.http.post("/api/tables", json={"game": "gongzhu", "seats": GONGZHU_HUMAN})
    assert refused(reply, 503, "2 tables in progress")
    assert len(arena.http.get("/api/tables").json()["tables"]) == 2


@pytest.fixture
def slow_bot_creation(monkeypatch):
    """Bots take a moment to build, as the shipped networks do: the window a racing request could use."""
    make_bot = lobby.make_bot

    def slowly(*args, **kwargs):
        time.sleep(0.05)
        return make_bot(*args, **kwargs)

    monkeypatch.setattr(lobby, "make_bot", slowly)


@pytest.mark.parametrize("arena_settings", [{"max_tables": 5}], indirect=True)
def test_racing_creations_cannot_pass_the_cap(arena, slow_bot_creation):
    async def create_many() -> list[int]:
        async with httpx.AsyncClient(base_url=arena.url, timeout=30) as http:
            replies = await asyncio.gather(*(http.post("/api/tables", json={"game": "gongzhu",
                                                                             "seats": ["human"] + ["random"] * 3})
                                             for _ in range(40)))
        return [reply.status_code for reply in replies]

    statuses = asyncio.run(create_many())
    assert statuses.count(201) == 5 and set(statuses) == {201, 503}
    assert len(arena.http.get("/api/tables").json()["tables"]) == 5


@pytest.mark.parametrize("arena_settings", [{"max_tables_per_client": 3}], indirect=True)
def test_one_client_holds_a_bounded_number_of_tables(arena):
    for _ in range(3):
        arena.create_table("gongzhu", GONGZHU_HUMAN)
    assert refused(arena.http.post("/api/tables", json={"game": "gongzhu", "seats": GONGZHU_HUMAN}), 429,
                   "at most 3 per client")


@pytest.mark.parametrize("arena_settings", [{"max_reservations_per_client": 2}], indirect=True)
def test_one_client_cannot_squat_every_open_seat(arena):
    table = arena.create_table("gongzhu", ["open"] * 4)
    path = f"/api/tables/{table['table_id']}/seats"
    assert [arena.http.post(f"{path}/{seat}").status_code for seat in (0, 1)] == [200, 200]
    assert refused(arena.http.post(f"{path}/2"), 429, "2 reserved seats")
    assert arena.table(table["table_id"])["seats"][2]["reserved"] is False


@pytest.mark.parametrize("arena_settings", [{"requests_per_minute": 4}], indirect=True)
def test_requests_are_rate_limited_per_client(arena):
    table = arena.create_table("gongzhu", ["open"] * 4)
    for seat in range(3):
        assert arena.http.post(f"/api/tables/{table['table_id']}/seats/{seat}").status_code == 200
    assert refused(arena.http.post(f"/api/tables/{table['table_id']}/seats/3"), 429, "at most 4")
    assert refused(arena.http.post("/api/tables", json={"game": "gongzhu", "seats": GONGZHU_HUMAN}), 429,
                   "too many requests")


def test_a_chosen_seed_is_refused_for_a_table_with_open_seats(arena):
    reply = arena.http.post("/api/tables", json={"game": "doudizhu", "seats": ["human", "open", "rules"],
                                                 "seed": 7})
    assert refused(reply, 400, "every hand")
    assert arena.http.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("arena_settings", [{"reservation_timeout": 0.3}], indirect=True)
def test_an_unused_reservation_expires_and_the_seat_opens_again(arena):
    table = arena.create_table("gongzhu", ["open", "random", "random", "random"])
    table_id = table["table_id"]
    stale = arena.http.post(f"/api/tables/{table_id}/seats/0").json()["token"]
    time.sleep(0.5)
    assert arena.table(table_id)["seats"][0]["reserved"] is False

    async def stale_token_refused() -> int:
        async with websockets.connect(arena.socket_url(table_id, stale)) as client:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await client.recv()
            return closed.value.rcvd.code

    assert asyncio.run(stale_token_refused()) == 1008
    fresh = arena.http.post(f"/api/tables/{table_id}/seats/0")
    assert fresh.status_code == 200 and fresh.json()["token"] != stale


@pytest.mark.parametrize("arena_settings", [{"reservation_timeout": 0.3}], indirect=True)
def test_a_table_whose_human_seat_never_connects_is_closed(arena):
    table = arena.create_table("gongzhu", GONGZHU_HUMAN)
    time.sleep(0.5)
    assert table["table_id"] not in {listed["table_id"] for listed in arena.http.get("/api/tables").json()["tables"]}


@pytest.mark.parametrize("arena_settings", [{"move_timeout": 0.3}], indirect=True)
def test_a_table_every_player_left_is_aborted_and_not_stored(arena):
    table = arena.create_table("gongzhu", ["human", "random", "human", "random"])

    async def join_and_leave() -> None:
        clients = await arena.connect_humans(table)
        await clients[0].receive_type("start")
        for client in clients.values():
            await client.close()

    asyncio.run(join_and_leave())
    deadline = time.monotonic() + 10
    while arena.table(table["table_id"])["status"] != "aborted":
        assert time.monotonic() < deadline, "the abandoned table went on"
        time.sleep(0.05)
    assert arena.records() == []


@pytest.mark.parametrize("arena_settings", [{"move_timeout": 0.3}], indirect=True)
def test_moves_of_a_seat_that_left_are_played_while_another_player_stays(arena, seat_policy):
    table = arena.create_table("gongzhu", ["human", "random", "human", "random"])

    async def one_leaves() -> dict:
        clients = await arena.connect_humans(table)
        await clients[2].close()
        end = await clients[0].play(seat_policy(1))
        await clients[0].close()
        return end

    end = asyncio.run(one_leaves())
    assert [record["record_id"] for record in arena.records()] == [end["record_id"]]


@pytest.mark.parametrize("arena_settings", [{"ended_tables_kept": 2}], indirect=True)
def test_ended_tables_kept_in_memory_are_bounded(arena):
    for _ in range(4):
        arena.create_table("gongzhu", ["random"] * 4)
    arena.wait_for_records(4)
    tables = arena.http.get("/api/tables").json()["tables"]
    assert len(tables) == 2 and {table["status"] for table in tables} == {"finished"}


@pytest.mark.parametrize("arena_settings", [{"max_body_bytes": 1000}], indirect=True)
def test_a_body_over_the_limit_is_refused_unread_and_not_echoed(arena):
    huge = "x" * 200_000
    declared = arena.http.post("/api/tables", json={"game": huge, "seats": []})
    assert declared.status_code == 413 and "over 1000 bytes" in declared.json()["detail"]
    assert len(declared.content) < 200

    def chunks():
        yield b'{"game": "'
        for _ in range(100):
            yield b"y" * 1000
    streamed = arena.http.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413 and len(streamed.content) < 200
    assert arena.http.get("/api/games").status_code == 200


def test_refusals_quote_a_bounded_part_of_the_request(arena):
    reply = arena.http.post("/api/tables", json={"game": "g" * 5000, "seats": ["human"]})
    assert reply.status_code == 422 and len(reply.content) < 1000
    reply = arena.http.post("/api/tables", json={"game": "gongzhu", "seats": ["z" * 60] * 4})
    assert reply.status_code == 400 and len(reply.content) < 1000


def test_deeply_nested_or_huge_bodies_are_refused_not_crashed(arena):
    for body in ("[" * 30_000, '{"game": "gongzhu", "seats": [], "seed": ' + "9" * 5000 + "}"):
        reply = arena.http.post("/api/tables", content=body, headers={"content-type": "application/json"})
        assert reply.status_code in (400, 422), reply.text
    assert arena.http.get("/api/games").status_code == 200


def test_the_store_keeps_the_most_recent_games_when_retention_is_set(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3", keep=3)
    ids = [store.add_finished("gongzhu", ["random"] * 4, {"n": n}, {"payoffs": [0, 0, 0, 0]}) for n in range(5)]
    assert [entry["record_id"] for entry in store.list_finished(10)] == ids[:1:-1]
    with pytest.raises(KeyError):
        store.get_record(ids[0])
    with pytest.raises(ValueError, match="keep"):
        GameStore(tmp_path / "other.sqlite3", keep=-1)


class _StuckSocket:
    """A websocket whose client never reads: every send blocks."""

    def __init__(self) -> None:
        self.closed: tuple[int, str] | None = None
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.sleep(3600)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_a_client_that_does_not_read_is_dropped_with_a_bounded_outbox():
    async def flood() -> tuple[_StuckSocket, SeatConnection, int]:
        socket = _StuckSocket()
        connection = SeatConnection(socket, max_queued=8, send_timeout=60.0)  # type: ignore[arg-type]
        largest = 0
        for number in range(10_000):
            connection.send({"type": "update", "n": number})
            largest = max(largest, connection.outbox.qsize())
            await asyncio.sleep(0)
        await connection.stop()
        return socket, connection, largest

    socket, connection, largest = asyncio.run(flood())
    assert largest <= 8 and connection.closing
    assert socket.sent == 1


def test_a_client_that_takes_no_message_in_time_is_dropped():
    async def stall() -> SeatConnection:
        connection = SeatConnection(_StuckSocket(), max_queued=8, send_timeout=0.1)  # type: ignore[arg-type]
        connection.send({"type": "update"})
        await asyncio.wait_for(connection.writer, 5)
        return connection

    assert asyncio.run(stall()).closing


def test_deeply_nested_or_huge_messages_get_an_error_and_play_goes_on(arena, seat_policy):
    table = arena.create_table("gongzhu", GONGZHU_HUMAN)

    async def junk_then_play() -> list[str]:
        client = await arena.connect(table["table_id"], table["seats"][0]["token"])
        await client.receive_type("act")
        answers = []
        for junk in ("[" * 16_000, '{"action": ' + "7" * 5000 + "}",
                     '{"action": ' + "[" * 900 + "]" * 900 + "}"):
            await client.send(junk)
            answers.append((await client.receive_type("error"))["message"])
        await client.send({"type": "ping"})
        await client.receive_type("pong")
        end = await client.play(seat_policy(3))
        await client.close()
        assert end["type"] == "end"
        return answers

    nested, huge, deep_action = asyncio.run(junk_then_play())
    assert "nested too deeply" in nested and "digits" in huge and "not one of the" in deep_action


def test_replay_frames_are_made_once_per_record(arena, monkeypatch):
    from paiju.serve import replay_frames

    arena.create_table("gongzhu", ["random"] * 4)
    [entry] = arena.wait_for_records(1)
    made = []
    real = replay_frames.replay_frames
    monkeypatch.setattr(replay_frames, "replay_frames", lambda record: made.append(1) or real(record))
    path = f"/api/records/{entry['record_id']}/frames"
    first, second = arena.http.get(path), arena.http.get(path)
    assert first.status_code == 200 and first.content == second.content and len(made) == 1
    body = first.json()
    assert body["game"] == "gongzhu" and len(body["frames"]) == 53
    assert arena.http.get("/api/records/r-missing/frames").status_code == 404


@pytest.mark.parametrize("arena_settings", [{"max_queued_messages": 16}], indirect=True)
def test_a_client_sending_many_messages_at_once_is_answered_at_its_pace_not_dropped(arena):
    table = arena.create_table("gongzhu", GONGZHU_HUMAN)

    async def pipeline() -> int:
        client = await arena.connect(table["table_id"], table["seats"][0]["token"])
        await client.receive_type("act")
        for _ in range(300):
            await client.send({"type": "ping"})
        pongs = 0
        while pongs < 300:
            pongs += (await client.receive())["type"] == "pong"
        await client.close()
        return pongs

    assert asyncio.run(pipeline()) == 300
