"""Ladder bot accounts: names, keys stored hashed, statuses, strikes, and refusals that change nothing."""

from __future__ import annotations

import sqlite3

import pytest

from paiju.serve.accounts import (
    AccountError,
    BotAccounts,
    BotStatus,
    NameTaken,
    RegistrationsLimited,
    UnknownBot,
    UnknownKey,
    check_name,
    hash_key,
)
from paiju.serve.store import GameStore

HOUSE = {"random", "rules", "mr-greed", "mr-if", "search", "dmc"}


@pytest.fixture
def accounts(tmp_path) -> BotAccounts:
    return BotAccounts(tmp_path / "arena.sqlite3", HOUSE, registrations_per_hour=5, strike_limit=2,
                       pause_seconds=60.0)


def rows(accounts: BotAccounts) -> list[tuple]:
    with sqlite3.connect(accounts.path) as connection:
        return connection.execute("SELECT * FROM ladder_bots ORDER BY name").fetchall()


@pytest.mark.parametrize("name", ["ab", "1abc", "has space", "x" * 33, "dot.name", "ünï", "rules", "RULES",
                                  "Mr_Greed", "mrgreed7", "search-2", "house_bot", "PaijuBot", "admin1", "open",
                                  "human"])
def test_malformed_or_impersonating_names_are_refused(name):
    with pytest.raises(AccountError):
        check_name(name, HOUSE)


@pytest.mark.parametrize("name", ["abc", "my-bot_2", "Searcher", "randomwalk", "x" * 32, "rulesmith"])
def test_other_names_are_accepted(name):
    check_name(name, HOUSE)


def test_a_key_is_stored_hashed_and_opens_its_bot_alone(accounts):
    first, key = accounts.register("first", "me@example.org", "doudizhu", "10.0.0.1")
    _, other = accounts.register("second", "me@example.org", "gongzhu", "10.0.0.1")
    assert key.startswith("pk-") and len(key) == 46 and key != other
    stored = rows(accounts)
    assert all(key not in map(str, row) for row in stored)
    assert hash_key(key) in [row[3] for row in stored]
    assert accounts.authenticate(key) == first and accounts.authenticate(other).name == "second"
    with pytest.raises(UnknownKey, match=r"^unknown or revoked bot key$"):
        accounts.authenticate(key + "x")


def test_refused_registrations_change_nothing(accounts):
    accounts.register("Taken", "me@example.org", "guandan", "10.0.0.1")
    before = rows(accounts)
    with pytest.raises(NameTaken):
        accounts.register("taken", "me@example.org", "guandan", "10.0.0.2")
    with pytest.raises(AccountError, match="unknown game"):
        accounts.register("fresh", "me@example.org", "chess", "10.0.0.2")
    with pytest.raises(AccountError, match="owner contact"):
        accounts.register("fresh", "\n", "guandan", "10.0.0.2")
    assert rows(accounts) == before


def test_registrations_are_limited_per_address(accounts):
    for number in range(5):
        with pytest.raises(AccountError):
            accounts.register(f"bad name {number}", "me@example.org", "doudizhu", "10.0.0.9")
    with pytest.raises(RegistrationsLimited):
        accounts.register("goodname", "me@example.org", "doudizhu", "10.0.0.9")
    accounts.register("goodname", "me@example.org", "doudizhu", "10.0.0.10")  # another address


def test_rotation_revokes_the_old_key(accounts):
    _, key = accounts.register("rotor", "me@example.org", "doudizhu", "a")
    new = accounts.rotate(key)
    assert accounts.authenticate(new).name == "rotor"
    with pytest.raises(UnknownKey):
        accounts.rotate(key)


def test_strikes_in_a_row_pause_for_a_while_then_the_bot_is_active_again(accounts):
    accounts.register("flaky", "me@example.org", "gongzhu", "a")
    assert accounts.strike("flaky", "one", now=1000.0).status is BotStatus.ACTIVE
    accounts.clear_strikes("flaky")
    assert accounts.strike("flaky", "two", now=1000.0).strikes == 1
    paused = accounts.strike("flaky", "table t-1: 2 moves played by timeout", now=1000.0)
    assert paused.status is BotStatus.PAUSED and paused.paused_until == 1060.0
    assert paused.reason.endswith("(last: table t-1: 2 moves played by timeout)")
    assert accounts.standing("flaky", now=1059.0).status is BotStatus.PAUSED
    resumed = accounts.standing("flaky", now=1060.0)
    assert resumed.status is BotStatus.ACTIVE and resumed.reason == "" and resumed.strikes == 0


def test_an_admin_pause_lasts_until_resumed(accounts):
    accounts.register("held", "me@example.org", "gongzhu", "a")
    paused = accounts.set_status("HELD", BotStatus.PAUSED, "reviewing its games")
    assert paused.paused_until is None and accounts.standing("held", now=1e12).status is BotStatus.PAUSED
    assert accounts.set_status("held", BotStatus.ACTIVE).status is BotStatus.ACTIVE
    with pytest.raises(UnknownBot):
        accounts.set_status("nobody", BotStatus.BANNED)


def test_a_store_from_before_the_ladder_gains_its_column(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE finished_games (number INTEGER PRIMARY KEY AUTOINCREMENT, record_id TEXT "
                           "NOT NULL UNIQUE, game TEXT NOT NULL, seats TEXT NOT NULL, record TEXT NOT NULL, "
                           "result TEXT NOT NULL, finished TEXT NOT NULL)")
        connection.execute("INSERT INTO finished_games (record_id, game, seats, record, result, finished) VALUES "
                           "('r-old', 'gongzhu', '[\"a\"]', '{}', '{\"payoffs\": [0]}', '2026-01-01')")
    store = GameStore(path)
    store.add_finished("gongzhu", ["a"], {}, {"payoffs": [1]}, ladder="standard")
    [(_, ladder_game)] = store.finished_since(0, ladder_only=True)
    assert [summary["record_id"] for _, summary in store.finished_since(0)] == ["r-old", ladder_game["record_id"]]
    assert ladder_game["ladder"] == "standard" and store.ladder_games_of("a") == [
        {key: value for key, value in ladder_game.items() if key != "ladder"}]
