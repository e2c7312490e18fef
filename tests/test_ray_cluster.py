"""Joining a Ray cluster that is not there fails fast, in one line naming its address, for every command."""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.ray_cluster import start_ray
from paiju.train.backends import start_pool

NOWHERE = "127.0.0.1:1"
"""A port nothing listens on."""
MESSAGE = f"cannot reach the Ray cluster at {NOWHERE}: "


def test_joining_nowhere_is_refused_and_leaves_ray_stopped() -> None:
    import ray

    with pytest.raises(PaijuError, match=f"^{MESSAGE}"):
        start_ray(NOWHERE, 1)
    with pytest.raises(PaijuError, match=f"^{MESSAGE}"):
        start_pool("ray", NOWHERE, (object, [()]))
    assert not ray.is_initialized()


def test_records_generate_writes_nothing_when_the_cluster_is_unreachable(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["records", "generate", "--game", "gongzhu", "--agents", "random", "--games",
                                      "2", "--out", str(tmp_path / "corpus"), "--backend", "ray", "--address",
                                      NOWHERE])
    assert isinstance(result.exception, PaijuError) and str(result.exception).startswith(MESSAGE), result.output
    assert not (tmp_path / "corpus").exists()


def test_an_evaluation_on_an_unreachable_cluster_fails_in_one_line_within_seconds() -> None:
    command = [sys.executable, "-m", "paiju.cli", "eval", "doudizhu", "rules", "random", "--decks", "2",
               "--backend", "ray", "--address", NOWHERE]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30
    assert result.returncode == 2, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {MESSAGE}"), result.stdout
    assert "Traceback" not in result.stderr
