"""The DMC warm start from recorded games: rows and held-out accuracy, reproducibility, bad records reported by file
and line and skipped, corpora of another game or without games refused before training."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models, save_models
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.records.corpus import CorpusReader, CorpusSettings
from paiju.records.generate import GenerateConfig, generate
from paiju.train.dmc import DMCConfig, DMCRun, train
from paiju.train.dmc_corpus import ACCURACY_FILE, WarmCorpus, game_rows, held_out_accuracy

GUANDAN_TYPES = {"pass", "single", "pair", "trips", "three with two", "straight", "three pair", "two trips", "bomb",
                 "straight flush", "joker bomb"}
TINY = {"model": ModelConfig(hidden=(16,), lstm=8), "batch_size": 256, "chunk_frames": 128, "actors": 1,
        "eval_minutes": 0, "minutes": 0, "log_seconds": 0, "seed": 3}


def make_corpus(out: Path, game: str = "guandan", games: int = 4) -> Path:
    agents = ("rules",) * (4 if game == "guandan" else 3)
    generate(GenerateConfig(CorpusSettings(game=game, agents=agents, seed=5, shard_size=2), games, out),
             progress=False)
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_corpus(tmp_path_factory.mktemp("corpus") / "gd-rules")


def tiny(out: Path, corpus: Path, **changes: object) -> DMCConfig:
    return DMCConfig(**{"game": "guandan", "out": out, "warm_records": corpus, **TINY, **changes})  # type: ignore[arg-type]


def parameters(folder: Path) -> list[np.ndarray]:
    return [value.numpy() for value in load_models(folder).networks["player"].state_dict().values()]


def test_a_warm_start_from_records_writes_the_model_and_the_held_out_accuracy_by_play_type(tmp_path: Path,
                                                                                           corpus: Path) -> None:
    """From the command line: a warm start from the corpus, then self-play; an ``--init`` file of another game is
    refused naming what it holds, before the run's folder is made."""
    save_models(DMCModels.fresh("doudizhu", "adp", ModelConfig(hidden=(8,), lstm=4), seed=1), tmp_path / "ddz.pt")
    folder = tmp_path / "run"
    command = ["train", "dmc", "--game", "guandan", "--out", str(folder), "--warm-records", str(corpus),
               "--warm-holdout", "0.25", "--hidden", "16", "--batch-size", "256", "--chunk-frames", "128",
               "--actors", "1", "--eval-minutes", "0", "--no-tensorboard", "--seed", "3", "--minutes", "0",
               "--frames", "2400"]
    refused = CliRunner().invoke(app, [*command, "--init", str(tmp_path / "ddz.pt")])
    assert refused.exit_code != 0 and not folder.exists()
    assert "ddz.pt holds doudizhu networks, not guandan" in refused.output + str(refused.exception)
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output + str(result.exception)
    report = json.loads((folder / ACCURACY_FILE).read_text())
    assert (report["games"], report["training_games"], report["held_out_games"]) == (4, 3, 1)
    assert report["complete"] and report["games_imitated"] == 3 and report["skipped"] == 0
    held_out = report["held_out"]
    assert set(held_out["types"]) <= GUANDAN_TYPES and {"pass", "single", "pair"} <= set(held_out["types"])
    assert sum(row["decisions"] for row in held_out["types"].values()) == held_out["decisions"] > 100
    assert 0 < held_out["top1"] < 1 and held_out["forced"] > 0
    meta = load_models(folder).meta
    assert meta["warm_records"] == str(corpus) and meta["corpus_done"] and meta["corpus_games"] == 3
    assert meta["corpus_decisions"] == report["decisions_imitated"] > held_out["decisions"]
    assert DMCRun.load(folder).progress.games > 0  # self-play followed
    text = " ".join(result.output.split())
    assert "the first 3 to imitate, the last 1 held out" in text
    assert f"all {held_out['decisions']:,} {held_out['top1']:.3f}" in text


