"""The agents the arena offers, and the adviser its Hint asks."""

from paiju.serve import bots


def test_the_adviser_is_the_strongest_offered_agent(monkeypatch):
    assert bots.adviser("doudizhu") == "search"
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["dmc", "perfectdou", "random", "rules"])
    assert bots.adviser("doudizhu") == "perfectdou"
    monkeypatch.setattr(bots, "offered_agents", lambda game: ["random"])
    assert bots.adviser("gongzhu") == "random"
