"""Model files, shared by every network in paiju: where an agent's name points (a file, a training folder's
``model.pt``, or the file shipped with paiju when none is named), reading and checking a file, and writing one
atomically. Each version of a file (its path and modification time) is read once per process.

A model file is a ``torch.save`` dictionary with a ``format`` key naming what it holds (``paiju-dmc-1``,
``paiju-perfectdou-1``, ...); it is read with ``weights_only=True``, so no code runs on load. Writes go to a
temporary file in the same folder, flushed to disk, then renamed over the target: a run killed while writing
leaves the previous file intact. This module imports torch only when a file is read or written.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from paiju.core.errors import PaijuError

MODEL_FILE = "model.pt"
"""The networks of a training folder (every trainer's ``--out DIR`` keeps its latest in ``DIR/model.pt``)."""
T = TypeVar("T")


def model_file(argument: str | Path | None, shipped: Path, what: str) -> Path:
    """The file ``argument`` names (a training folder: its ``model.pt``; empty: ``shipped``); ``PaijuError``
    ``no WHAT at FILE`` when it does not exist."""
    file = resolve(Path(argument) if argument else shipped)
    if not file.is_file():
        raise PaijuError(f"no {what} at {file}")
    return file


def resolve(path: str | Path) -> Path:
    """``path``, or its ``model.pt`` when it is a training folder."""
    path = Path(path)
    return path / MODEL_FILE if path.is_dir() else path


def load_once(loader: Callable[[Path], T], file: Path) -> T:
    """``loader(file)``, remembered for this version of the file (``loader`` a module-level function)."""
    return _load(loader, str(file.resolve()), file.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _load(loader: Callable[[Path], Any], path: str, modified: int) -> Any:
    return loader(Path(path))


def read_torch_file(path: Path, what: str) -> Any:
    """The data ``torch.save`` wrote at ``path`` (tensors on the CPU, plain data only); ``PaijuError`` naming
    ``what`` was expected when the file is missing or unreadable."""
    import torch

    if not path.is_file():
        raise PaijuError(f"no {what} at {path}")
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many types for a corrupt or foreign file
        raise PaijuError(f"{path}: cannot read a {what}: {error}") from None


def require_model_format(data: Any, expected: str, what: str, source: str) -> None:
    """``PaijuError`` unless ``data`` (a model file's contents) is a dict of format ``expected``; the message names
    ``source`` and says it is no ``what`` file, and which format it holds instead."""
    if not isinstance(data, dict) or data.get("format") != expected:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise PaijuError(f"{source} is not a {what} file (format {expected!r}, found {found!r})")


def atomic_torch_save(data: Any, path: Path) -> None:
    """``torch.save`` to a temporary file beside ``path``, flushed to disk, then renamed over ``path``."""
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            torch.save(data, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


__all__ = ["MODEL_FILE", "atomic_torch_save", "load_once", "model_file", "read_torch_file", "require_model_format",
           "resolve"]
