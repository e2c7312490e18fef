"""``CorpusReader``: any corpus read record by record, bad records reported with file and line and skipped."""

import gzip
import json
from pathlib import Path

import pytest

from paiju.core.errors import PaijuError
from paiju.records.corpus import CorpusReader, CorpusSettings
from paiju.records.generate import GenerateConfig, generate

DATA = Path(__file__).resolve().parents[1] / "data"


def make(out: Path, games: int = 6, record_format: str = "paiju", game: str = "doudizhu", **options) -> Path:
    agents = ("random",) * (3 if game == "doudizhu" else 4)
    settings = CorpusSettings(game=game, agents=agents, seed=11, record_format=record_format, shard_size=3, **options)
    generate(GenerateConfig(settings, games, out), progress=False)
    return out


def records(folder: Path) -> list[dict]:
    return [game.record for game in CorpusReader(folder)]


def test_corrupt_records_are_reported_with_file_and_line_and_skipped(tmp_path):
    good = records(make(tmp_path / "corpus"))
    other = records(make(tmp_path / "guandan", games=1, game="guandan"))[0]
    bad_card = json.loads(json.dumps(good[1]))
    bad_card["deals"][0]["hands"][0] = "X" + bad_card["deals"][0]["hands"][0][1:]
    illegal = json.loads(json.dumps(good[2]))
    illegal["actions"][0][1] = "BR" if illegal["actions"][0][1] != "BR" else "3"
    lines = [json.dumps(good[0]), json.dumps(bad_card), json.dumps(illegal), json.dumps(good[3])[:-20],
             json.dumps(other), "", json.dumps(good[4])]
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.jsonl").write_text("\n".join(lines) + "\n")
    shard = gzip.compress("".join(json.dumps(record) + "\n" for record in good).encode())
    (folder / "b.jsonl.gz").write_bytes(shard[: len(shard) // 2])
    (folder / "c.json").write_text(json.dumps(good[5]))
    (folder / ".hidden.jsonl").write_text("not json\n")
    (folder / "notes.md").write_text("not a record")
    reader = CorpusReader(folder, "doudizhu")
    games = list(reader)
    assert [path.name for path in reader.files] == ["a.jsonl", "b.jsonl.gz", "c.json"]
    assert [game.source for game in games[:2]] == [f"{folder / 'a.jsonl'}:1", f"{folder / 'a.jsonl'}:7"]
    assert games[-1].source == f"{folder / 'c.json'}:1" and games[-1].record == good[5]
    assert reader.games == len(games)
    messages = reader.skipped
    a = folder / "a.jsonl"
    assert messages[0].startswith(f"{a}:2: ") and "'X'" in messages[0]
    assert messages[1].startswith(f"{a}:3: ") and "does not replay" in messages[1]
    assert messages[2].startswith(f"{a}:4: ") and "not JSON" in messages[2]
    assert messages[3] == f"{a}:5: a guandan record, not doudizhu"
    assert any(message.startswith(f"{folder / 'b.jsonl.gz'}: unreadable after line") for message in messages)
    assert len([m for m in messages if m.startswith(str(a))]) == 4
    assert reader.games + len(messages) >= 7  # every line of a.jsonl and c.json is either a game or a message


def test_deeprocket_corpus_reads_as_the_same_games_as_paiju(tmp_path):
    paiju = records(make(tmp_path / "paiju"))
    deeprocket_folder = make(tmp_path / "deeprocket", record_format="deeprocket")
    with gzip.open(deeprocket_folder / "games-00000.txt.gz", "rt") as stream:
        lines = stream.read().splitlines()
    assert len(lines) == 6 and lines[0].startswith("Cards: ") and lines[1].startswith("Game process: ")
    deeprocket = records(deeprocket_folder)
    assert [(r["deals"], r["actions"], r["result"]) for r in deeprocket] == \
        [(r["deals"], r["actions"], r["result"]) for r in paiju]


def test_deeprocket_text_files_one_or_many_games(tmp_path):
    example = (DATA / "deeprocket_example.txt").read_text().strip()
    single = next(iter(CorpusReader(DATA / "deeprocket_example.txt")))
    assert single.source.endswith("deeprocket_example.txt:1") and single.state.is_terminal()
    one_line = example.replace("\n", " ")
    bad = example.replace("4456777889", "X456777889", 1)
    (tmp_path / "many.txt").write_text(f"Games of the paper\n\n{example}\n{one_line}\n{bad}\n{example}")
    reader = CorpusReader(tmp_path / "many.txt")
    games = list(reader)
    assert [game.source.rsplit(":", 1)[1] for game in games] == ["3", "5", "8"]
    assert all(game.record["actions"] == single.record["actions"] for game in games)
    assert len(reader.skipped) == 1 and reader.skipped[0].startswith(f"{tmp_path / 'many.txt'}:6: ")
    assert "unknown card 'X'" in reader.skipped[0]
    wrong_game = CorpusReader(tmp_path / "many.txt", "gongzhu")
    assert list(wrong_game) == [] and len(wrong_game.skipped) == 4


def test_paths_that_are_not_corpora_are_errors(tmp_path):
    with pytest.raises(PaijuError, match="no such file or folder"):
        CorpusReader(tmp_path / "missing")
    with pytest.raises(PaijuError, match="no record files"):
        CorpusReader(tmp_path)
    (tmp_path / "x.csv").write_text("")
    with pytest.raises(PaijuError, match="not a record file"):
        CorpusReader(tmp_path / "x.csv")
    with pytest.raises(PaijuError, match="is a corpus of doudizhu games, not gongzhu"):
        CorpusReader(make(tmp_path / "corpus", games=3), "gongzhu")


def test_full_mode_deeprocket_shard_replays_with_its_corpus_rules(tmp_path):
    folder = make(tmp_path, games=3, record_format="deeprocket", rules={"mode": "full"})
    for path in (folder, folder / "games-00000.txt.gz"):
        reader = CorpusReader(path)
        games = list(reader)
        assert reader.skipped == [] and len(games) == 3
        assert all(game.record["rules"]["mode"] == "full" and game.state.is_terminal() for game in games)
