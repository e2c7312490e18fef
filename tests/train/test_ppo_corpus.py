"""PerfectDou's warm start from recorded games (``paiju train ppo --warm-records``): hard and soft targets from a
corpus of search games, the held-out agreement, reproducibility, and bad records reported and skipped."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from tests.train.test_ppo_training import SMALL, parameters, same

from paiju.agents.perfectdou.model import ModelConfig, PerfectDouModels, save_models
from paiju.core.errors import PaijuError
from paiju.records.annotations import KEY
from paiju.records.corpus import CorpusSettings
from paiju.records.generate import GenerateConfig, generate
from paiju.train.dmc_corpus import ACCURACY_FILE
from paiju.train.ppo import PPOConfig, PPORun, losses, train
from paiju.train.ppo_games import DouDizhuPPO
from paiju.train.ppo_selfplay import Steps, trajectory_steps

SEARCH = "search:sims=12,worlds=4,top=4"


def _records(folder: Path) -> list[dict]:
    return [json.loads(line) for shard in sorted(folder.glob("*.jsonl.gz"))
            for line in gzip.decompress(shard.read_bytes()).decode().splitlines()]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("search-corpus")
    settings = CorpusSettings(game="doudizhu", agents=(SEARCH,) * 3, seed=11, shard_size=3)
    generate(GenerateConfig(settings, 6, out), progress=False)
    return out


def tiny(out: Path, corpus: Path, **changes: object) -> PPOConfig:
    settings = {"out": out, "seed": 3, "minutes": 0, "games": 5, "actors": 1, "model": SMALL, "batch_games": 2,
                "epochs": 1, "eval_minutes": 0, "log_seconds": 0, "warm_records": corpus, "warm_holdout": 0.15,
                "warm_target": "soft", **changes}
    return PPOConfig(**settings)  # type: ignore[arg-type]


def test_soft_targets_spread_over_the_examined_candidates_by_value(corpus: Path) -> None:
    record = _records(corpus)[0]
    game = DouDizhuPPO(SMALL, 50.0)
    soft = [turn for trajectory in game.recorded(record, 0.25) for turn in trajectory.turns]
    hard = [turn for trajectory in game.recorded(record, None) for turn in trajectory.turns]
    assert [turn.choice for turn in soft] == [turn.choice for turn in hard]
    assert all("target" not in turn.candidates for turn in hard)
    spread = 0
    for turn in soft:
        target = turn.candidates["target"]
        assert target.sum() == pytest.approx(1.0, abs=1e-5)
        assert target[turn.choice] > 0  # the move played was examined
        spread += int((target > 0).sum() > 1)
    assert spread > 0  # some decisions weigh several candidates


def test_a_one_hot_soft_target_is_the_hard_loss(corpus: Path) -> None:
    config = tiny(Path("unused"), corpus)
    trajectory = DouDizhuPPO(SMALL, 50.0).recorded(_records(corpus)[0], None)[0]
    hard = trajectory_steps(trajectory, config.value_scale, 1.0)
    one_hot = np.zeros(int(hard.counts.sum()), dtype=np.float32)
    one_hot[np.cumsum(hard.counts) - hard.counts + hard.chosen] = 1.0
    soft = Steps(hard.inputs, {**hard.candidates, "target": one_hot},
                 *(getattr(hard, name) for name in Steps.names()))
    network = PerfectDouModels.fresh(SMALL, 1).networks[trajectory.role]
    with torch.no_grad():
        assert losses(network, soft, config, imitate=True)["policy"].item() == pytest.approx(
            losses(network, hard, config, imitate=True)["policy"].item(), rel=1e-5)


def test_a_warm_start_from_search_records_learns_reports_and_repeats(tmp_path: Path, corpus: Path) -> None:
    init = tmp_path / "init.pt"
    save_models(PerfectDouModels.fresh(SMALL, 5), init)
    first = train(tiny(tmp_path / "a", corpus, init=str(init)), tensorboard=False)
    assert first.games == 5  # the corpus's five training games, and the run stops at its bound
    report = json.loads((tmp_path / "a" / ACCURACY_FILE).read_text())
    assert report["training_games"] == 5 and report["held_out_games"] == 1 and report["complete"]
    assert set(report["held_out"]["types"]) <= {"landlord", "down", "up"}
    assert 0 <= report["held_out"]["top1"] <= 1 and report["held_out"]["decisions"] > 0
    again = train(tiny(tmp_path / "b", corpus, init=str(init)), tensorboard=False)
    assert again.games == 5
    assert same(parameters(tmp_path / "a"), parameters(tmp_path / "b"))
    hard = train(tiny(tmp_path / "c", corpus, init=str(init), warm_target="hard"), tensorboard=False)
    assert hard.games == 5
    assert not same(parameters(tmp_path / "a"), parameters(tmp_path / "c"))


def test_bad_records_are_reported_by_file_and_line_and_skipped(tmp_path: Path, corpus: Path) -> None:
    records = _records(corpus)
    broken = copy.deepcopy(records[1])
    broken[KEY]["decisions"][0]["values"].append(["3333", 1.0])
    missing = {key: value for key, value in records[2].items() if key != KEY}
    lines = [records[0], broken, missing, records[3]]
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "games.jsonl").write_text("".join(json.dumps(record) + "\n" for record in lines))
    config = tiny(tmp_path / "run", tmp_path / "corpus", games=2, warm_holdout=0.0)
    run = PPORun.create(config)
    assert run.corpus is not None and run.corpus.games == 2
    assert [problem.split(": ", 1)[0] for problem in run.corpus.skipped] == [
        f"{tmp_path / 'corpus' / 'games.jsonl'}:2", f"{tmp_path / 'corpus' / 'games.jsonl'}:3"]
    assert "not legal" in run.corpus.skipped[0] and "no search values" in run.corpus.skipped[1]
    hard = PPORun.create(tiny(tmp_path / "run2", tmp_path / "corpus", warm_target="hard", warm_holdout=0.0))
    assert hard.corpus is not None and hard.corpus.games == 4  # values are not read for hard targets


def test_warm_starts_from_records_other_than_research_doudizhu_are_refused(tmp_path: Path, corpus: Path) -> None:
    with pytest.raises(PaijuError, match="DouDizhu games only"):
        tiny(tmp_path / "gd", corpus, game="guandan", model=ModelConfig())
    with pytest.raises(PaijuError, match="warm_target"):
        tiny(tmp_path / "x", corpus, warm_target="softest")
