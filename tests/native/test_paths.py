"""Both engine paths (``paiju.native``) play every game identically: legal lists, next states, payoffs and the
rule bots' decisions over more than 10^5 seeded random states per game (``paths.py``, one process per path)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from paiju import native

SCRIPT = Path(__file__).with_name("paths.py")
STATES = 100_000


def fingerprints(setting: str) -> list[str]:
    env = {**os.environ, "PAIJU_NATIVE": setting}
    run = subprocess.run([sys.executable, str(SCRIPT), str(STATES)], env=env, capture_output=True, text=True,
                         check=False, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout.splitlines()


@pytest.mark.skipif(not native.built() and os.environ.get("PAIJU_NATIVE") != "1",
                    reason="no compiled module is built here")
def test_compiled_and_reference_paths_play_alike():
    compiled, reference = fingerprints("1"), fingerprints("0")
    assert compiled[-1] == "path compiled" and reference[-1] == "path reference"
    assert len(compiled) == len(reference)
    for mine, theirs in zip(compiled[:-1], reference[:-1], strict=True):
        assert mine == theirs, f"the compiled path differs first in: {theirs.rsplit(' ', 1)[0]}"
