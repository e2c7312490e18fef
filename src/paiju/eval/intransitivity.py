"""How far a set of strategies is from a ranking: the intransitivity ε of ScrofaZero §8.10 (Eq. 17).

With ξ_ij the mean score of strategy i against strategy j (antisymmetric: ξ_ji = −ξ_ij), scores are
transitive when ξ_ij + ξ_jk = ξ_ik for every triple (Eq. 16), i.e. when they come from one rating per
strategy, ξ_ij = r_i − r_j. The statistic

    ε = Σ_{i<j<k} |ξ_ij + ξ_jk − ξ_ik|² / Σ_{i<j<k} |ξ_ij + ξ_jk − ξ_ik| (|ξ_ij| + |ξ_jk| + |ξ_ik|)

is 0 for transitive scores and 1 for rock-paper-scissors; it is a weighted mean of the per-triple
ε_ijk = |ξ_ij + ξ_jk − ξ_ik| / (|ξ_ij| + |ξ_jk| + |ξ_ik|) (Eq. 18), so it lies in [0, 1], and it does not
change when the scores are scaled or the strategies reordered. When no triple departs from transitivity
(every ξ_ij + ξ_jk − ξ_ik is 0) both sums vanish and ε is taken as 0.

Measured scores carry noise, and noise alone makes ξ_ij + ξ_jk − ξ_ik non-zero: an ε estimated from
finite samples is biased upwards. ``bootstrap_intransitivity`` resamples the deals to give ε's standard
error and a percentile interval; it shows the spread of the estimate, not that bias.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

ANTISYMMETRY_TOLERANCE = 1e-9
"""Largest |ξ_ij + ξ_ji| accepted, relative to the largest |ξ_ij| (rounding in means of the same games)."""


@dataclass(frozen=True, slots=True)
class IntransitivityEstimate:
    """ε of the mean scores, with the bootstrap standard error and 95 % percentile interval over deals."""

    value: float
    se: float
    low: float
    high: float
    resamples: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "se": self.se, "low": self.low, "high": self.high,
                "resamples": self.resamples, "seed": self.seed}

    def __str__(self) -> str:
        return f"{self.value:.4f} ± {self.se:.4f} [{self.low:.4f}, {self.high:.4f}]"


def intransitivity(xi: np.ndarray) -> float:
    """ScrofaZero Eq. 17's ε of an antisymmetric n × n score matrix (n ≥ 3); see the module docstring."""
    matrix = np.asarray(xi, dtype=float)
    _check_scores(matrix)
    return float(_intransitivity_batch(matrix[np.newaxis])[0])


def bootstrap_intransitivity(per_deal_scores: np.ndarray, resamples: int = 1000, seed: int = 0
                             ) -> IntransitivityEstimate:
    """ε of the deal-mean scores, with its uncertainty from resampling deals with replacement.

    ``per_deal_scores[i, j, d]`` is strategy i's score against j on deal d (antisymmetric in i, j); every
    pair played the same deals, so one resample of the deals is applied to every pair at once, keeping
    their correlation. Each of ``resamples`` draws recomputes every ξ_ij as a weighted deal mean and then
    ε; the standard error is the draws' standard deviation, the interval their 2.5 % and 97.5 % percentiles
    (Efron & Tibshirani 1993, ch. 6 and 13). The same seed gives the same draws.
    """
    scores = np.asarray(per_deal_scores, dtype=float)
    if scores.ndim != 3 or scores.shape[2] < 1:
        raise ValueError(f"per-deal scores must have shape (n, n, deals) with deals >= 1, got {scores.shape}")
    if not isinstance(resamples, int) or isinstance(resamples, bool) or resamples < 2:
        raise ValueError(f"the bootstrap needs at least 2 resamples, got {resamples!r}")
    means = scores.mean(axis=2)
    _check_scores(means)
    deals = scores.shape[2]
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples)  # draws of each deal, per resample
    resampled = np.einsum("ijd,bd->bij", scores, counts / deals)
    draws = _intransitivity_batch(resampled)
    low, high = np.percentile(draws, [2.5, 97.5])
    return IntransitivityEstimate(value=float(_intransitivity_batch(means[np.newaxis])[0]),
                                  se=float(draws.std(ddof=1)), low=float(low), high=float(high),
                                  resamples=resamples, seed=seed)


def _intransitivity_batch(xi: np.ndarray) -> np.ndarray:
    """Eq. 17 for each matrix of a stack of shape (batch, n, n)."""
    triples = np.array(list(itertools.combinations(range(xi.shape[1]), 3)))
    i, j, k = triples.T
    xi_ij, xi_jk, xi_ik = xi[:, i, j], xi[:, j, k], xi[:, i, k]
    departure = np.abs(xi_ij + xi_jk - xi_ik)
    numerator = (departure**2).sum(axis=1)
    denominator = (departure * (np.abs(xi_ij) + np.abs(xi_jk) + np.abs(xi_ik))).sum(axis=1)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, numerator / safe, 0.0)


def _check_scores(xi: np.ndarray) -> None:
    if xi.ndim != 2 or xi.shape[0] != xi.shape[1]:
        raise ValueError(f"scores must form a square matrix, got shape {xi.shape}")
    if xi.shape[0] < 3:
        raise ValueError(f"intransitivity needs at least 3 strategies, got {xi.shape[0]}")
    if not np.all(np.isfinite(xi)):
        raise ValueError("scores must be finite numbers")
    tolerance = ANTISYMMETRY_TOLERANCE * max(1.0, float(np.abs(xi).max()))
    worst = float(np.abs(xi + xi.T).max())
    if worst > tolerance:
        i, j = np.unravel_index(int(np.argmax(np.abs(xi + xi.T))), xi.shape)
        raise ValueError(f"scores must be antisymmetric (xi[j, i] == -xi[i, j]); xi[{i}, {j}] = {float(xi[i, j])} "
                         f"but xi[{j}, {i}] = {float(xi[j, i])}")
