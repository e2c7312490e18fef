"""Choosing between compiled and reference functions (``paiju.native``)."""

import importlib
import subprocess
import sys

import pytest

from paiju import native


def reference(x: int) -> int:
    return x


@pytest.mark.parametrize("setting", ["auto", "0"])
def test_missing_compiled_module_falls_back_to_the_reference(monkeypatch, setting):
    monkeypatch.setattr(native, "_SETTING", setting)
    assert native.fast("paiju.no_such_module_fast", "f", reference) is reference


def test_forcing_the_compiled_path_names_the_missing_module(monkeypatch):
    monkeypatch.setattr(native, "_SETTING", "1")
    with pytest.raises(ImportError, match=r"paiju\.no_such_module_fast is not built"):
        native.fast("paiju.no_such_module_fast", "f", reference)


def test_forcing_the_reference_ignores_a_built_module(monkeypatch):
    monkeypatch.setattr(native, "_used", set())
    monkeypatch.setattr(native, "_SETTING", "0")
    assert native.fast("json", "dumps", reference) is reference
    monkeypatch.setattr(native, "_SETTING", "auto")
    assert native.fast("json", "dumps", reference) is importlib.import_module("json").dumps
    assert native.path() == "compiled"


def test_a_bad_setting_is_refused_at_import():
    run = subprocess.run([sys.executable, "-c", "import paiju.native"], env={"PAIJU_NATIVE": "yes"},
                         capture_output=True, text=True, check=False)
    assert run.returncode != 0
    assert "PAIJU_NATIVE must be 0 (reference Python), 1 (compiled) or auto, got 'yes'" in run.stderr


def test_built_lists_compiled_modules_by_dotted_name():
    for name in native.built():
        package, module = name.rsplit(".", 1)
        assert name.startswith("paiju.") and module.startswith("_") and module.endswith("_fast")
        importlib.import_module(f"{package}.{module[1:-len('_fast')]}")  # the reference, which binds it
        importlib.import_module(name)
