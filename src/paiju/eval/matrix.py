"""Score matrix of a set of agents and its intransitivity (ScrofaZero §8.10, Table 2 and Eq. 17).

Every pair of agents (i, j), i < j, plays the same duplicate deals (``paiju.eval.team_duplicate``: the
plan's seed fixes the deals for every pair), agent i as team A. ξ_ij is i's mean points per game against
j, with its standard error over deals; ξ_ji = −ξ_ij and ξ_ii = 0. The intransitivity ε of the matrix
(``paiju.eval.intransitivity``) comes with a bootstrap over deals: each resample draws the deals with
replacement, recomputes every ξ from the resampled deals and then ε, the same draws for every pair.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.table import Table

from paiju import __version__
from paiju.core.errors import PaijuError
from paiju.eval import gongzhu
from paiju.eval.checks import check_config, check_lineup
from paiju.eval.intransitivity import IntransitivityEstimate, bootstrap_intransitivity, intransitivity
from paiju.eval.parallel import Backend, Parallelism
from paiju.eval.seeds import derive_seed
from paiju.eval.team_duplicate import DuplicatePlan, DuplicateSummary, per_deal_scores, play_pairings

DUPLICATE_PLANS: dict[str, Callable[[int], DuplicatePlan]] = {"gongzhu": gongzhu.duplicate_plan}
"""Games with a duplicate design for team play, each with its plan for a master seed."""


@dataclass(frozen=True, slots=True)
class MatrixConfig:
    """Which agents meet, on how many deals, and how ε's uncertainty is estimated."""

    game: str
    """A game of ``DUPLICATE_PLANS``."""
    agents: tuple[str, ...]
    """At least two distinct agent specs; ε needs three."""
    deals: int = 1024
    """Duplicate deal pairs per pairing, the same deals for every pairing."""
    seed: int = 0
    """Master seed of the deals, the agents and the bootstrap."""
    workers: int = 1
    """Processes playing deals in parallel; the results do not depend on it."""
    bootstrap: int = 1000
    """Bootstrap resamples of the deals for ε's standard error and interval; 0 for none."""
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the results do not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""

    def __post_init__(self) -> None:
        if self.game not in DUPLICATE_PLANS:
            raise PaijuError(f"no duplicate score matrix for game {self.game!r}; "
                             f"available for: {', '.join(sorted(DUPLICATE_PLANS))}")
        check_lineup(self.agents, "a score matrix")
        check_config(self, counts=("deals", "workers"))
        Parallelism.of(self)  # refuses an unknown backend, or an address without Ray
        resamples = self.bootstrap
        if not isinstance(resamples, int) or isinstance(resamples, bool) or resamples < 0 or resamples == 1:
            raise PaijuError(f"bootstrap must be 0 (none) or at least 2 resamples, got {self.bootstrap!r}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "agents": list(self.agents), "deals": self.deals, "seed": self.seed,
                "workers": self.workers, "bootstrap": self.bootstrap, "backend": self.backend, "address": self.address}


@dataclass(frozen=True, slots=True)
class MatrixReport:
    """ξ (row agent's points per game against the column agent), standard errors, pair summaries and ε."""

    config: MatrixConfig
    xi: np.ndarray
    """ξ[i, j]: agent i's mean points per game against agent j (antisymmetric, 0 on the diagonal)."""
    se: np.ndarray
    """Standard error of ξ[i, j] over deals (NaN on the diagonal)."""
    pairs: dict[tuple[int, int], DuplicateSummary]
    """The duplicate summary of each pairing (i, j), i < j, agent i as team A."""
    intransitivity: float | None
    """ε of ξ; None for fewer than three agents."""
    bootstrap: IntransitivityEstimate | None
    """ε with its bootstrap standard error and interval; None without bootstrap or ε."""
    wall_time_s: float
    version: str

    def to_json(self) -> dict[str, Any]:
        n = len(self.config.agents)
        return {
            "paiju_version": self.version, "config": self.config.to_json(), "agents": list(self.config.agents),
            "xi": self.xi.tolist(),
            "se": [[None if i == j else float(self.se[i, j]) for j in range(n)] for i in range(n)],
            "pairs": [{"a": self.config.agents[i], "b": self.config.agents[j], **summary.to_json()}
                      for (i, j), summary in self.pairs.items()],
            "intransitivity": self.intransitivity,
            "intransitivity_bootstrap": None if self.bootstrap is None else self.bootstrap.to_json(),
            "wall_time_s": self.wall_time_s,
        }

    def table(self) -> list[Table]:
        """Rich tables: the matrix, then ε with its bootstrap uncertainty."""
        config = self.config
        matrix = Table(title=f"{config.game} score matrix: {config.deals} deals × 2 per pair, seed {config.seed}",
                       caption="row's points per game against column ± standard error, deals as units")
        matrix.add_column("")
        for spec in config.agents:
            matrix.add_column(spec, justify="right")
        for i, spec in enumerate(config.agents):
            matrix.add_row(spec, *["–" if i == j else f"{self.xi[i, j]:.1f} ± {self.se[i, j]:.1f}"
                                   for j in range(len(config.agents))])
        return [matrix, self._intransitivity_table()]

    def _intransitivity_table(self) -> Table:
        table = Table(title="Intransitivity ε (ScrofaZero Eq. 17)",
                      caption="0 transitive, 1 fully intransitive; bootstrap over deals")
        for column in ("ε", "bootstrap SE", "95 % percentile interval", "resamples"):
            table.add_column(column, justify="right")
        if self.intransitivity is None:
            table.add_row("needs three agents", "", "", "")
        elif self.bootstrap is None:
            table.add_row(f"{self.intransitivity:.4f}", "", "", "0")
        else:
            estimate = self.bootstrap
            table.add_row(f"{estimate.value:.4f}", f"{estimate.se:.4f}", f"[{estimate.low:.4f}, {estimate.high:.4f}]",
                          str(estimate.resamples))
        return table


def score_matrix(config: MatrixConfig, progress: bool = True) -> MatrixReport:
    """Play every pair of ``config.agents`` on the same duplicate deals; ξ, its standard errors and ε."""
    started = time.perf_counter()
    n = len(config.agents)
    pairs = list(itertools.combinations(range(n), 2))
    plan = DUPLICATE_PLANS[config.game](config.seed)
    outcomes = play_pairings(plan, [(config.agents[i], config.agents[j]) for i, j in pairs], config.deals,
                             Parallelism.of(config), progress)
    per_deal = np.zeros((n, n, config.deals))
    xi, se = np.zeros((n, n)), np.full((n, n), np.nan)
    summaries = {}
    for (i, j), pair_outcomes in zip(pairs, outcomes, strict=True):
        summary = DuplicateSummary.of(pair_outcomes)
        summaries[(i, j)] = summary
        per_deal[i, j] = per_deal_scores(pair_outcomes)
        per_deal[j, i] = -per_deal[i, j]
        xi[i, j], xi[j, i] = per_deal[i, j].mean(), per_deal[j, i].mean()
        se[i, j] = se[j, i] = np.nan if summary.per_game.se is None else summary.per_game.se
    epsilon = intransitivity(xi) if n >= 3 else None
    bootstrap = None
    if epsilon is not None and config.bootstrap:
        bootstrap = bootstrap_intransitivity(per_deal, config.bootstrap, derive_seed(config.seed, "bootstrap"))
    return MatrixReport(config=config, xi=xi, se=se, pairs=summaries, intransitivity=epsilon, bootstrap=bootstrap,
                        wall_time_s=time.perf_counter() - started, version=__version__)
