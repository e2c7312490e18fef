"""The ladder end to end: accounts over HTTP, bots queued over ``/ws/ladder`` (``paiju connect --ladder``'s
``run_ladder_bot``), seated with each other or with house bots, rated, sent off when they misbehave."""

from __future__ import annotations

import asyncio
import json
import logging
import threading

import pytest
import typer
import websockets
from typer.testing import CliRunner

from paiju.agents.bridge import run_ladder_bot
from paiju.agents.bridge_cli import connect
from paiju.core.errors import PaijuError
from paiju.serve.lobby import Lobby, TooManyTables

ADMIN = "admin-token-for-tests"
LADDER = {"ladder_fill_after": 0.1, "ladder_house": ("random",), "ladder_move_timeout": 1.0, "admin_token": ADMIN,
          "ladder_strikes": 1, "ladder_pause": 600.0, "registrations_per_hour": 20}


def ladder_url(arena) -> str:
    return f"ws{arena.url.removeprefix('http')}/ws/ladder"


def register(arena, name: str, game: str = "gongzhu") -> str:
    reply = arena.http.post("/api/bots", json={"name": name, "owner": "owner@example.org", "game": game})
    assert reply.status_code == 201, reply.text
    assert reply.json()["bot"] == {"name": name, "game": game, "created": reply.json()["bot"]["created"],
                                   "status": "active", "reason": "", "paused_until": None}
    return reply.json()["key"]


async def queue_socket(arena, key: str | None = None):
    socket = await websockets.connect(ladder_url(arena))
    if key is not None:
        await socket.send(json.dumps({"type": "join", "key": key}))
    return socket


async def receive(socket, limit: float = 15.0) -> dict:
    return json.loads(await asyncio.wait_for(socket.recv(), limit))


@pytest.mark.parametrize("arena_settings", [LADDER], indirect=True)
def test_a_bot_plays_house_bots_and_gets_a_rating_and_a_page(arena, caplog):
    caplog.set_level(logging.DEBUG)
    key = register(arena, "alpha")
    run = asyncio.run(run_ladder_bot(ladder_url(arena), key, "mr-if", seed=3, games=2))
    assert run.bot == "alpha" and len(run.games) == 2
    stored = {record["record_id"]: record for record in arena.records()}
    for finished in run.games:
        seats = stored[finished.record_id]["seats"]
        assert seats[finished.seat] == "alpha" and sorted(seats) == ["alpha", "random", "random", "random"]
    ladder = arena.http.get("/api/ladder").json()
    assert ladder["games"]["gongzhu"]["ruleset"] == "standard" and ladder["games"]["gongzhu"]["house"] == ["random"]
    assert ladder["games"]["guandan"]["ruleset"] == "rounds=4"
    rows = {row["name"]: row for row in ladder["games"]["gongzhu"]["standings"]}
    assert rows["alpha"]["games"] == 2 and rows["alpha"]["status"] == "active" and not rows["alpha"]["house"]
    assert rows["random"]["house"] and rows["random"]["games"] == 2  # three seats a game
    page = arena.http.get("/api/ladder/bots/ALPHA").json()
    assert page["bot"]["name"] == "alpha"
    assert page["rating"] | {"house": False, "status": "active"} == rows["alpha"]
    assert [point["record_id"] for point in page["history"]] == [game.record_id for game in run.games]
    assert page["history"][-1]["rating"] == rows["alpha"]["rating"]
    assert [game["record_id"] for game in page["games"]] == [game.record_id for game in reversed(run.games)]
    [opponent] = page["opponents"]
    assert opponent["name"] == "random" and opponent["house"] and opponent["games"] == 2  # partners are not opponents
    assert "owner" not in page["bot"]
    server_side = [record.getMessage() for record in caplog.records
                   if not record.name.startswith(("websockets.client", "httpx", "httpcore"))]
    assert server_side and not any(key in message or key[3:] in message for message in server_side)


