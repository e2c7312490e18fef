"""Supervised DeepRocket training: samples cut from records, the training run, its report, resume and bad input."""

import gzip
import json

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from paiju.agents import make_agent
from paiju.agents.deeprocket.labels import LABEL_COUNT, main_label
from paiju.agents.deeprocket.model import ModelConfig, load_model
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.games.doudizhu import DouDizhu
from paiju.records.corpus import CorpusSettings
from paiju.records.generate import GenerateConfig, generate
from paiju.train.sl import SLConfig, SLRun, train
from paiju.train.sl_data import _Builder, file_samples, game_samples, pack_planes, unpack_bits

TINY = ModelConfig(layers=1, filters=4, kicker_layers=1, kicker_filters=4, head=2)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpus")
    settings = CorpusSettings(game="doudizhu", agents=("rules",) * 3, seed=4, shard_size=10)
    generate(GenerateConfig(settings, 30, folder), progress=False)
    return folder


def first_lines(corpus) -> list[str]:
    """The records of the corpus's first shard."""
    return gzip.decompress(sorted(corpus.glob("games-*.jsonl.gz"))[0].read_bytes()).decode().splitlines()


def config(corpus, out, **changes):
    return SLConfig(**{"records": corpus, "out": out, "epochs": 0.5, "batch": 16, "eval_every": 5,
                       "device": "cpu", "model": TINY, **changes})


def report_of(settings: SLConfig, **options) -> dict:
    """Train, and return the run's report."""
    train(settings, tensorboard=False, **options)
    return json.loads((settings.out / "report.json").read_text())


def test_pack_and_unpack_are_inverse():
    planes = np.random.default_rng(0).integers(0, 2, (5, 21, 19, 15), dtype=np.uint8)
    assert np.array_equal(unpack_bits(torch.from_numpy(pack_planes(planes)), 15).numpy(), planes)
    mask = np.random.default_rng(1).integers(0, 2, (5, LABEL_COUNT), dtype=np.uint8)
    packed = np.packbits(mask, axis=-1, bitorder="little")
    assert np.array_equal(unpack_bits(torch.from_numpy(packed), LABEL_COUNT).numpy(), mask)


def test_samples_are_the_records_decisions(corpus):
    record = json.loads(first_lines(corpus)[0])
    policy, kicker = _Builder(), _Builder()
    game_samples(record, False, policy, kicker)
    state = DouDizhu().opening_state(record)
    expected_policy, expected_labels = 0, []
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        legal = state.legal_actions()
        if len({main_label(m) for m in legal}) > 1:
            expected_policy += 1
            expected_labels.append(main_label(action))
        state.apply(action, seat=seat)
    samples = policy.samples((21, 19, 15), LABEL_COUNT)
    assert len(samples) == expected_policy and list(samples.label) == expected_labels
    masks = unpack_bits(torch.from_numpy(samples.mask), LABEL_COUNT).numpy()
    assert all(masks[i, label] for i, label in enumerate(samples.label))
    assert all(masks[i].sum() >= 2 for i in range(len(samples)))


def test_held_out_games_are_every_tenth(corpus):
    part = file_samples(sorted(corpus.glob("games-*.jsonl.gz"))[0])
    assert part.games == 10 and part.skipped == []
    assert 0 < part.policy.held_out.sum() < len(part.policy)


def test_training_run_writes_model_logs_and_report(corpus, tmp_path):
    report = report_of(config(corpus, tmp_path / "run"))
    assert report["games"] == 30 and report["skipped"] == 0
    assert 0 <= report["policy"]["top1"] <= 1 and report["policy"]["samples"] > 0
    assert sum(part["samples"] for part in report["policy"]["by_category"].values()) == report["policy"]["samples"]
    for name in ("model.pt", "checkpoint.pt", "accuracy.csv", "accuracy.png", "report.json", "log.csv"):
        assert (tmp_path / "run" / name).is_file(), name
    agent = make_agent(f"deeprocket:{tmp_path / 'run'}", "doudizhu", 0)
    assert agent.nets.config == TINY
    with pytest.raises(PaijuError, match="already holds a run"):
        train(config(corpus, tmp_path / "run"), tensorboard=False)


def test_same_seed_same_networks_and_resume_continues(corpus, tmp_path):
    first = report_of(config(corpus, tmp_path / "a", seed=3))
    report_of(config(corpus, tmp_path / "b", seed=3))
    a, b = load_model(tmp_path / "a"), load_model(tmp_path / "b")
    assert all(torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values(), strict=True))
    again = report_of(config(corpus, tmp_path / "a", epochs=0.1), resume=True, keep_bound=True)
    assert again["steps"] == first["steps"]  # its own bound is reached: nothing more to do
    resumed = report_of(config(corpus, tmp_path / "a", epochs=1.0), resume=True)
    assert resumed["steps"] > first["steps"]
    assert SLRun.load(tmp_path / "a").config.epochs == 1.0


def test_corrupt_records_are_skipped_and_counted(corpus, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    good = first_lines(corpus)
    bad_card = good[1].replace('"hands":["', '"hands":["X', 1)
    illegal = json.loads(good[2])
    illegal["actions"][0][1] = "2222"
    (folder / "part.jsonl").write_text("\n".join([*good[:1], bad_card, json.dumps(illegal), "{not json",
                                                  *good[3:]]) + "\n")
    report = report_of(config(folder, tmp_path / "run"))
    assert report["skipped"] == 3 and report["games"] == len(good) - 2


def test_unusable_corpora_stop_with_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(PaijuError, match="no record files"):
        train(config(tmp_path / "empty", tmp_path / "run1"), tensorboard=False)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.jsonl").write_text("{broken\n[1, 2]\n")
    with pytest.raises(PaijuError, match="no usable DouDizhu decisions"):
        train(config(tmp_path / "bad", tmp_path / "run2"), tensorboard=False)


def test_cli_trains_and_prints_the_report(corpus, tmp_path):
    result = CliRunner().invoke(app, ["train", "sl", "--records", str(corpus), "--out", str(tmp_path / "run"),
                                      "--epochs", "0.3", "--batch", "16", "--layers", "1", "--filters", "4",
                                      "--kicker-layers", "1", "--kicker-filters", "4", "--device", "cpu",
                                      "--no-tensorboard", "--eval-every", "5"])
    assert result.exit_code == 0, result.output
    assert "DeepRocket accuracy on held-out games" in result.output
    result = CliRunner().invoke(app, ["train", "sl", "--out", str(tmp_path / "run2")])
    assert result.exit_code != 0 and "needs --records" in result.output + str(result.exception)
    assert not (tmp_path / "run2").exists()


def test_init_starts_from_a_model_file_and_keeps_its_sizes(corpus, tmp_path):
    report_of(config(corpus, tmp_path / "a", seed=5))
    started = load_model(tmp_path / "a")
    report = report_of(config(corpus, tmp_path / "b", init=str(tmp_path / "a"), model=ModelConfig(), epochs=0.2))
    assert report["model"] == TINY.to_json()
    trained = load_model(tmp_path / "b")
    pairs = zip(started.state_dict().values(), trained.state_dict().values(), strict=True)
    assert trained.config == TINY and any(not torch.equal(x, y) for x, y in pairs)
