"""paiju's JSON record files: exact round trips, atomic saving, and errors that name the file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import paiju
from paiju.core.errors import RecordError
from paiju.core.game import State
from paiju.core.record import load_game_from_record, load_record, save_record
from paiju.games.doudizhu import DouDizhuRules

GAME = paiju.load_game("doudizhu")
FULL = DouDizhuRules(mode="full")


def _random_game(seed: int, rules: DouDizhuRules, stop_after: int | None = None) -> State:
    """A game dealt from ``seed`` played with seeded random actions, to the end or for ``stop_after`` actions."""
    state = GAME.new_state(seed, rules)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal() and steps != stop_after:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return state


def _save(path: Path, record: dict) -> Path:
    save_record(path, record)
    return path


def _round_trip(state: State, path: Path) -> dict:
    save_record(path, state)
    return load_game_from_record(path).to_record()


@pytest.mark.parametrize("rules", [DouDizhuRules(), FULL], ids=["research", "full"])
@pytest.mark.parametrize("seed", range(10))
def test_finished_game_round_trips_exactly(tmp_path: Path, rules: DouDizhuRules, seed: int) -> None:
    state = _random_game(seed, rules)
    record = state.to_record()
    assert "result" in record
    assert load_record(_save(tmp_path / "game.json", record)) == record
    assert _round_trip(state, tmp_path / "game.json") == record


def test_full_mode_game_with_a_redeal_round_trips(tmp_path: Path) -> None:
    """All three seats pass, the deal is void and a new one is drawn from the seed: both deals are kept."""
    state = next(s for s in (_random_game(seed, FULL) for seed in range(100)) if s.deal_number > 0)
    record = state.to_record()
    assert len(record["deals"]) == state.deal_number + 1 >= 2
    assert [bid for _, bid in record["actions"][:3]] == [0, 0, 0]
    assert _round_trip(state, tmp_path / "redeal.json") == record


@pytest.mark.parametrize("rules", [DouDizhuRules(), FULL], ids=["research", "full"])
def test_unfinished_game_round_trips_and_plays_on(tmp_path: Path, rules: DouDizhuRules) -> None:
    state = _random_game(7, rules, stop_after=9)
    assert not state.is_terminal()
    loaded = load_game_from_record(_save(tmp_path / "open.json", state.to_record()))
    assert loaded.to_record() == state.to_record()
    assert loaded.legal_actions() == state.legal_actions()


def test_saving_replaces_the_file_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(path, _random_game(1, DouDizhuRules()))
    second = _random_game(2, DouDizhuRules())
    save_record(path, second)
    assert load_record(path) == second.to_record()
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_failed_save_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = _random_game(3, DouDizhuRules())
    save_record(path, state)
    before = path.read_text()
    with pytest.raises(RecordError, match=r"game\.json: the record cannot be written as JSON"):
        save_record(path, {**state.to_record(), "seed": {1, 2}})
    with pytest.raises(RecordError, match=r"game\.json: a record is a JSON object"):
        save_record(path, [1, 2])  # type: ignore[arg-type]
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_record_file_lists_one_action_per_line(tmp_path: Path) -> None:
    record = _random_game(4, DouDizhuRules()).to_record()
    lines = [line.strip().rstrip(",") for line in _save(tmp_path / "game.json", record).read_text().splitlines()]
    start = lines.index('"actions": [') + 1
    assert lines[start:start + len(record["actions"])] == [json.dumps(action) for action in record["actions"]]


def _tampered(record: dict) -> dict:
    """The record with its first play replaced by cards the player does not hold (four big jokers)."""
    actions = [list(a) for a in record["actions"]]
    actions[0][1] = "RRRR"
    return {**record, "actions": actions}


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such record file"),
    ("{not json", "not JSON"),
    ("[1, 2, 3]", "a record is a JSON object, got a JSON list"),
    ('{"seed": 1}', "the record names no game"),
    ('{"game": "chess", "format": 1, "deals": [], "actions": []}', "unknown game 'chess'"),
    (json.dumps({"game": "doudizhu", "format": 1, "deals": [], "actions": []}), "does not replay"),
    ('{"game": "doudizhu", "deals": [], "actions": []}',
     'not a paiju record: expected "format": 1 (paiju\'s record format), got none'),
    ('{"game": "doudizhu", "format": "1"}', 'expected "format": 1 (paiju\'s record format), got "1"'),
    ('{"game": "doudizhu", "format": 1, "seed": NaN}', "not JSON: NaN is not a JSON value"),
    ("[" * 100_000, "JSON nested too deeply to read"),
    ('{"game": "doudizhu", "seed": ' + "9" * 5000 + "}", "JSON holding an integer longer than 4300 digits"),
    (json.dumps(_tampered(_random_game(5, DouDizhuRules()).to_record())), "does not replay: action 0"),
])
def test_bad_file_is_named(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(RecordError) as error:
        load_game_from_record(path)
    assert str(error.value).startswith(f"{path}: ")
    assert message in str(error.value)


def test_interrupted_save_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """If the final replace fails, the old record stays whole and the temporary file is removed."""
    path = tmp_path / "game.json"
    save_record(path, _random_game(8, DouDizhuRules()))
    before = path.read_text()

    def refuse(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("paiju.core.record.os.replace", refuse)
    with pytest.raises(RecordError, match=r"game\.json: cannot write the record: disk full"):
        save_record(path, _random_game(9, DouDizhuRules()))
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