@pytest.mark.parametrize("arena_settings", [LADDER | {"ladder_house": ()}], indirect=True)
def test_queued_bots_are_seated_together_and_queued_again_after_each_game(arena):
    keys = [register(arena, name, "doudizhu") for name in ("ann", "bob", "cyd")]

    async def three():
        return await asyncio.gather(*(run_ladder_bot(ladder_url(arena), key, "rules", seed=n, games=2)
                                      for n, key in enumerate(keys)))

    runs = asyncio.run(three())
    records = arena.records()
    assert len(records) == 2 and all(sorted(record["seats"]) == ["ann", "bob", "cyd"] for record in records)
    assert {game.record_id for run in runs for game in run.games} == {record["record_id"] for record in records}


@pytest.mark.parametrize("arena_settings", [LADDER | {"ladder_house": ()}], indirect=True)
def test_queue_refusals_change_nothing(arena):
    key = register(arena, "solo")

    async def refusals():
        first = await queue_socket(arena, key)
        queued = await receive(first)
        second = await queue_socket(arena, key)
        twice = await receive(second)
        await first.send(json.dumps({"type": "join", "key": key}))
        again = await receive(first)
        wrong = await queue_socket(arena, "pk-" + "x" * 43)
        unknown = await receive(wrong)
        await wrong.send(json.dumps({"type": "join", "key": key, "game": "guandan"}))
        other_game = await receive(wrong)
        await wrong.send("not json " + key)
        garbage = await receive(wrong)
        await first.send(json.dumps({"type": "leave"}))
        left = await receive(first)
        for socket in (first, second, wrong):
            await socket.close()
        return queued, twice, again, unknown, other_game, garbage, left

    queued, twice, again, unknown, other_game, garbage, left = asyncio.run(refusals())
    assert queued == {"v": 1, "type": "queued", "bot": "solo", "game": "gongzhu", "waiting": 1}
    assert twice["type"] == "error" and "already queued or seated" in twice["message"]
    assert again["type"] == "error" and "has joined as solo already" in again["message"]
    assert unknown == {"v": 1, "type": "error", "message": "unknown or revoked bot key"}
    assert other_game["type"] == "error" and "registered for gongzhu, not 'guandan'" in other_game["message"]
    assert garbage == {"v": 1, "type": "error", "message": "not JSON"}
    assert left == {"v": 1, "type": "left", "bot": "solo"}
    assert arena.http.get("/api/ladder").json()["games"]["gongzhu"]["waiting"] == 0


@pytest.mark.parametrize("arena_settings", [LADDER], indirect=True)
@pytest.mark.parametrize("game", ["gongzhu", "guandan"])
def test_a_bot_that_lets_its_moves_time_out_is_paused_with_a_reason(arena, game):
    key = register(arena, "sleepy", game)

    async def stall():
        socket = await queue_socket(arena, key)
        assert (await receive(socket))["type"] == "queued"
        seated = await receive(socket)
        seat = await websockets.connect(f"ws{arena.url.removeprefix('http')}{seated['path']}", max_size=None)
        while (message := await receive(seat, 60))["type"] != "end":  # never answers: forfeits after 2 timeouts
            pass
        paused = await receive(socket)
        await seat.close()
        await socket.close()
        rejoin = await queue_socket(arena, key)
        refused = await receive(rejoin)
        await rejoin.close()
        return message, paused, refused

    end, paused, refused = asyncio.run(stall())
    assert end["record_id"] in {record["record_id"] for record in arena.records()}  # stored and rated all the same
    if game == "guandan":  # a forfeited seat loses every round: the ladder's game has 4 of them, not "until A"
        record = arena.record(end["record_id"])
        assert record["rules"]["rounds"] == 4 and len(record["result"]["rounds"]) == 4
    assert paused["type"] == "paused" and paused["status"] == "paused" and paused["until"] is not None
    assert "2 moves played by timeout" in paused["reason"]
    assert refused["type"] == "error" and refused["message"].startswith("bot sleepy is paused for")
    page = arena.http.get("/api/ladder/bots/sleepy").json()
    assert page["bot"]["status"] == "paused" and page["bot"]["reason"] == paused["reason"]


