"""docs/tutorial.md stays true: every command in its code blocks runs, in order, from a copy of the examples."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TUTORIAL = ROOT / "docs" / "tutorial.md"


def commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", TUTORIAL.read_text(), flags=re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_the_tutorial_has_its_four_steps():
    found = commands()
    assert [shlex.split(line)[:2] for line in found] == [
        ["paiju", "play"], ["paiju", "eval"], ["paiju", "train"], ["paiju", "plot"], ["paiju", "eval"],
        ["paiju", "eval"]]


def test_every_command_runs(tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for line in commands():
        done = subprocess.run(line, shell=True, cwd=tmp_path, env=environment, input="quit\n", text=True,
                              capture_output=True, timeout=420)
        assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert (tmp_path / "runs" / "tutorial" / "curve.png").is_file()
    evaluations = (tmp_path / "runs" / "tutorial" / "eval.csv").read_text().splitlines()
    assert len(evaluations) >= 2 and "rules" in evaluations[1]
