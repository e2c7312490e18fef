"""Agent options: the argument of an agent name ``NAME:item,item,...`` parsed into a frozen dataclass.

Grammar: the argument is comma-separated items (blank ones skipped; spaces around items, keys and values
ignored). An item is ``key=value`` when the text before its first ``=`` is a word (letters, digits, ``_``,
``-``); any other item is *bare*, and the agent maps it to a key (``scrofazero:ss`` is ``sampler=ss``) or
refuses it. A key names a field of the options dataclass, whose type converts the value: ``int`` (ASCII digits,
optionally after ``-``), ``float`` (any decimal but NaN), ``str`` (not empty), and ``X | None`` as ``X``. The
field's ``option(...)`` declares its constraints once: ``minimum`` and ``maximum`` (inclusive), ``positive``
(> 0), ``finite`` (no infinity), ``choices``; and ``rest``: its value is the item that names it and every item
after it, commas included (``learned-bid:model=PATH,search:algo=ismcts,worlds=8``).

Every refusal is a ``PaijuError`` that names the agent, the option and what is accepted::

    unknown search option 'horizon'; accepted keys: algo, policy, ...
    search option 'worlds' is not key=value; accepted keys: algo, policy, ...
    search option worlds is given twice
    search option worlds must be a whole number >= 1, got '0'
    scrofazero:perfect takes no sampler= option: WHY; accepted keys: path, simulations
"""

from __future__ import annotations

import math
import re
import types
from collections.abc import Callable, Collection
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cache
from typing import Any, NamedTuple, TypeVar, Union, get_args, get_origin, get_type_hints

from paiju.core.errors import PaijuError

T = TypeVar("T")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_WHOLE = re.compile(r"-?[0-9]+")


@dataclass(frozen=True, slots=True)
class Rule:
    """The constraints of one option, declared with ``option``."""

    minimum: float | None = None
    maximum: float | None = None
    positive: bool = False
    finite: bool = False
    choices: tuple[str, ...] = ()
    rest: bool = False


class _Option(NamedTuple):
    kind: type
    """``int``, ``float`` or ``str``."""
    optional: bool
    """Whether the field's type allows None (a default only: no text converts to None)."""
    rule: Rule


def option(default: Any = MISSING, *, minimum: float | None = None, maximum: float | None = None,
           positive: bool = False, finite: bool = False, choices: tuple[str, ...] = (), rest: bool = False) -> Any:
    """A dataclass field with ``default`` (required when left out) and the constraints of its values."""
    return field(default=default, metadata={"option": Rule(minimum, maximum, positive, finite, choices, rest)})


def parse_options(argument: str, defaults: T, name: str, *, bare: Callable[[str], str] | None = None,
                  only: Collection[str] | None = None, why: str = "") -> T:
    """``defaults`` with the options given in ``argument`` (``parse_items``) replacing its fields."""
    return replace(defaults, **parse_items(argument, type(defaults), name, bare=bare, only=only, why=why))


def parse_items(argument: str, options_type: type, name: str, *, bare: Callable[[str], str] | None = None,
                only: Collection[str] | None = None, why: str = "") -> dict[str, Any]:
    """The options given in ``argument`` (the module docstring), ``{key: typed value}`` in the order given.

    ``options_type`` is the dataclass whose fields are the keys; ``name`` names the agent in refusals; ``bare``
    maps a bare item to its key (None: bare items are refused); ``only`` accepts these keys alone, refusing the
    other fields of ``options_type`` because ``why``.
    """
    declared = _declared(options_type)
    accepted = tuple(only) if only is not None else tuple(declared)
    listed = f"accepted keys: {', '.join(accepted)}"
    items = argument.split(",")
    given: dict[str, Any] = {}
    for index, item in enumerate(items):
        item = item.strip()
        key, equals, text = (part.strip() for part in item.partition("="))
        if not item:
            continue
        if not (equals and _KEY.fullmatch(key)):
            if bare is None:
                raise PaijuError(f"{name} option {item!r} is not key=value; {listed}")
            key, text = bare(item), item
        if key not in accepted:
            if key in declared:
                raise PaijuError(f"{name} takes no {key}= option{': ' if why else ''}{why}; {listed}")
            raise PaijuError(f"unknown {name} option {key!r}; {listed}")
        if key in given:
            raise PaijuError(f"{name} option {key} is given twice")
        if declared[key].rule.rest:
            given[key] = _value(name, key, declared[key], ",".join([text, *items[index + 1:]]).strip())
            break
        given[key] = _value(name, key, declared[key], text)
    return given


def check_options(options: Any, name: str) -> None:
    """Refuse the dataclass instance ``options`` (made in code, not parsed) unless every field holds a value of
    its type within its constraints; strings may be empty."""
    for key, declared in _declared(type(options)).items():
        value = getattr(options, key)
        if not (value is None and declared.optional) and not _allowed(value, declared):
            raise PaijuError(f"{name} option {key} must be {_describe(declared)}, got {value!r}")


def _describe(declared: _Option) -> str:
    """What an option accepts, in words: ``one of pimc, ismcts``, ``a whole number >= 1``, ..."""
    rule = declared.rule
    if rule.choices:
        return f"one of {', '.join(rule.choices)}"
    if declared.kind is str:
        return "a non-empty string"
    words = ["a", *(["finite"] if rule.finite else []), *(["positive"] if rule.positive else []),
             "whole number" if declared.kind is int else "number"]
    if rule.minimum is not None and rule.maximum is not None:
        words.append(f"from {rule.minimum:g} to {rule.maximum:g}")
    elif rule.minimum is not None:
        words.append(f">= {rule.minimum:g}")
    elif rule.maximum is not None:
        words.append(f"<= {rule.maximum:g}")
    return " ".join(words)


def _value(name: str, key: str, declared: _Option, text: str) -> Any:
    """``text`` converted to the option's type, refused unless it converts and meets the constraints."""
    value: Any = None
    if declared.kind is str:
        value = text or None
    elif declared.kind is int:
        value = int(text) if _WHOLE.fullmatch(text) else None
    elif text.isascii():
        try:
            value = float(text)
        except ValueError:
            value = None
    if value is None or not _allowed(value, declared):
        raise PaijuError(f"{name} option {key} must be {_describe(declared)}, got {text!r}")
    return value


def _allowed(value: Any, declared: _Option) -> bool:
    """Whether ``value`` (not None) is of the option's type and within its constraints."""
    kind, rule = declared.kind, declared.rule
    if kind is str:
        return isinstance(value, str) and (not rule.choices or value in rule.choices)
    if isinstance(value, bool) or not isinstance(value, int if kind is int else int | float):
        return False
    if math.isnan(value) or (rule.finite and math.isinf(value)) or (rule.positive and value <= 0):
        return False
    return (rule.minimum is None or value >= rule.minimum) and (rule.maximum is None or value <= rule.maximum)


@cache
def _declared(options_type: type) -> dict[str, _Option]:
    """Each field of the dataclass ``options_type`` by name: its type without None, and its constraints."""
    hints = get_type_hints(options_type)
    declared = {}
    for each in fields(options_type):
        hint = hints[each.name]
        kinds = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
        kind = [k for k in kinds if k is not type(None)]
        if len(kind) != 1 or kind[0] not in (int, float, str):
            raise TypeError(f"option {options_type.__name__}.{each.name} is {hint}: not int, float, str or one | None")
        declared[each.name] = _Option(kind[0], len(kinds) > 1, each.metadata.get("option", Rule()))
    return declared


__all__ = ["Rule", "check_options", "option", "parse_items", "parse_options"]
