"""癞子 (wild-card) DouDizhu at the arena: its tables, what a seat sees and answers, and its own leaderboard."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from paiju.games.doudizhu import DouDizhu, DouDizhuRules
from paiju.serve.leaderboard import Leaderboard
from paiju.serve.store import GameStore
from paiju.serve.variants import playing_agents, ruleset_name

LAIZI = {"laizi": True}
SEED = 2
"""Research mode: seat 0 leads with 344455678899TTJKKABR, and 8 is wild: 4448 is a trio of fours with the 8, or
(4448=4444) the soft bomb of fours."""
TRIO, SOFT_BOMB = "4448", "4448=4444"


def run(coroutine):
    return asyncio.run(coroutine)


def laizi_table(arena, seats: list[str], **rules) -> tuple[str, dict[int, str]]:
    table = arena.create_table("doudizhu", seats, rules=LAIZI | rules, seed=SEED)
    return table["table_id"], {seat["seat"]: seat["token"] for seat in table["seats"] if seat["kind"] == "human"}


def test_the_engine_deals_what_the_tests_say():
    state = DouDizhu().new_state(SEED, DouDizhuRules(laizi=True))
    notations = [move.notation for move in state.legal_actions()]
    assert state.wild == (5,) and TRIO in notations and SOFT_BOMB in notations


def test_games_lists_the_laizi_variant_with_the_agents_that_play_it(arena):
    entry = arena.http.get("/api/games").json()["games"]["doudizhu"]
    variant = entry["variants"]["laizi"]
    assert variant["label"] == "癞子 / wild card" and variant["rules"] == LAIZI
    assert variant["default_rules"] == DouDizhuRules(laizi=True).to_json()
    assert {"random", "rules"} <= set(variant["agents"]) <= set(entry["agents"])
    assert not {"perfectdou", "deeprocket"} & set(variant["agents"])  # they learned the classic game only
    assert variant["table_bot"] == "rules" and variant["adviser"] in variant["agents"]
    assert "laizi" not in entry["default_rules"]  # the classic rules stay the game's own
    assert arena.http.get("/api/games").json()["games"]["gongzhu"]["variants"] == {}


def test_a_laizi_table_is_made_with_the_laizi_rules_and_named_so(arena):
    table_id, tokens = laizi_table(arena, ["human", "rules", "random"])
    listed = arena.table(table_id)
    assert listed["ruleset"] == "laizi" and listed["game"] == "doudizhu"

    async def welcome():
        client = await arena.connect(table_id, tokens[0])
        message = await client.receive_type("welcome")
        await client.close()
        return message

    assert run(welcome())["rules"] == DouDizhuRules(laizi=True).to_json()
    two = arena.create_table("doudizhu", ["human", "rules", "rules"], rules=LAIZI | {"wild_ranks": 2})
    assert arena.table(two["table_id"])["ruleset"] == "laizi,wild_ranks=2"
    classic = arena.create_table("doudizhu", ["human", "rules", "rules"])
    assert arena.table(classic["table_id"])["ruleset"] is None


@pytest.mark.parametrize("agent", ["deeprocket", "perfectdou"])
def test_an_agent_that_cannot_play_laizi_is_refused_a_seat(arena, agent):
    if agent not in arena.http.get("/api/games").json()["games"]["doudizhu"]["agents"]:
        pytest.skip(f"{agent}'s networks are not shipped here")
    reply = arena.http.post("/api/tables", json={"game": "doudizhu", "rules": LAIZI,
                                                 "seats": ["human", agent, "rules"]})
    assert reply.status_code == 400
    assert reply.json()["detail"] == (f"seat 1: {agent!r} does not play the laizi rules of doudizhu; the agents that "
                                      f"do: {', '.join(playing_agents('doudizhu', LAIZI))}")
    assert arena.http.get("/api/tables").json()["tables"] == []


def test_the_seat_sees_the_wild_rank_and_a_substituted_play_is_accepted(arena):
    table_id, tokens = laizi_table(arena, ["human", "rules", "rules"])

    async def play():
        client = await arena.connect(table_id, tokens[0])
        act = await client.receive_type("act")
        await client.send({"action": SOFT_BOMB})
        update = await client.receive_type("update")
        end = await client.play(lambda act: act["legal"][0])
        await client.close()
        return act, update, end

    act, update, end = run(play())
    assert act["obs"]["wild"] == "8" and act["obs"]["hand"] == "344455678899TTJKKABR"
    assert TRIO in act["legal"] and SOFT_BOMB in act["legal"]
    assert update["last"] == {"seat": 0, "action": SOFT_BOMB}
    assert update["obs"]["history"] == [[0, SOFT_BOMB]] and update["obs"]["multiplier"] == 2  # a soft bomb
    assert update["obs"]["hand"] == "35567899TTJKKABR" and "8" in update["obs"]["hand"]  # the other wild card kept
    record = arena.record(end["record_id"])
    assert record["rules"]["laizi"] is True and record["actions"][0] == [0, SOFT_BOMB]
    assert record["deals"][0]["wild"] == "8"


def test_the_wild_rank_is_hidden_until_there_is_a_landlord(arena):
    table_id, tokens = laizi_table(arena, ["human", "rules", "rules"], mode="full")

    async def bid():
        client = await arena.connect(table_id, tokens[0])
        while (act := await client.receive_type("act"))["phase"] != "play":
            before = act["obs"]
            await client.send({"action": 3 if 3 in act["legal"] else 0})
        await client.close()
        return before, act

    before, act = run(bid())
    assert before["wild"] == "" and before["landlord"] is None
    assert len(act["obs"]["wild"]) == 1 and act["obs"]["landlord"] == 0


@pytest.mark.parametrize(("answer", "reason"), [
    ("4449=4444", ": '4449=4444': 9 is not a wild card (more substitutions than wild cards); only 8 cards stand for "
                  "other ranks"),
    ("4448=4449", ": '4448=4449': a wild card used as a kicker stands for its own rank; the substituted cards must be "
                  "in the trio+solo's main part"),
    ("3888=8888", ": '3888=8888': 3 is not a wild card"),
    ("8444=4444", "; that play is written '\"4448=4444\"'"),
    ("4444", ": seat 0 does not hold '4444'"),
])
def test_a_bad_substitution_is_refused_naming_the_rule_and_nothing_changes(arena, answer, reason):
    table_id, tokens = laizi_table(arena, ["human", "rules", "rules"])

    async def refused():
        client = await arena.connect(table_id, tokens[0])
        act = await client.receive_type("act")
        await client.send({"action": answer})
        error = await client.receive_type("error")
        await client.close()
        again = await arena.connect(table_id, tokens[0])  # the seat is asked again for the same decision
        resumed = await again.receive_type("act")
        await again.send({"action": TRIO})
        update = await again.receive_type("update")
        await again.close()
        return act, error, resumed, update

    act, error, resumed, update = run(refused())
    written = repr(json.dumps(answer))
    assert error["message"].startswith(f"action {written} is not one of the {len(act['legal'])} legal actions{reason}")
    assert resumed["legal"] == act["legal"] and resumed["obs"] == act["obs"]
    assert update["last"] == {"seat": 0, "action": TRIO} and update["obs"]["multiplier"] == 1


def test_an_adviser_that_cannot_play_laizi_is_refused(arena):
    table_id, tokens = laizi_table(arena, ["human", "rules", "rules"])

    async def ask():
        client = await arena.connect(table_id, tokens[0])
        await client.receive_type("act")
        await client.send({"type": "explain", "agent": "perfectdou"})
        error = await client.receive_type("error")
        await client.send({"type": "explain", "agent": "rules"})
        explain = await client.receive_type("explain")
        await client.close()
        return error, explain

    error, explain = run(ask())
    assert error["message"].startswith("unknown agent 'perfectdou' for doudizhu under these rules (laizi); known: ")
    assert explain["candidates"] and all(isinstance(candidate["action"], str) for candidate in explain["candidates"])


def test_ruleset_names():
    assert ruleset_name("doudizhu", DouDizhuRules().to_json()) is None
    assert ruleset_name("doudizhu", DouDizhuRules(mode="full").to_json()) is None
    assert ruleset_name("doudizhu", DouDizhuRules(laizi=True, mode="full").to_json()) == "laizi"
    assert ruleset_name("doudizhu", DouDizhuRules(laizi=True, wild_ranks=2, bomb_multipliers=(2, 4, 4)).to_json()) \
        == "laizi,bomb_multipliers=2-4-4,wild_ranks=2"
    assert ruleset_name("gongzhu", {}) is None


def test_laizi_games_are_stored_and_rated_apart_from_classic_games(arena):
    laizi = arena.create_table("doudizhu", ["random", "rules", "rules"], rules=LAIZI, seed=3, bot_delay=0)
    classic = arena.create_table("doudizhu", ["rules", "random", "random"], seed=3, bot_delay=0)
    records = {record["ruleset"]: record for record in arena.wait_for_records(2)}
    assert set(records) == {"laizi", None}
    assert arena.record(records["laizi"]["record_id"])["rules"]["laizi"] is True
    assert records["laizi"]["seats"] == ["random", "rules", "rules"]
    assert {laizi["table_id"], classic["table_id"]} <= {table["table_id"] for table in
                                                         arena.http.get("/api/tables").json()["tables"]}
    boards = arena.http.get("/api/leaderboard").json()["games"]
    assert set(boards) == {"doudizhu", "doudizhu/laizi"}
    assert {row["name"]: row["games"] for row in boards["doudizhu/laizi"]} == {"random": 1, "rules": 1}  # 2 seats
    assert {row["name"]: row["games"] for row in boards["doudizhu"]} == {"random": 1, "rules": 1}


def test_the_store_keeps_the_ruleset_and_an_older_file_gains_the_column(tmp_path):
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as connection:  # a file written before the ruleset column existed
        connection.execute("CREATE TABLE finished_games (number INTEGER PRIMARY KEY AUTOINCREMENT, record_id TEXT "
                           "NOT NULL UNIQUE, game TEXT NOT NULL, seats TEXT NOT NULL, record TEXT NOT NULL, result "
                           "TEXT NOT NULL, finished TEXT NOT NULL, ladder TEXT)")
        connection.execute("INSERT INTO finished_games (record_id, game, seats, record, result, finished) VALUES "
                           "('r-old', 'doudizhu', '[\"a\", \"b\", \"b\"]', '{}', '{\"payoffs\": [2, -1, -1]}', '2024')")
    connection.close()
    store = GameStore(path)
    new = store.add_finished("doudizhu", ["a", "b", "b"], {}, {"payoffs": [-2, 1, 1]}, ruleset="laizi")
    assert [(summary["record_id"], summary["ruleset"]) for summary in reversed(store.list_finished())] == [
        ("r-old", None), (new, "laizi")]
    assert store.get_summary(new)["ruleset"] == "laizi"
    games = Leaderboard(store).to_json()["games"]
    assert {board: [row["wins"] for row in rows] for board, rows in games.items()} == {
        "doudizhu": [1, 0], "doudizhu/laizi": [1, 0]}  # b sits twice in its win: one win
    assert Leaderboard(store, ladder=True).to_json()["games"] == {}