@pytest.mark.parametrize("arena_settings", [LADDER | {"ladder_house": ()}], indirect=True)
def test_an_admin_pauses_bans_and_resumes_with_the_admin_token_only(arena):
    key = register(arena, "target")

    def admin(status: str, token: str | None = ADMIN, name: str = "target"):
        headers = {} if token is None else {"X-Admin-Token": token}
        return arena.http.post(f"/api/admin/bots/{name}", json={"status": status, "reason": "testing"},
                               headers=headers)

    assert admin("banned", None).status_code == 403
    assert admin("banned", "wrong-token-of-some-length").status_code == 403
    assert arena.http.get("/api/ladder/bots/target").json()["bot"]["status"] == "active"
    assert admin("banned", name="nobody").status_code == 404

    async def sent_off():
        socket = await queue_socket(arena, key)
        assert (await receive(socket))["type"] == "queued"
        assert admin("banned").json()["bot"]["status"] == "banned"
        paused = await receive(socket)
        with pytest.raises(websockets.ConnectionClosed):
            await receive(socket)
        assert socket.close_code == 1008
        return paused

    paused = asyncio.run(sent_off())
    assert paused == {"v": 1, "type": "paused", "bot": "target", "status": "banned", "reason": "testing",
                      "until": None}
    with pytest.raises(PaijuError, match="bot target is banned: testing"):
        asyncio.run(run_ladder_bot(ladder_url(arena), key, "random", games=1))
    assert admin("active").json()["bot"]["status"] == "active"

    async def rejoin():
        socket = await queue_socket(arena, key)
        queued = await receive(socket)
        await socket.close()
        return queued

    assert asyncio.run(rejoin())["type"] == "queued"


@pytest.mark.parametrize("arena_settings", [LADDER | {"registrations_per_hour": 6}], indirect=True)
def test_registration_refusals_and_key_rotation(arena):
    key = register(arena, "Rotor")

    def attempt(name: str, owner: str = "me@example.org", game: str = "gongzhu"):
        return arena.http.post("/api/bots", json={"name": name, "owner": owner, "game": game})

    taken, reserved, malformed = attempt("rotor"), attempt("Mr_Greed2"), attempt("no spaces")
    assert (taken.status_code, reserved.status_code, malformed.status_code) == (409, 400, 400)
    assert "taken" in taken.json()["detail"] and "reserved" in reserved.json()["detail"]
    assert attempt("fine-name", owner="\x00").status_code == 400
    assert attempt("fine-name", game="chess").status_code == 400
    assert attempt("another").status_code == 429  # the sixth registration from this address this hour
    assert attempt("another").json()["detail"].startswith("too many registrations")
    rotated = arena.http.post("/api/bots/key", headers={"Authorization": f"Bearer {key}"})
    assert rotated.status_code == 200 and rotated.json()["bot"]["name"] == "Rotor"
    new = rotated.json()["key"]
    assert new != key
    assert arena.http.post("/api/bots/key", headers={"Authorization": f"Bearer {key}"}).status_code == 401
    assert arena.http.post("/api/bots/key").status_code == 401
    with pytest.raises(PaijuError, match="unknown or revoked bot key"):
        asyncio.run(run_ladder_bot(ladder_url(arena), key, "random", games=1))
    assert len(asyncio.run(run_ladder_bot(ladder_url(arena), new, "random", games=1)).games) == 1


