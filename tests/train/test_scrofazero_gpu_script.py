"""The GPU machine's ScrofaZero script runs end to end on CPUs in miniature: the network and its log out."""

import os
import subprocess
import sys
from pathlib import Path

from paiju.agents.scrofazero.model import ModelConfig, load
from paiju.train.scrofazero import ScrofaZeroRun

SCRIPT = Path(__file__).parents[2] / "scripts" / "train_scrofazero_gpu.sh"
SHIPPED = SCRIPT.parents[1] / "src" / "paiju" / "agents" / "scrofazero" / "weights" / "gongzhu.pt"


def run_script(tmp_path: Path, *arguments: str, **environment: str) -> subprocess.CompletedProcess[str]:
    variables = {**os.environ, "OUT": str(tmp_path / "out"), "RUNS": str(tmp_path / "runs"), "ACTORS": "1",
                 "MINUTES": "2", "DEVICE": "cpu", "PYTHON": sys.executable, **environment}
    return subprocess.run(["bash", str(SCRIPT), "--games", "2", "--batch-games", "2", *arguments],
                          cwd=SCRIPT.parents[1], env=variables, capture_output=True, text=True, timeout=300)


def test_the_script_trains_the_shipped_network_with_the_value_target(tmp_path: Path) -> None:
    done = run_script(tmp_path, VALUE_TARGET="mix")
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "out"
    assert sorted(path.name for path in out.iterdir()) == ["log.csv", "model.pt"]
    assert load(out / "model.pt").config == load(SHIPPED).config
    run = ScrofaZeroRun.load(tmp_path / "runs" / "selfplay")
    assert run.config.value_target == "mix" and run.config.init == "src/paiju/agents/scrofazero/weights/gongzhu.pt"
    assert run.progress.games == 2


def test_hidden_starts_fresh_weights_of_its_sizes_on_the_default_target_and_excludes_init(tmp_path: Path) -> None:
    done = run_script(tmp_path, HIDDEN="8,8,8,1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert load(tmp_path / "out" / "model.pt").config == ModelConfig(8, 8, 8, 1)
    config = ScrofaZeroRun.load(tmp_path / "runs" / "selfplay").config
    assert config.init == "" and config.value_target == "root"
    refused = run_script(tmp_path, HIDDEN="8,8,8,1", INIT=str(SHIPPED))
    assert refused.returncode != 0 and "not both" in refused.stderr
