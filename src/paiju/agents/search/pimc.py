"""Determinized Monte-Carlo search (PIMC: Ginsberg 2001, GIB; Long, Sturtevant, Buro & Furtak 2010, "Understanding
the Success of Perfect Information Monte Carlo Sampling in Game Tree Search").

Each candidate action is played in every sampled world and the world played out to the end of its deal by
the rollout policy; a candidate's value is its weighted mean over the worlds. Worlds are visited one at a
time with every candidate played in each (common random numbers: the candidates are compared on the same
hidden cards), and only complete sweeps count, so that all candidates are judged on the same worlds.

The choice guards against the winner's curse of taking the largest of noisy means: the prior's choice (the
first candidate) stands unless another candidate's mean gain over it, paired world by world, exceeds ``z``
standard errors; the best such candidate by mean is taken then.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from paiju.agents.search.budget import Budget
from paiju.agents.search.rollout import Rollout
from paiju.agents.search.worlds import Worlds
from paiju.core.game import Action


@dataclass(slots=True)
class Estimate:
    """A candidate's simulations: their values (one per world) and the worlds' weights."""

    action: Action
    values: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)

    @property
    def visits(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return _weighted_mean(self.values, self.weights)


def pimc(candidates: Sequence[Action], worlds: Worlds, rollout: Rollout, budget: Budget) -> list[Estimate]:
    """Every candidate's estimate after as many complete sweeps of the worlds as ``budget`` allows, in
    candidate order (no visits at all when not even one sweep fits)."""
    estimates = [Estimate(action) for action in candidates]
    for index in range(len(worlds)):
        if not budget.allows():
            break
        world = worlds[index]
        deal = world.state.deal_number
        values = []
        for action in candidates:
            if not budget.allows():
                return estimates
            budget.spend()
            state = world.state.clone()
            state.apply(action)
            values.append(rollout.play_out(state, deal))
        for estimate, value in zip(estimates, values, strict=True):
            estimate.values.append(value)
            estimate.weights.append(world.weight)
    return estimates


def ranked_estimates(estimates: Sequence[Estimate], z: float) -> list[Estimate]:
    """The estimates best first: the first candidate (the prior's choice) unless another beats it by more than
    ``z`` paired standard errors — then the best of those by mean — followed by the rest by mean."""
    default = estimates[0]
    rest = sorted(estimates[1:], key=lambda estimate: -estimate.mean)
    challengers = [estimate for estimate in rest if _paired_z(estimate, default) > z]
    if not challengers:
        return [default, *rest]
    chosen = challengers[0]
    return [chosen, *sorted((e for e in estimates if e is not chosen), key=lambda estimate: -estimate.mean)]


def _paired_z(challenger: Estimate, default: Estimate) -> float:
    """The challenger's weighted mean gain over the default, world by world, in standard errors (the effective
    number of worlds under unequal weights: Kish's ``(Σw)² / Σw²``)."""
    weights = default.weights
    gains = [a - b for a, b in zip(challenger.values, default.values, strict=True)]
    mean = _weighted_mean(gains, weights)
    total = sum(weights)
    variance = sum(w * (gain - mean) ** 2 for w, gain in zip(weights, gains, strict=True)) / total
    effective = total * total / sum(w * w for w in weights)
    if variance == 0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(variance / max(effective - 1, 1))


def _weighted_mean(values: Sequence[float], weights: Sequence[float]) -> float:
    total = sum(weights)
    return sum(w * v for w, v in zip(weights, values, strict=True)) / total if total else 0.0
