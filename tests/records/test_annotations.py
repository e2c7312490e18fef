"""The search's candidate values in records: written by ``records generate``, replayed and checked."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import pytest

from paiju.core.errors import RecordError
from paiju.core.registry import load_game
from paiju.records.annotations import KEY, searched_steps
from paiju.records.corpus import CorpusSettings
from paiju.records.generate import GenerateConfig, generate

SEARCH = "search:sims=12,worlds=4,top=3"


def _records(folder: Path) -> list[dict]:
    lines = []
    for shard in sorted(folder.glob("*.jsonl.gz")):
        lines += gzip.decompress(shard.read_bytes()).decode().splitlines()
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def search_record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("corpus")
    settings = CorpusSettings(game="doudizhu", agents=(SEARCH, "rules", SEARCH), seed=3, record_format="paiju",
                              rules={}, shard_size=1)
    generate(GenerateConfig(settings, 1, out), progress=False)
    return _records(out)[0]


def test_search_games_keep_each_searched_decisions_candidates(search_record: dict) -> None:
    searched = search_record[KEY]
    assert searched["agents"] == [SEARCH, "rules", SEARCH]
    steps = list(searched_steps(load_game("doudizhu"), search_record))
    assert len(steps) == len(search_record["actions"])
    valued = [step for step in steps if step.values is not None]
    assert len(valued) == len(searched["decisions"]) > 0
    for step in valued:
        assert step.seat != 1  # the rule bot's moves carry no values
        assert step.values[0][0] == step.action
        assert 1 <= len(step.values) <= 3
    forced = [step for step in steps if len(step.state.legal_actions()) == 1]
    assert all(step.values is None for step in forced)


def test_corpora_of_agents_that_do_not_search_are_unchanged(tmp_path: Path) -> None:
    settings = CorpusSettings(game="doudizhu", agents=("rules",) * 3, seed=3, record_format="paiju", rules={},
                              shard_size=2)
    generate(GenerateConfig(settings, 2, tmp_path), progress=False)
    assert all(KEY not in record for record in _records(tmp_path))


def _broken(record: dict, change: str) -> dict:
    record = copy.deepcopy(record)
    decision = record[KEY]["decisions"][0]
    if change == "missing":
        del record[KEY]
    elif change == "illegal":
        decision["values"].append(["3333", 1.0])
    elif change == "not first":
        decision["values"].reverse() if len(decision["values"]) > 1 else decision["values"].insert(0, ["", 0.0])
    elif change == "moved":
        decision["step"] = next(i for i, (seat, _) in enumerate(record["actions"]) if seat == 1)
    elif change == "beyond the game":
        decision["step"] = len(record["actions"])
    elif change == "not a number":
        decision["values"][0][1] = "high"
    elif change == "twice":
        record[KEY]["decisions"].append(copy.deepcopy(decision))
    return record


@pytest.mark.parametrize(("change", "message"), [
    ("missing", "no search values"), ("illegal", "not legal"), ("not first", "not the first candidate"),
    ("moved", "not legal|not the first"), ("beyond the game", "has"), ("not a number", "pairs"),
    ("twice", "new action index")])
def test_inconsistent_values_are_record_errors(search_record: dict, change: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        list(searched_steps(load_game("doudizhu"), _broken(search_record, change)))
