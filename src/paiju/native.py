"""Compiled fast paths, chosen at import.

Each engine keeps its readable pure-Python implementation as the reference; its hot functions also exist
compiled (Cython modules named ``_<module>_fast`` beside the module they speed up, built by ``pip install``).
Which one a process uses is decided once, when paiju is imported, by the environment variable
``PAIJU_NATIVE``:

- unset or ``auto``: the compiled functions where they are built, else the reference;
- ``1``: the compiled functions, and an ``ImportError`` naming the missing module if one is not built;
- ``0``: the reference functions everywhere.

A module with a fast path defines its reference function as usual, keeps it by name, and binds the public
name to ``fast(...)`` at its end::

    reference_legal_moves = legal_moves
    legal_moves = fast("paiju.games.doudizhu._movegen_fast", "legal_moves", legal_moves)

Both paths give the same results (``tests/native/``: legal lists, next states, payoffs and the rule bots'
decisions over seeded random states), so the choice changes speed only.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

_SETTING = os.environ.get("PAIJU_NATIVE", "auto").strip().lower() or "auto"
if _SETTING not in ("auto", "0", "1"):
    raise ImportError(f"PAIJU_NATIVE must be 0 (reference Python), 1 (compiled) or auto, got {_SETTING!r}")

_used: set[str] = set()


def fast(module: str, name: str, reference: T) -> T:
    """The compiled ``module.name`` (a dotted module path) where it is built and allowed, else ``reference``."""
    if _SETTING == "0":
        return reference
    try:
        compiled = importlib.import_module(module)
    except ImportError as error:
        if _SETTING == "1":
            raise ImportError(f"PAIJU_NATIVE=1 but the compiled module {module} is not built "
                              f"(reinstall paiju with a C compiler present: pip install -e .): {error}") from None
        return reference
    _used.add(module)
    return getattr(compiled, name)


def path() -> str:
    """``"compiled"`` when any compiled function is in use, else ``"reference"``."""
    return "compiled" if _used else "reference"


def built() -> list[str]:
    """Dotted names of the compiled modules present in this installation (imported or not)."""
    root = Path(__file__).parent
    return sorted(".".join(("paiju", *path.relative_to(root).parts[:-1], path.name.split(".")[0]))
                  for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in root.rglob(f"_*_fast{suffix}"))