def test_warm_passes_imitate_the_training_games_that_many_times(tmp_path: Path, corpus: Path) -> None:
    once = sum(len(rows) for entry in WarmCorpus(corpus, "guandan", 0.25).training_games()
               for rows in game_rows(adapter_for("guandan"), entry, "adp").values())
    train(tiny(tmp_path / "run", corpus, warm_holdout=0.25, warm_passes=3, frames=3 * once + 1), tensorboard=False)
    progress = DMCRun.load(tmp_path / "run").progress
    assert progress.corpus_done and progress.corpus_games == 3 * 3 and progress.corpus_decisions == 3 * once
    with pytest.raises(PaijuError, match="warm_passes must be at least 1, got 0"):
        tiny(tmp_path / "zero", corpus, warm_passes=0, frames=1)


def test_the_rows_are_every_play_decision_with_the_recorded_action_and_the_games_returns(corpus: Path) -> None:
    adapter = adapter_for("guandan")
    entry = next(iter(CorpusReader(corpus, "guandan")))
    rows = game_rows(adapter, entry, "adp")["player"]
    plays = [value for _, value in entry.record["actions"] if value[0] not in ("tribute", "back")]
    assert len(rows) == len(plays) and (rows.chosen < rows.counts).all()
    assert rows.counts.sum() == len(rows.actions) and set(np.unique(rows.target)) <= set(range(-4, 5)) - {0}


def test_the_same_seed_gives_the_same_weights_and_a_resumed_warm_start_reads_on(tmp_path: Path,
                                                                                corpus: Path) -> None:
    """Two runs of one seed, one of them stopped and resumed within the warm start, end with the same weights."""
    for name, frames in (("stopped", 700), ("whole", 1500)):
        train(tiny(tmp_path / name, corpus, frames=frames), tensorboard=False)
    stopped = json.loads((tmp_path / "stopped" / ACCURACY_FILE).read_text())
    assert not stopped["complete"] and 0 < stopped["games_imitated"] < 3  # measured where the run stopped
    train(tiny(tmp_path / "stopped", corpus, frames=1500), resume=True, tensorboard=False)
    resumed, whole = DMCRun.load(tmp_path / "stopped").progress, DMCRun.load(tmp_path / "whole").progress
    assert (resumed.corpus_games, resumed.frames, resumed.steps) == (whole.corpus_games, whole.frames, whole.steps)
    assert all(np.array_equal(x, y) for x, y in zip(parameters(tmp_path / "stopped"), parameters(tmp_path / "whole"),
                                                    strict=True))


