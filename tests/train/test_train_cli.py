"""``paiju train dmc`` argument checks, ``paiju train export`` and ``paiju plot`` from the command line."""

from __future__ import annotations

from pathlib import Path

import torch
from typer.testing import CliRunner

from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models, save_models
from paiju.cli import app

runner = CliRunner()


def said(result) -> str:
    """What a failed command told the user (typer's usage errors, or the error ``paiju`` prints)."""
    return result.output + str(result.exception)


def test_a_run_needs_exactly_one_folder_and_valid_options(tmp_path: Path) -> None:
    both = runner.invoke(app, ["train", "dmc", "--out", str(tmp_path / "a"), "--resume", str(tmp_path / "b")])
    assert both.exit_code != 0 and "exactly one of --out" in said(both)
    widths = runner.invoke(app, ["train", "dmc", "--out", str(tmp_path / "a"), "--hidden", "256,x"])
    assert widths.exit_code != 0 and "widths" in said(widths)
    game = runner.invoke(app, ["train", "dmc", "--game", "gongzhu", "--out", str(tmp_path / "a")])
    assert game.exit_code != 0 and "no encoder for 'gongzhu'" in said(game)
    assert not (tmp_path / "a").exists()


def test_distil_refuses_bad_settings_before_starting(tmp_path: Path) -> None:
    for arguments, message in ((["--game", "gongzhu"], "no encoder for 'gongzhu'"),
                               (["--top", "1"], "top must be at least 2"),
                               (["--backend", "cloud"], "backend must be 'local' or 'ray'"),
                               (["--prior", "nobody"], "unknown agent 'nobody'")):
        result = runner.invoke(app, ["train", "distil", "--out", str(tmp_path / "d"), *arguments])
        assert result.exit_code != 0 and message in said(result), arguments
    assert not (tmp_path / "d").exists()


def test_export_writes_a_half_precision_copy_with_the_runs_metadata(tmp_path: Path) -> None:
    models = DMCModels.fresh("guandan", "adp", ModelConfig(hidden=(16,)), seed=1)
    models.meta = {"frames": 10, "seconds": 60.0, "seed": 1, "command": "paiju train dmc --game guandan"}
    save_models(models, tmp_path / "run" / "model.pt")
    result = runner.invoke(app, ["train", "export", str(tmp_path / "run"), str(tmp_path / "small.pt")])
    assert result.exit_code == 0, result.output
    assert "10 frames" in result.output
    small = torch.load(tmp_path / "small.pt", weights_only=True)
    assert all(value.dtype == torch.float16 for value in small["networks"]["player"].values())
    assert load_models(tmp_path / "small.pt").meta == models.meta


def test_plot_refuses_a_folder_without_logs(tmp_path: Path) -> None:
    result = runner.invoke(app, ["plot", str(tmp_path)])
    assert result.exit_code != 0 and "is it a training folder" in said(result)


def test_plot_compares_runs_on_one_figure(tmp_path: Path) -> None:
    header = "seconds,frames,opponent,deals,wp,wp_low,wp_high,adp,adp_low,adp_high,games\n"
    for name, adp in (("ptie", 0.5), ("no-ptie", -0.2)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "eval.csv").write_text(
            header + f"60,100,rules,10,0.5,0.4,0.6,{adp},-1,1,8\n120,200,rules,10,0.6,0.5,0.7,{adp},-1,1,16\n")
    out = tmp_path / "compare.png"
    result = runner.invoke(app, ["plot", str(tmp_path / "ptie"), str(tmp_path / "no-ptie"), "--out", str(out)])
    assert result.exit_code == 0, said(result)
    assert out.is_file() and out.stat().st_size > 1000
    (tmp_path / "none").mkdir()
    result = runner.invoke(app, ["plot", str(tmp_path / "ptie"), str(tmp_path / "none"), "--out", str(out)])
    assert result.exit_code != 0 and "no evaluation to compare" in said(result)
