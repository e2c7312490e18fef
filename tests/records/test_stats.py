"""``paiju records stats``: a corpus's files, games, skipped records, actions and decisions by category."""

import json
from pathlib import Path

from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.records.corpus import CorpusReader, CorpusSettings
from paiju.records.generate import GenerateConfig, generate
from paiju.records.stats import summarize

runner = CliRunner()
DATA = Path(__file__).resolve().parents[1] / "data"


def make(out: Path, game: str, agents: tuple[str, ...], games: int, **options) -> Path:
    settings = CorpusSettings(game=game, agents=agents, seed=5, shard_size=5, **options)
    generate(GenerateConfig(settings, games, out), progress=False)
    return out


def test_doudizhu_counts_match_the_records(tmp_path):
    out = make(tmp_path, "doudizhu", ("rules", "random", "random"), 10, rules={"mode": "full"})
    summary = summarize(out)
    counts = summary.per_game["doudizhu"]
    actions = sum(len(game.record["actions"]) for game in CorpusReader(out))
    assert summary.games == counts.games == 10 and summary.files == 2 and summary.skipped == 0
    assert counts.actions == actions == sum(entry[0] for entry in counts.categories.values())
    assert 0 < counts.decisions < counts.actions
    assert {"pass", "solo"} <= set(counts.categories) and any(label.startswith("bid ") for label in counts.categories)
    assert all(decided <= taken for taken, decided in counts.categories.values())
    assert summary.manifest["agents"] == ["rules", "random", "random"]


def test_gongzhu_and_guandan_categories(tmp_path):
    gongzhu = summarize(make(tmp_path / "g", "gongzhu", ("random", "mr-greed") * 2, 6)).per_game["gongzhu"]
    assert gongzhu.categories["lead"][0] == 13 * 6
    assert set(gongzhu.categories) <= {"lead", "follow suit", "discard"} and gongzhu.actions == 52 * 6
    guandan = summarize(make(tmp_path / "d", "guandan", ("random",) * 4, 2)).per_game["guandan"]
    assert {"pass", "single"} <= set(guandan.categories)
    assert set(guandan.categories) <= {"pass", "single", "pair", "trips", "three with two", "straight", "three pair",
                                       "two trips", "bomb", "straight flush", "joker bomb", "tribute", "back"}


def test_cli_stats_table_json_and_errors(tmp_path):
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "paper.txt").write_text((DATA / "deeprocket_example.txt").read_text())
    (folder / "broken.jsonl").write_text('{"game": "doudizhu"\n')
    out = tmp_path / "summary.json"
    result = runner.invoke(app, ["records", "stats", str(folder), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "skipped records" in result.output and "broken.jsonl:1" in result.output and "solo chain" in result.output
    summary = json.loads(out.read_text())
    assert summary["games"] == 1 and summary["skipped"] == 1 and summary["files"] == 2
    assert summary["per_game"]["doudizhu"]["actions"] == 36 and summary["manifest"] is None
    missing = runner.invoke(app, ["records", "stats", str(tmp_path / "nowhere")])
    assert isinstance(missing.exception, PaijuError) and "no such file or folder" in str(missing.exception)