def damaged_corpus(folder: Path, corpus: Path) -> Path:
    """Good records among one of each kind of bad record, and a truncated gzip file."""
    good = [entry.record for entry in CorpusReader(corpus)]

    def changed(record: dict) -> dict:
        return json.loads(json.dumps(record))

    unknown_card = changed(good[1])
    unknown_card["deals"][0]["hands"][0][0] = "X2"
    illegal = changed(good[1])
    illegal["actions"][0][1] = ["PASS", "PASS", "PASS"]  # the leader passes
    tribute = changed(good[1])
    first = next(index for index, (_, value) in enumerate(tribute["actions"]) if value[0] == "tribute")
    tribute["actions"][first - 1], tribute["actions"][first] = tribute["actions"][first], tribute["actions"][first - 1]
    unfinished = changed(good[1])
    unfinished["actions"], unfinished["deals"] = unfinished["actions"][:40], unfinished["deals"][:1]
    del unfinished["result"]
    lines = [good[0], unknown_card, illegal, tribute, json.dumps(good[2])[:-20], unfinished, good[1]]
    folder.mkdir()
    (folder / "a.jsonl").write_text("\n".join(line if isinstance(line, str) else json.dumps(line)
                                              for line in lines) + "\n")
    shard = gzip.compress("".join(json.dumps(record) + "\n" for record in good).encode())
    (folder / "b.jsonl.gz").write_bytes(shard[: len(shard) // 2])
    return folder


def test_bad_records_are_reported_by_file_and_line_and_skipped(tmp_path: Path, corpus: Path) -> None:
    folder = damaged_corpus(tmp_path / "damaged", corpus)
    a, b = folder / "a.jsonl", folder / "b.jsonl.gz"
    warm = WarmCorpus(folder, "guandan", 0.05)
    problems = warm.skipped
    assert [problem.split(": ", 1)[0] for problem in problems] == [f"{a}:{line}" for line in (2, 3, 4, 5, 6)] + [str(b)]
    assert "unknown card 'X2'" in problems[0] and "may not pass" in problems[1]
    assert "tribute" in problems[2] and "out of turn" in problems[2] and "not JSON" in problems[3]
    assert "stops before its end" in problems[4] and "truncated" in problems[5]
    before_damage = len(list(CorpusReader(b)))
    assert before_damage >= 1 and warm.games == 2 + before_damage  # a.jsonl:1 and :7, b.jsonl.gz's first lines
    console = Console(file=io.StringIO(), width=300)
    train(tiny(tmp_path / "run", folder, frames=256), console=console, tensorboard=False)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert all(f"warning: skipped {problem}" in text for problem in problems)
    assert f"{warm.games} guandan games (6 records skipped)" in text
    report = json.loads((tmp_path / "run" / ACCURACY_FILE).read_text())
    assert report["skipped"] == 6 and report["skipped_records"] == problems and report["games"] == warm.games


def test_a_corpus_of_another_game_or_without_games_is_refused_before_training(tmp_path: Path) -> None:
    doudizhu = make_corpus(tmp_path / "ddz", "doudizhu", games=2)
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "games.jsonl").write_text(json.dumps(next(iter(CorpusReader(doudizhu))).record) + "\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "games.jsonl").write_text("")
    for path, message in ((doudizhu, "is a corpus of doudizhu games, not guandan"),
                          (loose, r"holds no guandan game to warm-start from: 1 records skipped \(the first: "
                                  r".*games.jsonl:1: a doudizhu record, not guandan\)"),
                          (empty, "holds no guandan game to warm-start from: 0 records skipped"),
                          (tmp_path / "nothing", "no such file or folder")):
        with pytest.raises(PaijuError, match=message):
            train(tiny(tmp_path / "run", path, frames=256), tensorboard=False)
        assert not (tmp_path / "run").exists()
    one = make_corpus(tmp_path / "one", games=1)
    with pytest.raises(PaijuError, match=r"1 good guandan games, all held out by warm_holdout 0\.05"):
        train(tiny(tmp_path / "run", one, frames=256), tensorboard=False)
    for changes, message in (({"warm_holdout": 1.0}, r"warm_holdout is a share .* in \[0, 1\), got 1.0"),
                             ({"warm_games": 4}, "a teacher's games .* or recorded ones .*, not both")):
        with pytest.raises(PaijuError, match=message):
            tiny(tmp_path / "run", one, frames=256, **changes)


def test_a_doudizhu_corpus_gives_each_positions_rows_and_categories(tmp_path: Path) -> None:
    doudizhu = WarmCorpus(make_corpus(tmp_path / "ddz", "doudizhu", games=3), "doudizhu", 0.34)
    assert (doudizhu.training, doudizhu.held_out) == (1, 2)
    adapter = adapter_for("doudizhu")
    rows = game_rows(adapter, next(doudizhu.training_games()), "adp")
    assert set(rows) == {"landlord", "down", "up"} and all(set(found.context) == {"z"} for found in rows.values())
    accuracy = held_out_accuracy(doudizhu, adapter, "adp", lambda role, found: 1.0 if role == "landlord" else 0.0)
    assert accuracy.decisions > 0 and {"pass", "solo"} <= set(accuracy.types)
    assert 0 < accuracy.top1 < 1  # the landlord's decisions are hits, the peasants' misses
