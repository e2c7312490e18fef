"""``paiju records generate``: seeded corpora, the same bytes for any workers and interruptions, resumable."""

import gzip
import json
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.eval.parallel import Backend
from paiju.records.corpus import CorpusReader, CorpusSettings
from paiju.records.generate import GenerateConfig, generate

runner = CliRunner()


def make(out: Path, games: int = 10, game: str = "doudizhu", agents: tuple[str, ...] = ("random",) * 3,
         workers: int = 1, backend: Backend = "local", **options) -> list[int]:
    settings = CorpusSettings(game=game, agents=agents, seed=7, shard_size=options.pop("shard_size", 5), **options)
    return generate(GenerateConfig(settings, games, out, workers, backend), progress=False)


def shard_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("games-*"))}


def test_same_seed_same_bytes_for_any_workers(tmp_path):
    assert make(tmp_path / "one", workers=1) == [0, 1]
    make(tmp_path / "two", workers=2)
    assert shard_bytes(tmp_path / "one") == shard_bytes(tmp_path / "two")
    assert list(shard_bytes(tmp_path / "one")) == ["games-00000.jsonl.gz", "games-00001.jsonl.gz"]
    mode = stat.S_IMODE((tmp_path / "one" / "games-00000.jsonl.gz").stat().st_mode)
    assert mode == 0o644 and stat.S_IMODE((tmp_path / "one" / "corpus.json").stat().st_mode) == 0o644


def test_ray_tasks_write_the_same_bytes(tmp_path, local_ray):
    make(tmp_path / "here", games=15, agents=("rules", "random", "rules"))
    assert make(tmp_path / "ray", games=15, agents=("rules", "random", "rules"), workers=2, backend="ray") == [0, 1, 2]
    assert shard_bytes(tmp_path / "here") == shard_bytes(tmp_path / "ray") and len(shard_bytes(tmp_path / "ray")) == 3


def test_resume_writes_only_the_missing_shard(tmp_path):
    out = tmp_path / "corpus"
    make(out, games=15, agents=("rules", "random", "rules"))
    before = shard_bytes(out)
    (out / "games-00001.jsonl.gz").unlink()
    assert make(out, games=15, agents=("rules", "random", "rules")) == [1]
    assert shard_bytes(out) == before
    assert make(out, games=15, agents=("rules", "random", "rules")) == []


def test_uneven_count_makes_a_smaller_last_shard_that_extending_rewrites(tmp_path):
    make(tmp_path / "whole", games=15)
    uneven = tmp_path / "uneven"
    assert make(uneven, games=12) == [0, 1, 2]
    with gzip.open(uneven / "games-00002.jsonl.gz", "rt") as stream:
        assert len(stream.readlines()) == 2
    first_two = shard_bytes(uneven)
    assert make(uneven, games=15) == [2]
    assert shard_bytes(uneven) == shard_bytes(tmp_path / "whole")
    assert {name: first_two[name] for name in ("games-00000.jsonl.gz", "games-00001.jsonl.gz")} == \
        {name: shard_bytes(uneven)[name] for name in ("games-00000.jsonl.gz", "games-00001.jsonl.gz")}
    assert make(uneven, games=11) == []  # a corpus holding more games than asked is kept as it is


@pytest.mark.parametrize(("game", "agents"), [("guandan", ("random",) * 4), ("gongzhu", ("random", "mr-greed") * 2)])
def test_other_games(tmp_path, game, agents):
    make(tmp_path, games=4 if game == "guandan" else 10, game=game, agents=agents, shard_size=2)
    reader = CorpusReader(tmp_path)
    games = list(reader)
    assert reader.games == len(games) == (4 if game == "guandan" else 10) and reader.skipped == []
    assert all(item.record["game"] == game and item.state.is_terminal() for item in games)


def test_full_mode_records_bidding(tmp_path):
    make(tmp_path, games=5, rules={"mode": "full"})
    games = list(CorpusReader(tmp_path))
    assert len(games) == 5
    assert all(game.record["rules"]["mode"] == "full" and isinstance(game.record["actions"][0][1], int)
               for game in games)


def test_errors_name_the_problem(tmp_path):
    with pytest.raises(PaijuError, match="unknown agent 'nobody'"):
        make(tmp_path / "a", agents=("random", "nobody", "random"))
    with pytest.raises(PaijuError, match="unknown game"):
        make(tmp_path / "b", game="chess")
    with pytest.raises(PaijuError, match="DouDizhu games only"):
        make(tmp_path / "c", game="guandan", agents=("random",) * 4, record_format="deeprocket")
    make(tmp_path / "d", games=5)
    with pytest.raises(PaijuError, match="other settings"):
        make(tmp_path / "d", games=5, agents=("rules",) * 3)
    with pytest.raises(PaijuError, match="unknown backend 'cloud'"):
        make(tmp_path / "e", backend="cloud")  # type: ignore[arg-type]
    assert not (tmp_path / "a").exists() and not (tmp_path / "e").exists()


def test_cli_generates_and_prints_the_summary(tmp_path):
    out = tmp_path / "corpus"
    result = runner.invoke(app, ["records", "generate", "--game", "gongzhu", "--agents", "random", "--games", "8",
                                 "--shard-size", "5", "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "2 shards written" in result.output and "follow suit" in result.output and "lead" in result.output
    assert json.loads((out / "corpus.json").read_text())["agents"] == ["random"] * 4
    again = runner.invoke(app, ["records", "generate", "--game", "gongzhu", "--agents", "random", "--games", "8",
                                "--shard-size", "5", "--out", str(out), "--seed", "3"])
    assert "0 shards written" in again.output and "complete" in again.output
    bad = runner.invoke(app, ["records", "generate", "--game", "guandan", "--agents", "random", "--games", "2",
                              "--out", str(tmp_path / "x"), "--format", "deeprocket"])
    assert isinstance(bad.exception, PaijuError) and "DouDizhu games only" in str(bad.exception)
