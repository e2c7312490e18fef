"""The agents the arena offers, the adviser its Hint asks, and the bot a new table starts with."""

from paiju.serve import bots


def test_the_adviser_is_the_strongest_offered_agent(monkeypatch):
    assert bots.adviser("doudizhu") == "search"
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["deeprocket", "dmc", "perfectdou", "random", "rules"])
    assert bots.adviser("doudizhu") == "deeprocket"
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["dmc", "perfectdou", "random", "rules"])
    assert bots.adviser("doudizhu") == "perfectdou"
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["random"])
    assert bots.adviser("gongzhu") == "random"


def test_a_new_doudizhu_table_starts_with_the_strongest_bot_that_moves_quickly(monkeypatch):
    assert bots.table_bot("doudizhu") == "search"
    assert bots.table_bot("guandan") is None  # the page's quick rule bot
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["dmc", "perfectdou", "random", "rules"])
    assert bots.table_bot("doudizhu") == "perfectdou"
