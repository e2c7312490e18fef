"""Short Deep Monte-Carlo runs on both backends: they learn, log, checkpoint, resume, and are reproducible."""

from __future__ import annotations

import csv
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models
from paiju.core.errors import PaijuError
from paiju.train.dmc import DMCConfig, DMCRun, learn, train
from paiju.train.dmc_selfplay import Samples
from paiju.train.loop import CHECKPOINT_FILE
from paiju.train.plot import plot_run

TINY = {"model": ModelConfig(hidden=(32, 32), lstm=16), "batch_size": 256, "chunk_frames": 128, "eval_minutes": 0,
        "minutes": 0, "log_seconds": 0}


def tiny(game: str, out: Path, **changes: object) -> DMCConfig:
    return DMCConfig(**{"game": game, "out": out, "seed": 7, "frames": 2048, **TINY, **changes})  # type: ignore[arg-type]


def parameters(folder: Path) -> dict[str, np.ndarray]:
    models = load_models(folder)
    return {f"{role}.{name}": value.numpy() for role, network in models.networks.items()
            for name, value in network.state_dict().items()}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_local_run_trains_logs_and_checkpoints(tmp_path: Path, game: str) -> None:
    result = train(tiny(game, tmp_path / "run"), tensorboard=True)
    folder = tmp_path / "run"
    assert result.samples >= 2048 and result.games > 0
    assert {CHECKPOINT_FILE, "model.pt", "log.csv", "tensorboard"} <= {p.name for p in folder.iterdir()}
    rows = list(csv.DictReader((folder / "log.csv").open()))
    assert rows and int(rows[-1]["frames"]) == result.samples
    fresh = DMCModels.fresh(game, "adp", TINY["model"], seed=7)
    trained = load_models(folder)
    role = next(iter(fresh.networks))
    assert not torch.equal(next(fresh.networks[role].parameters()), next(trained.networks[role].parameters()))
    assert plot_run(folder).is_file()


