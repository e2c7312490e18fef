"""Checks shared by the evaluation configurations: each names the field and the value it refused."""

from __future__ import annotations

from typing import Any

from paiju.core.errors import PaijuError


def check_config(config: Any, agents: tuple[str, ...] = (), counts: tuple[str, ...] = ()) -> None:
    """``agents`` must be non-empty agent specs, ``counts`` positive integers, ``config.seed`` an integer."""
    for name in agents:
        spec = getattr(config, name)
        if not isinstance(spec, str) or not spec:
            raise PaijuError(f"{name} must be a non-empty agent spec such as 'random', got {spec!r}")
    for name in counts:
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise PaijuError(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(config.seed, int) or isinstance(config.seed, bool):
        raise PaijuError(f"seed must be an integer, got {config.seed!r}")
