"""The shared training runtime: settings, the registry, the common command-line options, and a run stopped at any
moment — its final evaluation included — resuming from its last checkpoint."""

from __future__ import annotations

import inspect
import os
import signal
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path

import pytest

from paiju.agents.dmc.models import ModelConfig
from paiju.core.errors import PaijuError
from paiju.train.cli import ACTORS, BATCHES, COMMON, train_app
from paiju.train.dmc import DMCConfig, DMCRun, train
from paiju.train.loop import (
    CHECKPOINT_FILE,
    MIN_FINAL_DEALS,
    TRAINERS,
    RunSettings,
    checkpoint_format,
    final_deals,
    require_format,
    run_class,
)
from paiju.train.scrofazero import ScrofaZeroConfig


def test_every_trainer_is_registered_under_its_name() -> None:
    for name in TRAINERS:
        run = run_class(name)
        assert run.TRAINER == name == run.SETTINGS.TRAINER
        assert issubclass(run.SETTINGS, RunSettings) and run.SETTINGS.BOUND in {f.name for f in fields(run.SETTINGS)}
        assert run.SETTINGS.GAMES, name
    with pytest.raises(PaijuError, match="unknown trainer 'dqn'; known: dmc, ppo, scrofazero, distil, sl"):
        run_class("dqn")


def test_each_trainer_refuses_a_game_it_has_no_encoder_for_naming_those_it_has(tmp_path: Path) -> None:
    refusals = {"dmc": ("gongzhu", "doudizhu, guandan"), "ppo": ("gongzhu", "doudizhu, guandan"),
                "scrofazero": ("doudizhu", "gongzhu"), "distil": ("gongzhu", "doudizhu, guandan"),
                "sl": ("gongzhu", "doudizhu")}
    for name, (game, known) in refusals.items():
        with pytest.raises(PaijuError, match=f"paiju train {name} has no encoder for '{game}'; it trains on: {known}"):
            run_class(name).SETTINGS(out=tmp_path, game=game, minutes=1)


def test_the_command_line_defaults_are_the_settings_defaults() -> None:
    """The common options' defaults given to each ``paiju train`` command are its settings' own."""
    commands = {command.name: command.callback for command in train_app.registered_commands}
    common = {name for group in (COMMON, ACTORS, BATCHES) for name, *_ in group}
    for name in TRAINERS:
        settings = {f.name: f.default for f in fields(run_class(name).SETTINGS)}
        parameters = inspect.signature(commands[name]).parameters
        for option in common & set(parameters):
            field = "eval_opponents" if option == "eval_against" else option
            if field in settings and option not in ("game", "out"):
                default = settings[field]
                assert parameters[option].default == (",".join(default) if option == "eval_against" else default), \
                    (name, option)
        assert parameters["game"].default in run_class(name).SETTINGS.GAMES
        assert parameters[run_class(name).SETTINGS.BOUND].default is None, "not given: the run's own on resume"


def test_settings_go_to_json_and_back(tmp_path: Path) -> None:
    config = ScrofaZeroConfig(out=tmp_path, games=3, betas=(0.5, 0.9), eval_opponents=("mr-greed", "random"),
                              address="head:6379")
    assert ScrofaZeroConfig.from_json(config.to_json()) == config
    older = {key: value for key, value in config.to_json().items() if key not in ("final_eval", "game")}
    assert ScrofaZeroConfig.from_json({**older, "retired": 1}) == config, "older checkpoints' settings still load"


def test_final_evaluations_are_proportionate_to_the_time_trained() -> None:
    config = DMCConfig(game="doudizhu", out=Path("x"), eval_minutes=10, eval_deals=200)
    assert final_deals(config, 60) == 20
    assert final_deals(config, 1) == MIN_FINAL_DEALS
    assert final_deals(config, 3600) == 200
    assert final_deals(DMCConfig(game="doudizhu", out=Path("x"), eval_deals=2), 1) == 2


