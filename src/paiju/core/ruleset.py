"""``Ruleset``: what every game's ruleset shares — a frozen dataclass with a JSON form whose parsing names
every unknown or ill-typed option."""

from __future__ import annotations

import types
import typing
from dataclasses import asdict, fields
from typing import Any, ClassVar, Self

from paiju.core.errors import PaijuError


class Ruleset:
    """Mixin for a game's ruleset dataclass; ``game_label`` names the game in error messages."""

    __slots__ = ()
    game_label: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else value
                for key, value in asdict(self).items()}  # type: ignore[call-overload]

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Self:
        """Parse a ruleset from JSON, naming any unknown option or a value of the wrong type."""
        if not isinstance(value, dict):
            raise PaijuError(f"{cls.game_label} rules must be a JSON object, got {value!r}")
        hints = typing.get_type_hints(cls)
        known = [f.name for f in fields(cls)]  # type: ignore[arg-type]
        for key, option in value.items():
            if key not in known:
                raise PaijuError(f"unknown {cls.game_label} rule option {key!r}; known: {', '.join(known)}")
            if not _accepts(hints[key], option):
                raise PaijuError(f"{cls.game_label} rule option {key!r} must be {_describe(hints[key])}, "
                                 f"got {option!r}")
        return cls(**{key: tuple(option) if isinstance(option, list) else option for key, option in value.items()})


def _accepts(hint: Any, value: Any) -> bool:
    """Whether a JSON value fits a field's type (``bool`` is not an ``int`` here)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_accepts(option, value) for option in typing.get_args(hint))
    if origin is typing.Literal:
        return value in typing.get_args(hint)
    if hint is type(None):
        return value is None
    if origin is tuple:  # ``tuple[int, ...]``: a JSON list of integers
        return isinstance(value, list | tuple) and all(_accepts(int, item) for item in value)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(option) for option in typing.get_args(hint))
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(option) for option in typing.get_args(hint))
    if origin is tuple:
        return "a list of integers"
    return _NAMES.get(hint, getattr(hint, "__name__", str(hint)))


_NAMES: dict[Any, str] = {int: "an integer", bool: "true or false", str: "a string", float: "a number",
                          type(None): "null"}
