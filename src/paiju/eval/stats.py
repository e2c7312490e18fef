"""Game-agnostic statistics for evaluation reports: win rates and mean scores with 95 % intervals.

Every interval here is a two-sided 95 % interval. Win rates use Wilson's score interval (good coverage
even near 0 or 1 and for small samples); means use Student's t interval, which for large samples is the
normal interval. In duplicate designs the games played on one deal are correlated: the ``duplicate_*``
helpers treat each deal's games as one independent group (cluster-robust standard errors), so that an
interval reflects the real number of independent deals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Any

CONFIDENCE = 0.95
Z95 = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
"""The normal distribution's 97.5 % quantile, 1.959964…"""

NORMAL_DF = 10_000
"""Above this many degrees of freedom the t quantile is replaced by the normal one (they differ by < 0.02 %)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A point estimate with its 95 % interval ``[low, high]`` from ``n`` observations.

    ``low`` and ``high`` are None when the data cannot bound the estimate (one value, or one deal's games).
    """

    value: float
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Estimate:
        """The estimate that ``to_json`` wrote."""
        return cls(data["value"], data["low"], data["high"], data["n"])

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.value:.3f}"
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson_interval(successes: int, n: int) -> Estimate:
    """Win rate ``p = successes / n`` with Wilson's 95 % score interval (Wilson 1927).

    With z = 1.96: centre = (p + z²/2n) / (1 + z²/n), half-width = z / (1 + z²/n) · √(p(1−p)/n + z²/4n²).
    """
    if n <= 0:
        raise ValueError(f"a win rate needs at least one game, got n={n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..n={n}, got {successes}")
    low, high = _wilson_bounds(successes / n, n)
    return Estimate(successes / n, low, high, n)


def mean_interval(values: Sequence[float]) -> Estimate:
    """Sample mean with the 95 % t interval: mean ± t(0.975, n−1) · s / √n, s the sample standard deviation.

    For n − 1 > ``NORMAL_DF`` degrees of freedom t(0.975) is the normal 1.96. A single value has no interval.
    """
    return duplicate_mean([[v] for v in values])


def duplicate_mean(groups: Sequence[Sequence[float]]) -> Estimate:
    """Mean of all values, where the values of one group (the games of one deal) are correlated and the groups
    are independent, with a cluster-robust 95 % t interval over the D non-empty groups of N values in all:

    m = Σ y / N;  SE² = D / (D − 1) · Σ_groups (Σ_group (y − m))² / N²;  m ± t(0.975, D − 1) · SE.

    Groups of one value give the ordinary t interval; groups of equal size give the t interval of the group
    means. Fewer than two groups give no interval.
    """
    m, n, clusters, variance = _cluster_moments(groups)
    if clusters < 2:
        return Estimate(m, None, None, n)
    half = t_quantile_975(clusters - 1) * math.sqrt(variance)
    return Estimate(m, m - half, m + half, n)


def duplicate_rate(groups: Sequence[Sequence[bool]]) -> Estimate:
    """Share of successes over groups of correlated games, with Wilson's interval at Kish's effective size.

    n_eff = N / deff, deff = SE²_cluster / SE²_independent, where SE²_cluster is ``duplicate_mean``'s and
    SE²_independent = s² / N. Groups of one game give the plain Wilson interval; duplicate designs whose
    games offset each other have deff < 1 and a narrower interval. When every game has the same outcome
    deff cannot be estimated and is taken as 1. Fewer than two groups give no interval.
    """
    values = [[float(won) for won in group] for group in groups]
    p, n, clusters, variance = _cluster_moments(values)
    if clusters < 2:
        return Estimate(p, None, None, n)
    independent = p * (1 - p) / (n - 1)
    effective = n if independent == 0 else (math.inf if variance == 0 else n * independent / variance)
    low, high = _wilson_bounds(p, effective)
    return Estimate(p, low, high, n)


def paired_difference(first: Sequence[float], second: Sequence[float]) -> Estimate:
    """Mean of the paired differences ``first[i] − second[i]`` with the t interval of those differences
    (e.g. the landlord scores of two teams on the same deal, DeepRocket appendix B's duplicate mode)."""
    if len(first) != len(second):
        raise ValueError(f"paired samples must have equal lengths, got {len(first)} and {len(second)}")
    return mean_interval([a - b for a, b in zip(first, second, strict=True)])


@lru_cache(maxsize=64)
def t_quantile_975(df: int) -> float:
    """Student's t 97.5 % quantile for ``df`` degrees of freedom (12.706 for 1, 2.228 for 10, 1.984 for 100).

    Solves P(|T| ≤ t) = 0.95 by bisection on the exact two-sided distribution function for integer
    degrees of freedom (Abramowitz & Stegun 26.7.3–26.7.4); the normal quantile above ``NORMAL_DF``.
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df > NORMAL_DF:
        return Z95
    low, high = 0.0, 1.0
    while _t_central_probability(high, df) < CONFIDENCE:
        low, high = high, 2 * high
    for _ in range(100):
        middle = (low + high) / 2
        if _t_central_probability(middle, df) < CONFIDENCE:
            low = middle
        else:
            high = middle
        if high - low < 1e-12:
            break
    return (low + high) / 2


def _cluster_moments(groups: Sequence[Sequence[float]]) -> tuple[float, int, int, float]:
    """(mean, number of values, number of non-empty groups, cluster-robust squared standard error)."""
    n = sum(len(group) for group in groups)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(math.fsum(group) for group in groups) / n
    residuals = [math.fsum(y - mean for y in group) for group in groups if group]
    clusters = len(residuals)
    if clusters < 2:
        return mean, n, clusters, math.nan
    variance = clusters / (clusters - 1) * math.fsum(r * r for r in residuals) / (n * n)
    return mean, n, clusters, variance


def _wilson_bounds(p: float, n: float) -> tuple[float, float]:
    z2 = Z95 * Z95
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = Z95 / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # rounding never excludes p


def _t_central_probability(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with integer ``df`` (Abramowitz & Stegun 26.7.3 odd, 26.7.4 even).

    With θ = atan(t/√df): even df: sin θ · Σ_{k=0}^{(df−2)/2} c_k cos^{2k} θ, c_0 = 1, c_k = c_{k−1}(2k−1)/2k;
    odd df: (2/π)(θ + sin θ · Σ_{k=0}^{(df−3)/2} d_k cos^{2k+1} θ), d_0 = 1, d_k = d_{k−1}·2k/(2k+1).
    """
    theta = math.atan(t / math.sqrt(df))
    sine, cosine = math.sin(theta), math.cos(theta)
    cos2 = cosine * cosine
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):
            term *= cos2 * (k - 1) / k
            total += term
        return sine * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = cosine
    for k in range(3, df - 1, 2):
        term *= cos2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + sine * total)