@pytest.mark.parametrize("arena_settings", [LADDER], indirect=True)
def test_paiju_connect_ladder_prints_a_line_per_game(arena, monkeypatch):
    key = register(arena, "cli-bot")
    app = typer.Typer()
    app.command()(connect)
    monkeypatch.delenv("PAIJU_LADDER_KEY", raising=False)
    missing = CliRunner().invoke(app, ["--ladder", ladder_url(arena), "--agent", "random"])
    assert missing.exit_code == 2 and "needs the bot's key" in missing.output
    done = CliRunner().invoke(app, ["--ladder", ladder_url(arena), "--agent", "random", "--games", "2"],
                              env={"PAIJU_LADDER_KEY": key})
    assert done.exit_code == 0, done.output
    lines = [json.loads(line) for line in done.output.splitlines()]
    assert [line["record_id"] for line in lines] == [record["record_id"] for record in reversed(arena.records())]


@pytest.mark.parametrize("arena_settings", [LADDER], indirect=True)
def test_bots_wait_on_while_no_table_can_be_opened(arena, monkeypatch):
    key = register(arena, "patient")
    create, refusals = Lobby.create_ladder, []

    async def full_at_first(self, *args, **kwargs):
        if len(refusals) < 3:
            refusals.append(args)
            raise TooManyTables("the server holds 256 tables in progress; try again later")
        return await create(self, *args, **kwargs)

    monkeypatch.setattr(Lobby, "create_ladder", full_at_first)
    run = asyncio.run(run_ladder_bot(ladder_url(arena), key, "random", games=1))
    assert len(refusals) == 3 and len(run.games) == 1


@pytest.mark.parametrize("arena_settings", [LADDER | {"ladder_strikes": 3}], indirect=True)
def test_a_seated_bot_that_lost_its_queue_connection_holds_its_place_and_is_told_its_seat_again(arena):
    key = register(arena, "roamer")

    async def reconnect():
        first = await queue_socket(arena, key)
        assert (await receive(first))["type"] == "queued"
        seated = await receive(first)
        await first.close()
        second = await queue_socket(arena, key)
        again = await receive(second)
        third = await queue_socket(arena, key)
        refused = await receive(third)
        await third.close()
        after = await receive(second, 60)  # never plays: its table ends by forfeit, then it queues again
        await second.close()
        return seated, again, refused, after

    seated, again, refused, after = asyncio.run(reconnect())
    assert again == seated and seated["type"] == "seated"
    assert refused["type"] == "error" and "already queued or seated" in refused["message"]
    assert after["type"] == "queued" and len(arena.records()) == 1


@pytest.mark.parametrize("arena_settings", [LADDER], indirect=True)
def test_a_bot_that_leaves_while_its_table_is_made_undoes_it(arena, monkeypatch):
    keys = {name: register(arena, name) for name in ("stayer", "goer")}
    create, made, making = Lobby.create_ladder, [], threading.Event()

    async def slowly(self, *args, **kwargs):
        making.set()
        await asyncio.sleep(1.0)
        table = await create(self, *args, **kwargs)
        made.append(table)
        return table

    monkeypatch.setattr(Lobby, "create_ladder", slowly)

    async def leave_midway():
        stayer, goer = await queue_socket(arena, keys["stayer"]), await queue_socket(arena, keys["goer"])
        await receive(stayer), await receive(goer)
        assert await asyncio.to_thread(making.wait, 10.0)  # both are being seated together now
        await goer.send(json.dumps({"type": "leave"}))
        left = await receive(goer)
        seated = await receive(stayer)
        with pytest.raises(TimeoutError):
            await receive(goer, 1.0)
        await goer.close(), await stayer.close()
        return left, seated

    left, seated = asyncio.run(leave_midway())
    assert left["type"] == "left" and seated["type"] == "seated"
    assert [table.table_id for table in made][-1] == seated["table_id"] and len(made) == 2
    assert sorted(seat.name for seat in made[0].seats) == ["goer", "random", "random", "stayer"]
    assert sorted(seat.name for seat in made[1].seats) == ["random", "random", "random", "stayer"]
    listed = {table["table_id"] for table in arena.http.get("/api/tables").json()["tables"]}
    assert made[0].table_id not in listed and made[1].table_id in listed
