"""Model files named by agents: a file, a training folder's model.pt, or the shipped file; read once a version."""

import os

import pytest

from paiju.agents.model_files import load_once, model_file
from paiju.core.errors import PaijuError

READS: list[str] = []


def read_text(path):
    READS.append(path.name)
    return path.read_text()


def test_names_resolve_to_files(tmp_path):
    shipped = tmp_path / "shipped.pt"
    shipped.write_text("s")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "model.pt").write_text("m")
    assert model_file("", shipped, "X model") == shipped
    assert model_file(str(tmp_path / "run"), shipped, "X model") == tmp_path / "run" / "model.pt"
    with pytest.raises(PaijuError, match=r"no X model at .*missing\.pt"):
        model_file(str(tmp_path / "missing.pt"), shipped, "X model")


def test_a_file_is_read_once_per_version(tmp_path):
    file = tmp_path / "a.pt"
    file.write_text("one")
    READS.clear()
    assert load_once(read_text, file) == "one" and load_once(read_text, file) == "one"
    assert READS == ["a.pt"]
    file.write_text("two")
    os.utime(file, ns=(file.stat().st_atime_ns, file.stat().st_mtime_ns + 1_000_000))
    assert load_once(read_text, file) == "two" and READS == ["a.pt", "a.pt"]
