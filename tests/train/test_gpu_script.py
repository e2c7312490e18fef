"""The GPU machine's training script runs end to end on CPUs in miniature: both stages, both networks out."""

import json
import os
import subprocess
import sys
from pathlib import Path

from paiju.agents.dmc.weights import load_models
from paiju.agents.perfectdou.model import load_models as load_perfectdou

SCRIPT = Path(__file__).parents[2] / "scripts" / "train_guandan_gpu.sh"


def test_the_gpu_script_writes_both_stages_networks(tmp_path: Path) -> None:
    environment = {**os.environ, "OUT": str(tmp_path / "out"), "RUNS": str(tmp_path / "runs"), "ACTORS": "1",
                   "WARM_MINUTES": "0.05", "SELFPLAY_MINUTES": "0.05", "DEVICE": "cpu", "PYTHON": sys.executable,
                   "OPPONENT": "rules", "LEARNING_RATE": "1e-4"}
    done = subprocess.run(["bash", str(SCRIPT)], cwd=SCRIPT.parents[1], env=environment, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "out"
    assert sorted(path.name for path in out.iterdir()) == ["selfplay-log.csv", "selfplay.pt", "warm-log.csv",
                                                           "warm.pt"]
    warm, selfplay = load_models(out / "warm.pt"), load_models(out / "selfplay.pt")
    assert warm.meta["teacher"] == "rules" and warm.config.features == "advice"
    assert selfplay.meta["config"]["init"] == str(tmp_path / "runs" / "warm" / "model.pt")
    assert selfplay.meta["config"]["opponent"] == "rules" and selfplay.meta["config"]["learning_rate"] == 1e-4


def test_the_expert_iteration_script_writes_a_search_corpus_and_its_imitator(tmp_path: Path) -> None:
    """Both stages in miniature: four search games with their candidates' values, then PerfectDou's networks
    imitating three of them (one held out)."""
    script = SCRIPT.parent / "exit_doudizhu_gpu.sh"
    out = tmp_path / "out"
    environment = {**os.environ, "OUT": str(out), "RUNS": str(tmp_path / "runs"), "WORKERS": "1", "GAMES": "4",
                   "SHARD": "2", "PASSES": "1", "PYTHON": sys.executable}
    done = subprocess.run(["bash", str(script)], cwd=SCRIPT.parents[1], env=environment, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert sorted(path.name for path in (out / "corpus").iterdir()) == ["corpus.json", "games-00000.jsonl.gz",
                                                                        "games-00001.jsonl.gz"]
    accuracy = json.loads((out / "exit-accuracy.json").read_text())
    assert accuracy["training_games"] == 3 and accuracy["games_imitated"] == 3 and accuracy["complete"]
    assert load_perfectdou(out / "exit.pt").meta["warm_records"] == str(out / "corpus")