def test_checkpoints_are_refused_by_what_they_hold(tmp_path: Path) -> None:
    require_format({"format": checkpoint_format("sl")}, "sl", tmp_path)
    with pytest.raises(PaijuError, match=r"holds a `paiju train distil` run.*paiju train distil --resume"):
        require_format({"format": "paiju-distil-checkpoint-1"}, "sl", tmp_path / CHECKPOINT_FILE)
    with pytest.raises(PaijuError, match="not a paiju training checkpoint"):
        require_format([1, 2], "dmc", tmp_path)


TINY = ["--hidden", "32,32", "--lstm", "16", "--batch-size", "256", "--chunk-frames", "128", "--no-tensorboard"]


def start(folder: Path, *arguments: str) -> subprocess.Popen[str]:
    """``paiju train dmc`` in a session of its own (a terminal's Ctrl-C reaches the whole session)."""
    command = [sys.executable, "-m", "paiju.cli", "train", "dmc", *arguments, *TINY]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)


def wait_for_final_evaluation(process: subprocess.Popen[str]) -> str:
    """The output up to the line that says the final evaluation started."""
    assert process.stdout is not None
    lines = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line, f"exited before its final evaluation: {''.join(lines)}"
        lines.append(line)
        if line.startswith("evaluating the final networks"):
            return "".join(lines)
    raise AssertionError(f"no final evaluation in 240 s: {''.join(lines)}")


def test_a_run_stopped_during_its_final_evaluation_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    """The checkpoint comes before the final evaluation: Ctrl-C there ends the run in one line, and even kill -9
    there loses nothing."""
    folder = tmp_path / "run"
    slow = ["--minutes", "0", "--eval-minutes", "60", "--eval-deals", "400", "--eval-against", "search"]
    process = start(folder, "--out", str(folder), "--frames", "512", *slow)
    wait_for_final_evaluation(process)
    assert DMCRun.load(folder).progress.frames >= 512, "checkpointed before evaluating"
    os.killpg(process.pid, signal.SIGINT)
    output, errors = process.communicate(timeout=120)
    assert process.returncode == 0, errors
    assert "final evaluation stopped; the run is saved" in output and "Traceback" not in output + errors
    assert not (folder / "eval.csv").exists()

    process = start(folder, "--resume", str(folder), "--frames", "1024", *slow)
    wait_for_final_evaluation(process)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    saved = DMCRun.load(folder)
    assert saved.progress.frames >= 1024 and len(saved.progress.commands) == 2

    config = DMCConfig(game="doudizhu", out=folder, frames=1536, minutes=0, eval_minutes=0,
                       model=ModelConfig(hidden=(8,)))
    result = train(config, resume=True, tensorboard=False)
    assert result.samples >= 1536
    assert DMCRun.load(folder).config.model == ModelConfig(hidden=(32, 32), lstm=16, features="paper"), "kept"


def test_a_resume_keeps_the_runs_bound_unless_given_and_a_new_run_needs_a_new_folder(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    settings = {"game": "guandan", "out": folder, "minutes": 0, "eval_minutes": 0, "batch_size": 256,
                "chunk_frames": 128, "model": ModelConfig(hidden=(16,))}
    first = train(DMCConfig(frames=256, **settings), tensorboard=False)
    again = train(DMCConfig(frames=4096, **settings), resume=True, keep_bound=True, tensorboard=False)
    assert again.samples == first.samples, "its own bound of 256 frames was already reached"
    with pytest.raises(PaijuError, match="already holds a run: pass --resume"):
        train(DMCConfig(frames=256, **settings), tensorboard=False)


def test_a_run_that_ends_before_its_first_batch_still_writes_its_log_row(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    result = train(DMCConfig(game="guandan", out=folder, minutes=1e-6, eval_minutes=0, batch_size=256,
                             chunk_frames=128, model=ModelConfig(hidden=(16,))), tensorboard=False)
    assert result.samples == 0
    lines = (folder / "log.csv").read_text().splitlines()
    assert lines[0].startswith("seconds,frames") and len(lines) == 2
