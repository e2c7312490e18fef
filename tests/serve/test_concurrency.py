"""Many tables at once on one server: all finish and are stored; a table that fails stops alone."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
import websockets

from paiju import load_game
from paiju.core.agent import Agent
from paiju.eval.seeds import derive_seed
from paiju.serve import lobby
from paiju.serve.tables import ABORTED_MESSAGE, Table

GAMES = ["doudizhu", "guandan", "gongzhu"]
RULES = {"guandan": {"rounds": 2}}



def test_fifty_bot_tables_and_three_people_all_finish(arena, seat_policy):
    bot_games = [(game, index) for index, game in enumerate((GAMES * 17)[:50])]
    human_games = [(game, 100 + index) for index, game in enumerate(GAMES)]
    bot_tables = [arena.create_table(game, ["random"] * load_game(game).num_players, seed=seed, rules=RULES.get(game))
                  for game, seed in bot_games]
    human_tables = [arena.create_table(game, ["human"] + ["random"] * (load_game(game).num_players - 1), seed=seed,
                                       rules=RULES.get(game)) for game, seed in human_games]

    async def play_people() -> list[dict]:
        clients = [await arena.connect(table["table_id"], table["seats"][0]["token"]) for table in human_tables]
        ends = await asyncio.gather(*(client.play(seat_policy(index)) for index, client in enumerate(clients)))
        for client in clients:
            await client.close()
        return ends

    ends = asyncio.run(play_people())
    records = arena.wait_for_records(53)
    assert len(records) == 53
    assert {end["record_id"] for end in ends} <= {entry["record_id"] for entry in records}
    stored_games = []
    for entry in records:
        record = arena.record(entry["record_id"])
        assert load_game(entry["game"]).from_record(record).payoffs() == entry["result"]["payoffs"]
        stored_games.append((entry["game"], record["seed"]))
    assert sorted(stored_games) == sorted(bot_games + human_games)
    lobby = arena.http.get("/api/tables").json()["tables"]
    assert {table["status"] for table in lobby} == {"finished"}
    assert {table["table_id"] for table in lobby} == {table["table_id"] for table in bot_tables + human_tables}
    assert len(lobby) == 53


FAILING_SEED = 666


@pytest.fixture
def failing_bots(monkeypatch):
    """Bots at tables dealt from ``FAILING_SEED`` crash on their first move."""
    bot_move = Table._bot_move

    async def crash_or_move(table: Table, seat: int, legal: list):
        if table.seed == FAILING_SEED:
            raise RuntimeError("a bot crashed")
        return await bot_move(table, seat, legal)

    monkeypatch.setattr(Table, "_bot_move", crash_or_move)


def test_a_failing_table_is_aborted_and_others_play_on(arena, seat_policy, failing_bots, caplog):
    doomed = arena.create_table("gongzhu", ["random", "human", "random", "random"], seed=FAILING_SEED)
    healthy = arena.create_table("gongzhu", ["random", "human", "random", "random"], seed=5)

    async def play():
        victim = await arena.connect(doomed["table_id"], doomed["seats"][1]["token"])
        player = await arena.connect(healthy["table_id"], healthy["seats"][1]["token"])
        refusal = await victim.receive_type("error")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await victim.receive()
        end = await player.play(seat_policy(1))
        await player.close()
        again = await arena.connect(doomed["table_id"], doomed["seats"][1]["token"])
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await again.receive()
        return refusal, closed.value, end, again.received

    with caplog.at_level(logging.ERROR, logger="paiju.serve.tables"):
        refusal, closed, end, reconnected = asyncio.run(play())
    assert refusal["message"] == ABORTED_MESSAGE and "crashed" not in refusal["message"]
    assert closed.rcvd.code == 1011
    assert [message["type"] for message in reconnected] == ["welcome", "error"]
    assert arena.table(doomed["table_id"])["status"] == "aborted"
    assert arena.table(healthy["table_id"])["status"] == "finished"
    assert [entry["record_id"] for entry in arena.records()] == [end["record_id"]]
    assert any(f"table {doomed['table_id']}" in entry.getMessage() and entry.exc_info for entry in caplog.records)


SLOW_SEED = 1000
SLOW_MOVE = 0.5


class SlowAgent(Agent):
    """Blocks ``SLOW_MOVE`` seconds, then plays the first legal action."""

    def act(self, observation, legal):
        time.sleep(SLOW_MOVE)
        return legal[0]


@pytest.fixture
def slow_bots(monkeypatch):
    """Bots at tables dealt from ``SLOW_SEED`` think ``SLOW_MOVE`` seconds (blocking) per move."""
    make_bot = lobby.make_bot

    def slow_or_usual(name: str, game: str, seed: int) -> Agent:
        slow_seeds = {derive_seed(SLOW_SEED, "agent", seat) for seat in range(4)}
        return SlowAgent() if seed in slow_seeds else make_bot(name, game, seed)

    monkeypatch.setattr(lobby, "make_bot", slow_or_usual)


def test_a_thinking_bot_holds_up_no_other_table(arena, slow_bots):
    other = arena.create_table("doudizhu", ["human", "random", "random"], seed=4)

    async def answer_times() -> list[float]:
        client = await arena.connect(other["table_id"], other["seats"][0]["token"])
        await client.receive_type("act")
        loop = asyncio.get_running_loop()
        times = []
        for _ in range(5):
            sent = loop.time()
            await client.send({"type": "ping"})
            await client.receive_type("pong")
            times.append(loop.time() - sent)
            await asyncio.sleep(0.1)
        await client.close()
        return times

    slow = arena.create_table("gongzhu", ["random"] * 4, seed=SLOW_SEED)
    assert max(asyncio.run(answer_times())) < SLOW_MOVE / 2
    assert arena.table(slow["table_id"])["status"] == "playing"
