"""The finished-games store: transactional, durable across instances, safe to share between threads."""

from __future__ import annotations

import contextlib
import json
import math
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import httpx
import pytest
import websockets.sync.client

from paiju import load_game, make_agent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.serve.store import GameStore, RecordNotFound


def finished_game(name: str, seed: int) -> tuple[dict, dict]:
    game = load_game(name)
    state = play_game(game, [make_agent("random", name, seat) for seat in range(game.num_players)], seed)
    return state.to_record(), state.result()


def test_a_stored_game_comes_back_exactly(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    record, result = finished_game("gongzhu", 3)
    record_id = store.add_finished("gongzhu", ["human", "random", "mr-if", "open"], record, result)
    assert record_id.startswith("r-")
    assert store.get_record(record_id) == record
    summary = store.get_summary(record_id)
    assert summary["seats"] == ["human", "random", "mr-if", "open"]
    assert summary["result"] == result and summary["game"] == "gongzhu"
    assert store.list_finished(10) == [summary]
    assert load_game("gongzhu").from_record(store.get_record(record_id)).payoffs() == result["payoffs"]


def test_a_store_that_cannot_be_opened_is_named(tmp_path):
    (tmp_path / "not-a-database").write_text("just text, " * 100)
    for path in (tmp_path / "missing" / "games.sqlite3", tmp_path / "not-a-database"):
        with pytest.raises(PaijuError, match=f"cannot open the game store {path}"):
            GameStore(path)


def test_listing_is_newest_first_and_limited(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    record, result = finished_game("doudizhu", 1)
    ids = [store.add_finished("doudizhu", ["random"] * 3, record, result) for _ in range(5)]
    assert [entry["record_id"] for entry in store.list_finished(3)] == ids[::-1][:3]
    assert store.list_finished(0) == []
    with pytest.raises(ValueError, match="limit"):
        store.list_finished(-1)


def test_an_unknown_record_id_is_named(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    with pytest.raises(RecordNotFound, match="'r-nope'"):
        store.get_record("r-nope")
    with pytest.raises(KeyError):
        store.get_summary("r-nope")


def test_a_finished_game_survives_a_new_store_on_the_same_file(tmp_path):
    path = tmp_path / "games.sqlite3"
    record, result = finished_game("guandan", 2)
    record_id = GameStore(path).add_finished("guandan", ["random"] * 4, record, result)
    reopened = GameStore(path)
    assert reopened.get_record(record_id) == record
    assert [entry["record_id"] for entry in reopened.list_finished(50)] == [record_id]


def test_a_game_that_cannot_be_written_leaves_no_row(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    with pytest.raises(ValueError, match="cannot be stored as JSON"):
        store.add_finished("gongzhu", ["random"] * 4, {"game": "gongzhu", "seed": object()}, {"payoffs": []})
    with pytest.raises(ValueError, match="cannot be stored as JSON"):
        store.add_finished("gongzhu", ["random"] * 4, {"game": "gongzhu"}, {"payoffs": [math.nan]})
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT COUNT(*) FROM finished_games").fetchone() == (0,)


def test_threads_may_share_a_store(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    record, result = finished_game("doudizhu", 4)
    ids: list[str] = []

    def add_some() -> None:
        for _ in range(10):
            ids.append(store.add_finished("doudizhu", ["random"] * 3, record, result))

    threads = [threading.Thread(target=add_some) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(ids)) == 60
    assert {entry["record_id"] for entry in store.list_finished(100)} == set(ids)
    assert json.dumps(store.get_record(ids[0])) == json.dumps(record)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_killed_server_keeps_finished_games_and_no_part_of_one_in_progress(tmp_path):
    path = tmp_path / "arena.sqlite3"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from paiju.serve.cli import serve; from paiju.serve.settings import ServeSettings; "
                         f"serve(ServeSettings(db_path={str(path)!r}), port={port})"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert "paiju arena at http://127.0.0.1:" in server.stdout.readline()
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        for _ in range(100):
            with contextlib.suppress(httpx.TransportError):
                http.get("/api/games")
                break
            time.sleep(0.1)
        http.post("/api/tables", json={"game": "gongzhu", "seats": ["random"] * 4, "seed": 1})
        while not http.get("/api/records").json():
            time.sleep(0.05)
        table = http.post("/api/tables", json={"game": "doudizhu", "seats": ["human", "random", "random"]}).json()
        with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}"
                                            f"?token={table['seats'][0]['token']}") as seat:
            while (act := json.loads(seat.recv(10)))["type"] != "act":
                pass
            seat.send(json.dumps({"action": act["legal"][0]}))
            while json.loads(seat.recv(10))["type"] != "act":
                pass
            server.send_signal(signal.SIGKILL)
            server.wait(10)
    finally:
        server.kill()
        server.wait()
    [kept] = GameStore(path).list_finished(50)
    assert kept["game"] == "gongzhu"
    assert load_game("gongzhu").from_record(GameStore(path).get_record(kept["record_id"])).is_terminal()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("SELECT COUNT(*) FROM finished_games").fetchone() == (1,)
