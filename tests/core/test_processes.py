"""Worker processes die with the process that started them (``paiju.core.processes``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from paiju.core.processes import die_with_parent

PARENT = textwrap.dedent("""
    import os, sys, time
    from functools import partial
    from pathlib import Path
    from paiju.eval.parallel import map_units

    def work(folder, chunk):
        (Path(folder) / str(os.getpid())).touch()
        time.sleep(120)
        return list(chunk)

    if __name__ == "__main__":
        map_units(partial(work, sys.argv[1]), 2, 2, progress=False)
""")


ACTORS_PARENT = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from paiju.train.backends import LocalPool

    class Actor:
        def __init__(self, folder):
            self.folder = folder

        def collect(self):
            (Path(self.folder) / str(os.getpid())).touch()
            time.sleep(120)

    if __name__ == "__main__":
        pool = LocalPool((Actor, [(sys.argv[1],), (sys.argv[1],)]))
        pool.submit(0)
        pool.submit(1)
        time.sleep(120)
""")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGKILL])
@pytest.mark.parametrize("parent_script", [PARENT, ACTORS_PARENT], ids=["evaluation", "training-actors"])
def test_workers_die_when_their_parent_is_killed(tmp_path: Path, signal_number: int, parent_script: str) -> None:
    script = tmp_path / "parent.py"
    script.write_text(parent_script)
    pids = tmp_path / "pids"
    pids.mkdir()
    parent = subprocess.Popen([sys.executable, str(script), str(pids)])
    try:
        deadline = time.monotonic() + 60
        while len(list(pids.iterdir())) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(path.name) for path in pids.iterdir()]
        assert len(workers) == 2 and all(_alive(pid) for pid in workers)
        parent.send_signal(signal_number)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in workers)
    finally:
        parent.kill()
        for path in pids.iterdir():
            if _alive(int(path.name)):
                os.kill(int(path.name), signal.SIGKILL)


def test_outside_a_multiprocessing_child_it_changes_nothing() -> None:
    die_with_parent()
    assert os.getppid() > 0
