"""A decision's budget: simulations, milliseconds, or both (whichever runs out first)."""

from __future__ import annotations

import time


class Budget:
    """At most ``sims`` simulations and ``ms`` milliseconds, the time counted from the budget's creation."""

    def __init__(self, sims: int | None, ms: int | None) -> None:
        self.sims = sims
        self.deadline = None if ms is None else time.perf_counter() + ms / 1000
        self.spent = 0

    def allows(self) -> bool:
        """Whether one more simulation may start."""
        if self.sims is not None and self.spent >= self.sims:
            return False
        return self.deadline is None or time.perf_counter() < self.deadline

    def spend(self) -> None:
        self.spent += 1
