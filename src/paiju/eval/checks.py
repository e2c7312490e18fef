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
        if not is_positive_integer(value):
            raise PaijuError(f"{name} must be a positive integer, got {value!r}")
    if not isinstance(config.seed, int) or isinstance(config.seed, bool):
        raise PaijuError(f"seed must be an integer, got {config.seed!r}")


def check_lineup(agents: Any, evaluation: str) -> None:
    """``agents`` must be a tuple of at least two distinct agent specs; ``evaluation`` names what needs them."""
    if not isinstance(agents, tuple) or len(agents) < 2:
        raise PaijuError(f"{evaluation} needs a tuple of at least two agents, got {agents!r}")
    for spec in agents:
        if not isinstance(spec, str) or not spec:
            raise PaijuError(f"agents must be non-empty agent specs such as 'random', got {spec!r}")
    repeated = sorted({spec for spec in agents if agents.count(spec) > 1})
    if repeated:
        raise PaijuError(f"each agent may appear once in {evaluation}; repeated: {', '.join(repeated)}")


def is_positive_integer(value: Any) -> bool:
    """Whether ``value`` is an int (not a bool) of at least 1."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
