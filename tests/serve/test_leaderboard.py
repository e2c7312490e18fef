"""The arena's leaderboard: OpenSkill ratings per game over the finished games, brought up to date incrementally."""

import shutil
from pathlib import Path

import httpx

import paiju.serve
from paiju.serve.leaderboard import Leaderboard, sides
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore

PAGE = Path(paiju.serve.__file__).parent / "static" / "leaderboard.html"


def add(store: GameStore, game: str, seats: list[str], payoffs: list[float]) -> None:
    store.add_finished(game, seats, {"game": game}, {"payoffs": payoffs})


def test_sides_group_equal_payoffs_best_first():
    assert sides(["rules", "dmc", "dmc"], [-2, 1, 1]) == [(1, ["dmc"]), (-2, ["rules"])]
    assert sides(["a", "b", "a", "b"], [3, -3, 3, -3]) == [(3, ["a"]), (-3, ["b"])]


def test_the_winner_rises_and_self_play_teaches_nothing(tmp_path):
    store = GameStore(tmp_path / "arena.sqlite3")
    for _ in range(5):
        add(store, "doudizhu", ["strong", "weak", "weak"], [2, -1, -1])
    add(store, "doudizhu", ["rules", "rules", "rules"], [-2, 1, 1])
    add(store, "gongzhu", ["x", "y", "x", "y"], [50, -50, 50, -50])
    board = Leaderboard(store).to_json()
    assert board["games_rated"] == 7
    rows = {row["name"]: row for row in board["games"]["doudizhu"]}
    assert board["games"]["doudizhu"][0]["name"] == "strong"
    assert rows["strong"]["rating"] > rows["rules"]["rating"] > rows["weak"]["rating"]
    assert rows["rules"]["games"] == 1 and rows["rules"]["mu"] == 25.0   # played, not rated
    assert rows["rules"]["wins"] == 0 and rows["rules"]["mean_payoff"] == 0.0   # on both sides: -2, +1, +1
    assert rows["strong"]["wins"] == 5 and rows["weak"]["mean_payoff"] == -1.0
    assert rows["weak"]["games"] == 5 and rows["weak"]["wins"] == 0     # two seats a game, one game
    assert {row["name"] for row in board["games"]["gongzhu"]} == {"x", "y"}


def test_refresh_rates_only_new_games_and_matches_a_recomputation(tmp_path):
    store = GameStore(tmp_path / "arena.sqlite3")
    board = Leaderboard(store)
    add(store, "guandan", ["a", "b", "a", "b"], [2, -2, 2, -2])
    first = board.to_json()
    add(store, "guandan", ["a", "c", "a", "c"], [-1, 1, -1, 1])
    add(store, "guandan", ["c", "b", "c", "b"], [3, -3, 3, -3])
    assert board.to_json() != first
    assert board.to_json() == Leaderboard(store).to_json()
    assert board.to_json()["games_rated"] == 3


def test_the_arena_serves_the_ratings_and_the_page(arena_settings: ServeSettings, arena_url: str):
    add(GameStore(arena_settings.db_path), "doudizhu", ["rules", "random", "random"], [2, -1, -1])
    arena_settings.static_dir.mkdir(exist_ok=True)
    shutil.copy(PAGE, arena_settings.static_dir / PAGE.name)
    with httpx.Client(base_url=arena_url, timeout=10) as http:
        board = http.get("/api/leaderboard").json()
        assert [row["name"] for row in board["games"]["doudizhu"]] == ["rules", "random"]
        page = http.get("/leaderboard")
        assert page.status_code == 200 and "/api/leaderboard" in page.text



def test_a_name_on_both_sides_stands_still_while_the_others_are_rated_against_it(tmp_path):
    store = GameStore(tmp_path / "arena.sqlite3")
    for _ in range(3):
        add(store, "gongzhu", ["bot", "random", "random", "random"], [40, -40, 40, -40])
    rows = {row["name"]: row for row in Leaderboard(store).to_json()["games"]["gongzhu"]}
    assert rows["random"]["mu"] == 25.0 and rows["bot"]["mu"] > 25.0 and rows["bot"]["sigma"] < 8.333