def test_a_run_shorter_than_the_evaluation_period_is_evaluated_at_its_end(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    train(tiny("doudizhu", folder, eval_minutes=60, eval_deals=2, eval_opponents=("random",)), tensorboard=False)
    rows = list(csv.DictReader((folder / "eval.csv").open()))
    assert [row["opponent"] for row in rows] == ["random"] and int(rows[0]["deals"]) == 2
    assert plot_run(folder).is_file()


def test_same_seed_same_weights_and_ray_matches_local(tmp_path: Path) -> None:
    for name, changes in (("a", {}), ("b", {}), ("ray", {"backend": "ray"}), ("other", {"seed": 8})):
        train(tiny("doudizhu", tmp_path / name, frames=1024, **changes), tensorboard=False)
    assert same(parameters(tmp_path / "a"), parameters(tmp_path / "b"))
    assert same(parameters(tmp_path / "a"), parameters(tmp_path / "ray"))
    assert not same(parameters(tmp_path / "a"), parameters(tmp_path / "other"))


def test_kill_9_then_resume_continues_from_the_last_checkpoint(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    command = [sys.executable, "-m", "paiju.cli", "train", "dmc", "--game", "doudizhu", "--out", str(folder),
               "--minutes", "5", "--hidden", "32,32", "--lstm", "16", "--batch-size", "256",
               "--checkpoint-minutes", "0.01", "--eval-minutes", "0", "--no-tensorboard"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (folder / CHECKPOINT_FILE).exists():
        time.sleep(0.2)
    time.sleep(2)  # let it write a few more checkpoints, then kill it wherever it is
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    saved = DMCRun.load(folder)
    assert saved.progress.frames > 0
    before = parameters(folder)
    resumed = train(DMCConfig(game="doudizhu", out=folder, frames=saved.progress.frames + 512, **{
        **TINY, "minutes": 0}), resume=True, tensorboard=False)
    assert resumed.samples >= saved.progress.frames + 512
    assert DMCRun.load(folder).progress.chunks > saved.progress.chunks
    assert not same(before, parameters(folder))
    assert load_models(folder).config == ModelConfig(hidden=(32, 32), lstm=16, features="paper")  # settings kept


def test_a_damaged_checkpoint_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / CHECKPOINT_FILE).write_bytes(b"\x00" * 100)
    with pytest.raises(PaijuError, match="cannot read a checkpoint"):
        DMCRun.load(tmp_path)
    with pytest.raises(PaijuError, match="no checkpoint"):
        DMCRun.load(tmp_path / "nowhere")


def test_clipped_target_stops_the_gradient_far_from_the_actors_value() -> None:
    """DanZero Eq. 1: with Q_learner / Q_actor outside [1 − λ, 1 + λ] the clipped term is constant."""
    torch.manual_seed(0)
    network = torch.nn.Linear(4, 1)

    class Flat(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = network

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.inner(x).squeeze(-1)

    config = tiny("guandan", Path("."), clip_lambda=0.1)
    batch = Samples(np.ones((3, 4), dtype=np.int8), {}, np.full(3, 5.0, np.float32),
                    np.full(3, 1000.0, dtype=np.float32))
    weights = network.weight.detach().clone()
    learn(Flat(), torch.optim.SGD(network.parameters(), lr=0.1), batch, config)
    assert torch.equal(weights, network.weight)
    batch.q_actor[:] = network(torch.ones(1, 4)).item()
    learn(Flat(), torch.optim.SGD(network.parameters(), lr=0.1), batch, config)
    assert not torch.equal(weights, network.weight)


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_a_teachers_chunk_holds_its_choices_among_every_legal_action(game: str) -> None:
    from paiju.train.dmc_selfplay import Imitation, SelfPlayWorker

    chunk = SelfPlayWorker(game, "adp", ModelConfig(hidden=(16,), lstm=8), 0.0, seed=4).collect(0, 40,
                                                                                               teacher="rules")
    assert chunk.frames >= 40
    for rows in chunk.samples.values():
        assert isinstance(rows, Imitation) and len(rows.state) == len(rows.counts) == len(rows.target)
        assert rows.counts.sum() == len(rows.actions) and (rows.chosen < rows.counts).all()
        assert rows.actions.shape[1] == (54 if game == "doudizhu" else 174)
        assert set(np.unique(rows.target)) <= set(range(-16, 17))
    again = SelfPlayWorker(game, "adp", ModelConfig(hidden=(16,), lstm=8), 0.0, seed=4).collect(0, 40,
                                                                                               teacher="rules")
    role = next(iter(chunk.samples))
    assert np.array_equal(chunk.samples[role].chosen, again.samples[role].chosen)


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_against_an_opponent_the_network_plays_one_side_and_only_its_decisions_are_frames(game: str) -> None:
    from paiju.train.dmc_selfplay import SelfPlayWorker

    def worker_against(opponent: str) -> SelfPlayWorker:
        return SelfPlayWorker(game, "adp", ModelConfig(hidden=(16,), lstm=8), 0.0, seed=4, opponent=opponent)

    worker = worker_against("random")
    sides = worker.adapter.sides
    seen = set()
    for seed in range(8):
        others = worker._others("", seed)
        assert tuple(others) in sides and {agent.name for agent in others.values()} == {"random"}
        steps, final = worker._play(seed, random.Random(seed), worker.adapter.fallback(seed), others, False)
        assert final.is_terminal() and steps
        assert {step.seat for step in steps} == set(range(worker.game.num_players)) - set(others)
        seen.add(tuple(others))
    assert seen == set(sides)  # both sides are played against the opponent
    assert worker._others("rules", 0).keys() == set(range(worker.game.num_players))  # a teacher plays every seat
    assert worker_against("")._others("", 0) == {}  # self-play
    chunk, again = worker.collect(0, 60), worker_against("random").collect(0, 60)
    role = next(iter(chunk.samples))
    assert chunk.frames >= 60 and np.array_equal(chunk.samples[role].x, again.samples[role].x)


def test_a_run_against_rules_trains_and_names_an_unknown_opponent(tmp_path: Path) -> None:
    result = train(tiny("guandan", tmp_path / "run", frames=512, opponent="rules"))
    assert result.samples >= 512 and result.games > 0
    with pytest.raises(PaijuError, match="nobody"):
        tiny("guandan", tmp_path / "bad", opponent="nobody")


def test_imitation_steps_raise_the_teachers_share_of_the_highest_q() -> None:
    from paiju.train.dmc import imitate
    from paiju.train.dmc_selfplay import SelfPlayWorker

    torch.manual_seed(0)
    rows = SelfPlayWorker("guandan", "adp", ModelConfig(hidden=(32,)), 0.0, seed=2).collect(0, 300,
                                                                                           teacher="rules")
    batch = rows.samples["player"]
    network = DMCModels.fresh("guandan", "adp", ModelConfig(hidden=(32,)), seed=1).networks["player"]
    optimizer = torch.optim.Adam(network.parameters(), lr=3e-3)
    config = tiny("guandan", Path("."))
    first_loss, first = imitate(network, optimizer, batch, config)
    for _ in range(60):
        loss, agree = imitate(network, optimizer, batch, config)
    assert loss < first_loss and agree > first + 0.1


def test_a_warm_started_run_imitates_then_plays_itself_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    train(tiny("guandan", folder, frames=1024, warm_games=2), tensorboard=False)
    rows = list(csv.DictReader((folder / "log.csv").open()))
    assert rows and any(row["loss_teacher_top1"] for row in rows)
    saved = DMCRun.load(folder)
    assert saved.progress.games >= 2 and load_models(folder).meta["teacher"] == "rules"
    train(tiny("guandan", folder, frames=2048, warm_games=2), resume=True, tensorboard=False)
    assert DMCRun.load(folder).progress.frames >= 2048
    with pytest.raises(PaijuError, match="unknown agent 'nobody'"):
        tiny("guandan", folder, warm_games=2, teacher="nobody")


def test_init_starts_from_a_model_of_the_runs_game_and_names_what_another_holds(tmp_path: Path) -> None:
    from paiju.agents.dmc.weights import save_models

    start = DMCModels.fresh("guandan", "adp", ModelConfig(hidden=(24,)), seed=5)
    save_models(start, tmp_path / "gd.pt")
    run = DMCRun.create(tiny("guandan", tmp_path / "run", init=str(tmp_path / "gd.pt")))
    assert run.config.model == ModelConfig(hidden=(24,), features="plus")
    assert torch.equal(run.models.networks["player"].mlp[0].weight, start.networks["player"].mlp[0].weight)
    save_models(DMCModels.fresh("doudizhu", "adp", ModelConfig(hidden=(8,), lstm=4), seed=5), tmp_path / "ddz.pt")
    with pytest.raises(PaijuError, match=r"ddz.pt holds doudizhu networks, not guandan"):
        DMCRun.create(tiny("guandan", tmp_path / "other", init=str(tmp_path / "ddz.pt")))


def test_features_and_device_are_checked_and_the_features_stored_by_name(tmp_path: Path) -> None:
    assert tiny("guandan", tmp_path / "a").model.features == "plus"  # the game's default, named
    assert tiny("guandan", tmp_path / "b", model=ModelConfig(features="paper")).model.features == "paper"
    assert tiny("doudizhu", tmp_path / "c").model.features == "paper"
    with pytest.raises(PaijuError, match="doudizhu DMC features must be one of paper, laizi, got 'plus'"):
        tiny("doudizhu", tmp_path / "d", model=ModelConfig(features="plus"))
    with pytest.raises(PaijuError, match="device must be cpu, cuda or auto, got 'tpu'"):
        tiny("guandan", tmp_path / "e", device="tpu")
    if not torch.cuda.is_available():
        with pytest.raises(PaijuError, match="no CUDA device is available"):
            tiny("guandan", tmp_path / "f", device="cuda")
    assert tiny("guandan", tmp_path / "g", device="auto").device == "auto"


def test_a_laizi_run_trains_on_laizi_games_and_is_evaluated_on_them(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    config = tiny("doudizhu", folder, model=ModelConfig(hidden=(8,), lstm=4, features="laizi"), eval_minutes=60,
                  eval_deals=2, eval_opponents=("random",))
    assert train(config, tensorboard=False).games > 0
    assert load_models(folder).config.features == "laizi"
    assert [row["opponent"] for row in csv.DictReader((folder / "eval.csv").open())] == ["random"]
