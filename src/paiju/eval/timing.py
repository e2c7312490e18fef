"""Equal time per decision: one time budget for every agent that has one, and the decision times measured.

- ``timed_spec``: an agent spec with ``ms=N`` (milliseconds per decision) added when its agent takes a time
  budget (``TIMED_AGENTS``); a spec that already sets its own budget is refused, since the point is that every
  timed agent gets the same one. Other agents (rule bots, networks without a search) play as they are.
- ``DecisionTimes``: the median and 90th percentile of measured decision times, so that "equal time" can be
  checked on the figures rather than assumed.

A time budget makes play depend on the machine's speed and load: unlike one with counted budgets, a timed evaluation
is not reproducible from its seed alone.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.agents.scrofazero.agent import is_perfect
from paiju.core.errors import PaijuError

TIMED_AGENTS = ("scrofazero", "search")
"""The agents with an ``ms`` option (milliseconds per decision): ``scrofazero`` (not the analysis player
``scrofazero:perfect``, which searches with a count) and ``search``."""
BUDGET_KEYS = ("ms", "sims", "simulations")
"""Options by which a timed agent's spec sets its own budget (``search``: ``sims``; ``scrofazero``:
``simulations``)."""


def timed_spec(spec: str, ms: int) -> str:
    """``spec`` with ``ms`` milliseconds per decision when its agent takes a time budget, else ``spec`` itself.

    Raises ``PaijuError`` when ``spec`` already sets a budget (``BUDGET_KEYS``)."""
    name, _, argument = spec.partition(":")
    if name not in TIMED_AGENTS or (name == "scrofazero" and is_perfect(argument)):
        return spec
    keys = [item.partition("=")[0].strip() for item in argument.split(",") if "=" in item]
    given = [key for key in keys if key in BUDGET_KEYS]
    if given:
        raise PaijuError(f"{spec!r} sets its own budget ({given[0]}=), but ms={ms} gives every agent with a time "
                         f"budget the same milliseconds per decision; drop one of the two")
    return f"{name}:{argument},ms={ms}" if argument.strip() else f"{name}:ms={ms}"


@dataclass(frozen=True, slots=True)
class DecisionTimes:
    """The median and 90th percentile (nearest rank) of ``decisions`` decision times, milliseconds; None without
    any decision."""

    decisions: int
    median_ms: float | None
    p90_ms: float | None

    @classmethod
    def of(cls, seconds: Sequence[float]) -> DecisionTimes:
        if not seconds:
            return cls(0, None, None)
        ordered = sorted(seconds)
        return cls(len(ordered), 1000 * statistics.median(ordered), 1000 * ordered[math.ceil(0.9 * len(ordered)) - 1])

    def to_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "median_ms": self.median_ms, "p90_ms": self.p90_ms}

    def __str__(self) -> str:
        if self.median_ms is None or self.p90_ms is None:
            return "no decision with a choice"
        return f"median {self.median_ms:.1f} ms, p90 {self.p90_ms:.1f} ms ({self.decisions} decisions)"


__all__ = ["BUDGET_KEYS", "TIMED_AGENTS", "DecisionTimes", "timed_spec"]
