"""The arena's HTTP API, through a real HTTP client against the live server."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from paiju import load_game
from paiju.core.registry import game_names
from paiju.serve import lobby
from paiju.serve.settings import ServeSettings


def test_games_lists_every_game_with_its_bots_and_default_rules(arena):
    games = arena.http.get("/api/games").json()["games"]
    assert sorted(games) == game_names()
    for name, entry in games.items():
        game = load_game(name)
        assert entry["num_players"] == game.num_players
        assert entry["default_rules"] == game.default_rules().to_json()
        assert "random" in entry["agents"] and "ext" not in entry["agents"]
        assert entry["adviser"] == "search" and entry["adviser"] in entry["agents"]  # Hint asks the strongest
        assert entry["table_bot"] == ("search" if name == "doudizhu" else None)


def test_a_new_table_gives_a_token_for_each_human_seat_only(arena):
    table = arena.create_table("gongzhu", ["human", "open", "mr-if", "human"])
    assert table["table_id"].startswith("t-") and table["game"] == "gongzhu"
    seats = table["seats"]
    assert [seat["kind"] for seat in seats] == ["human", "open", "bot", "human"]
    assert seats[2]["agent"] == "mr-if"
    assert [("token" in seat) for seat in seats] == [True, False, False, True]
    assert seats[0]["token"] != seats[3]["token"] and len(seats[0]["token"]) >= 32


@pytest.mark.parametrize(("body", "status", "named"), [
    ({"game": "chess", "seats": ["human"]}, 400, "unknown game 'chess'"),
    ({"game": "doudizhu", "seats": ["human", "rules"]}, 400, "3 seats, got 2"),
    ({"game": "doudizhu", "seats": ["human", "rules", "alphazero"]}, 400, "seat 2: 'alphazero'"),
    ({"game": "doudizhu", "seats": ["human", "rules", "ext:python bot.py"]}, 400, "seat 2: 'ext:python bot.py'"),
    ({"game": "gongzhu", "seats": ["human", "rules", "random", "random"]}, 400, "seat 1: 'rules'"),
    ({"game": "guandan", "seats": ["human"] * 4, "rules": {"rounds": 0}}, 400, "rounds"),
    ({"game": "guandan", "seats": ["human"] * 4, "rules": {"speed": 2}}, 400, "unknown GuanDan rule option 'speed'"),
    ({"game": "guandan", "seats": ["human"] * 4, "rules": [1]}, 422, "rules"),
    ({"game": "doudizhu", "seats": "human"}, 422, "seats"),
    ({"game": "doudizhu", "seats": ["human"] * 3, "seed": -1}, 422, "seed"),
    ({"game": "doudizhu", "seats": ["human"] * 3, "seed": "7"}, 422, "seed"),
    ({"game": "doudizhu", "seats": ["human"] * 3, "colour": "red"}, 422, "colour"),
    ({"seats": ["human"] * 3}, 422, "game"),
])
def test_a_bad_table_request_is_refused_naming_the_problem(arena, body, status, named):
    reply = arena.http.post("/api/tables", json=body)
    assert reply.status_code == status
    assert isinstance(reply.json()["detail"], str) and named in reply.json()["detail"]
    assert arena.http.get("/api/tables").json()["tables"] == []


def test_an_open_seat_is_reserved_once(arena):
    table = arena.create_table("doudizhu", ["open", "human", "random"])
    path = f"/api/tables/{table['table_id']}/seats"
    reply = arena.http.post(f"{path}/0")
    assert reply.status_code == 200 and len(reply.json()["token"]) >= 32
    again = arena.http.post(f"{path}/0")
    assert again.status_code == 409 and "already reserved" in again.json()["detail"]
    for seat, kind in ((1, "human"), (2, "bot")):
        refused = arena.http.post(f"{path}/{seat}")
        assert refused.status_code == 409 and f"it is a {kind} seat" in refused.json()["detail"]
    missing_seat = arena.http.post(f"{path}/3")
    assert missing_seat.status_code == 404 and "no seat 3" in missing_seat.json()["detail"]
    missing_table = arena.http.post("/api/tables/t-missing/seats/0")
    assert missing_table.status_code == 404 and "'t-missing'" in missing_table.json()["detail"]
    assert arena.table(table["table_id"])["seats"][0] == {"seat": 0, "kind": "open", "connected": False,
                                                          "reserved": True}


def test_the_lobby_follows_a_table_from_waiting_to_finished(arena, seat_policy):
    table = arena.create_table("doudizhu", ["human", "open", "rules"])
    table_id = table["table_id"]
    listed = arena.table(table_id)
    assert listed["status"] == "waiting" and listed["game"] == "doudizhu" and listed["created"]
    assert [seat["connected"] for seat in listed["seats"]] == [False, False, True]

    async def play() -> dict:
        human = await arena.connect(table_id, table["seats"][0]["token"])
        await human.receive_type("welcome")
        assert arena.table(table_id)["status"] == "waiting"  # the open seat is still empty
        assert arena.table(table_id)["seats"][0]["connected"] is True
        token = arena.http.post(f"/api/tables/{table_id}/seats/1").json()["token"]
        guest = await arena.connect(table_id, token)
        await human.receive_type("start")
        assert arena.table(table_id)["status"] == "playing"
        ends = await asyncio.gather(human.play(seat_policy(1)), guest.play(seat_policy(2)))
        await human.close()
        await guest.close()
        return ends[0]

    end = asyncio.run(play())
    assert arena.table(table_id)["status"] == "finished"
    [stored] = arena.records()
    assert stored["record_id"] == end["record_id"] and stored["seats"] == ["human", "open", "rules"]
    assert stored["result"] == end["result"] and stored["game"] == "doudizhu" and stored["finished"]


def test_records_are_listed_newest_first_and_replay(arena):
    first = arena.create_table("gongzhu", ["random"] * 4, seed=1)
    arena.wait_for_records(1)
    second = arena.create_table("doudizhu", ["random"] * 3, seed=2)
    records = arena.wait_for_records(2)
    assert [entry["game"] for entry in records] == ["doudizhu", "gongzhu"]
    assert len(arena.records(limit=1)) == 1
    for entry, table in zip(records, (second, first), strict=True):
        record = arena.record(entry["record_id"])
        assert record["seed"] == {"gongzhu": 1, "doudizhu": 2}[table["game"]]
        assert load_game(record["game"]).from_record(record).payoffs() == entry["result"]["payoffs"]
    for limit in (0, 501, "many"):
        assert arena.http.get("/api/records", params={"limit": limit}).status_code == 422
    missing = arena.http.get("/api/records/r-missing")
    assert missing.status_code == 404 and "'r-missing'" in missing.json()["detail"]
    assert arena.http.get("/api/records/r-missing/frames").status_code == 404


@pytest.mark.parametrize("game_name", ["doudizhu", "guandan", "gongzhu"])
def test_frames_show_every_position_with_all_hands(arena, game_name):
    game = load_game(game_name)
    rules = {"rounds": 2} if game_name == "guandan" else None
    arena.create_table(game_name, ["random"] * game.num_players, seed=8, rules=rules)
    [entry] = arena.wait_for_records(1)
    replay = arena.http.get(f"/api/records/{entry['record_id']}/frames").json()
    record = arena.record(entry["record_id"])
    assert replay["game"] == game_name and replay["seats"] == ["random"] * game.num_players
    frames = replay["frames"]
    assert len(frames) == len(record["actions"]) + 1
    assert frames[0]["seat"] is None and frames[0]["action"] is None
    state = game.new_state(record["seed"], game.rules_from_json(record["rules"]))
    for index, frame in enumerate(frames):
        if index:
            seat, value = record["actions"][index - 1]
            state.apply(state.action_from_json(value), seat=seat)
            assert (frame["seat"], frame["action"]) == (seat, value)
        expected = {key: value for key, value in state.observation(0).to_json().items() if key != "hand"}
        assert frame["step"] == index and frame["phase"] == state.phase and frame["to_act"] == state.current_player
        assert frame["view"] == {"hands": state.perfect_view()["hands"], **expected}
    assert frames[-1]["phase"] == state.phase and state.is_terminal()


def test_the_lobby_page_and_static_files_are_served(arena, arena_settings):
    assert arena.http.get("/").status_code == 404
    arena_settings.static_dir.mkdir()
    (arena_settings.static_dir / "index.html").write_text("<title>paiju arena</title>")
    (arena_settings.static_dir / "table.js").write_text("export {};")
    page = arena.http.get("/")
    assert page.status_code == 200 and "paiju arena" in page.text and page.headers["content-type"].startswith(
        "text/html")
    assert arena.http.get("/static/table.js").text == "export {};"
    assert arena.http.get("/static/missing.js").status_code == 404


@pytest.mark.parametrize(("field", "value"), [("move_timeout", 0.0), ("move_timeout", float("nan")),
                                              ("bot_delay", -1.0), ("platform_games", 0)])
def test_settings_refuse_impossible_values(field, value):
    with pytest.raises(ValueError, match=field):
        ServeSettings(**{field: value})


def test_old_tables_are_forgotten(arena, monkeypatch):
    waiting = arena.create_table("doudizhu", ["human", "human", "random"])
    arena.create_table("gongzhu", ["random"] * 4)
    arena.wait_for_records(1)

    async def dismissed() -> int:
        client = await arena.connect(waiting["table_id"], waiting["seats"][0]["token"])
        await client.receive_type("welcome")
        monkeypatch.setattr(lobby, "ENDED_TABLE_LIFETIME", 0.0)
        monkeypatch.setattr(lobby, "WAITING_TABLE_LIFETIME", 0.0)
        assert arena.http.get("/api/tables").json()["tables"] == []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await client.receive()
        return closed.value.rcvd.code

    assert asyncio.run(dismissed()) == 1001
    assert len(arena.records()) == 1


@pytest.mark.parametrize("arena_settings", [{"bot_delay": 0.3}], indirect=True)
def test_bots_wait_where_people_watch_and_a_table_may_choose(arena):
    watched = arena.create_table("gongzhu", ["human", "random", "random", "random"])
    assert arena.table(watched["table_id"])["bot_delay"] == 0.3  # the server's --bot-delay
    alone = arena.http.post("/api/tables", json={"game": "gongzhu", "seats": ["random"] * 4}).json()
    assert arena.table(alone["table_id"])["bot_delay"] == 0.0  # nobody watches a table of bots move by move
    chosen = arena.http.post("/api/tables", json={"game": "gongzhu", "seats": ["human", "random", "random", "random"],
                                                  "bot_delay": 1.5}).json()
    assert arena.table(chosen["table_id"])["bot_delay"] == 1.5
    refused = arena.http.post("/api/tables", json={"game": "gongzhu", "seats": ["random"] * 4, "bot_delay": 60})
    assert refused.status_code == 422 and "bot_delay" in refused.json()["detail"]
