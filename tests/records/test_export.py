"""``paiju records export``: the arena's finished games as record files that replay."""

import pytest
from typer.testing import CliRunner

from paiju.agents import make_agent
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.core.record import load_record
from paiju.core.registry import load_game
from paiju.records.export import export_records
from paiju.serve.store import GameStore


def finished(game_name: str, seed: int):
    game = load_game(game_name)
    agents = [make_agent("random", game_name, seed + seat) for seat in range(game.num_players)]
    return play_game(game, agents, seed)


@pytest.fixture
def store(tmp_path):
    store = GameStore(tmp_path / "arena.sqlite3")
    for game_name, seed in (("doudizhu", 1), ("gongzhu", 2), ("doudizhu", 3)):
        state = finished(game_name, seed)
        store.add_finished(game_name, ["a", "b", "c", "d"][:len(state.payoffs())], state.to_record(), state.result())
    return store


def test_every_finished_game_is_written_and_replays(store, tmp_path):
    files = export_records(store.path, tmp_path / "out")
    assert len(files) == 3 and all(path.suffix == ".json" for path in files)
    for path in files:
        record = load_record(path)
        state = load_game(record["game"]).from_record(record)
        assert state.is_terminal()
    result = CliRunner().invoke(app, ["replay", str(files[0])])
    assert result.exit_code == 0, result.output


def test_filters_by_game_and_time(store, tmp_path):
    assert len(export_records(store.path, tmp_path / "dz", game="doudizhu")) == 2
    assert export_records(store.path, tmp_path / "later", since="2999-01-01") == []
    assert len(export_records(store.path, tmp_path / "before", until="2999-01-01T00:00+08:00")) == 3


def test_bad_input_is_one_clear_error(store, tmp_path):
    with pytest.raises(PaijuError, match="no such arena database"):
        export_records(tmp_path / "missing.sqlite3", tmp_path / "out")
    assert not (tmp_path / "missing.sqlite3").exists()
    with pytest.raises(PaijuError, match="--since must be an ISO 8601"):
        export_records(store.path, tmp_path / "out", since="yesterday")
    with pytest.raises(PaijuError, match="unknown game"):
        export_records(store.path, tmp_path / "out", game="poker")
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 10)
    with pytest.raises(PaijuError, match="junk"):
        export_records(tmp_path / "junk.sqlite3", tmp_path / "out")


def test_cli_exports(store, tmp_path):
    result = CliRunner().invoke(app, ["records", "export", str(store.path), "--out", str(tmp_path / "o"),
                                      "--game", "gongzhu"])
    assert result.exit_code == 0, result.output
    assert "1 records written" in result.output
