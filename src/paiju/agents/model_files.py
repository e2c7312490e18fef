"""Model files named by agents: a file, a training folder (its ``model.pt``), or the file shipped with paiju when
none is named; each version of a file (its path and modification time) is read once per process."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from paiju.core.errors import PaijuError

MODEL_FILE = "model.pt"
"""The networks of a training folder."""
T = TypeVar("T")


def model_file(argument: str | Path | None, shipped: Path, what: str) -> Path:
    """The file ``argument`` names (a training folder: its ``model.pt``; empty: ``shipped``); ``PaijuError``
    ``no WHAT at FILE`` when it does not exist."""
    path = Path(argument) if argument else shipped
    file = path / MODEL_FILE if path.is_dir() else path
    if not file.is_file():
        raise PaijuError(f"no {what} at {file}")
    return file


def load_once(loader: Callable[[Path], T], file: Path) -> T:
    """``loader(file)``, remembered for this version of the file (``loader`` a module-level function)."""
    return _load(loader, str(file.resolve()), file.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _load(loader: Callable[[Path], Any], path: str, modified: int) -> Any:
    return loader(Path(path))


__all__ = ["MODEL_FILE", "load_once", "model_file"]
