"""Gongzhu evaluation: agent A's partnership against agent B's in duplicate play, and WPG.

**Duplicate play** (spec "Evaluation"; ``paiju.eval.team_duplicate``): A plays at seats 0 and 2, B at seats
1 and 3. Deal d is drawn from a seed derived from (seed, d) and played twice: as dealt (seat 0 leads the
first trick), then with every hand and the first lead moved one seat on (``Gongzhu.rotated_state``), so A
holds the hands B held and the game is otherwise the same. A game's points for A are A's team score minus
B's; the report gives their mean per game and per deal pair with standard errors and 95 % t intervals over
deals, and A's wins, draws and losses.

**WPG** (Winning Points over Greed, ScrofaZero §5.2): two copies of an agent as partners against two
Mr. Greeds, 1024 deals × 2 seatings; the figure is A's mean points per game. ``wpg_config`` sets it up.

**Equal time** (``ms``): every agent that takes a time budget (``paiju.eval.timing``: ``scrofazero``, ``search``)
plays with ``ms=N`` milliseconds per decision, the others as they are; the report names both. Each team's median
and 90th-percentile decision time (decisions with a choice, wall time of the agent's ``act``) is reported in any
case, so that equal time can be checked.

**Reproducibility.** Agents are seeded from (seed, deal, hand): the same seed gives the same report for any
number of workers, and an agent whose choices do not depend on seat numbers (``random``) scores exactly 0
on every deal pair against itself (common random numbers: the rotated game replays the first from the
other side; see ``paiju.eval.team_duplicate``). The decision times, and under ``ms`` the results, depend on the
machine as well.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any

from rich.table import Table

from paiju import __version__
from paiju.core.errors import PaijuError
from paiju.eval.checks import check_config, is_positive_integer
from paiju.eval.parallel import Backend, Parallelism
from paiju.eval.team_duplicate import DealOutcome, DuplicatePlan, DuplicateSummary, play_pairings, summary_table
from paiju.eval.timing import DecisionTimes, timed_spec
from paiju.games.gongzhu import Gongzhu, GongzhuState

WPG_OPPONENT = "mr-greed"
"""ScrofaZero §5.1's strongest hand-written player, the yardstick of WPG."""
WPG_DEALS = 1024
"""ScrofaZero §5.2: "we run 1024 × 2 of games"."""


@dataclass(frozen=True, slots=True)
class GongzhuEvalConfig:
    """What to evaluate and how (see the module docstring)."""

    agent_a: str
    """Team A's agent spec (seats 0 and 2), as ``paiju.agents.make_agent`` accepts it."""
    agent_b: str
    """Team B's agent spec (seats 1 and 3)."""
    deals: int = WPG_DEALS
    """Number of deals; each is played twice, the second time rotated one seat."""
    seed: int = 0
    """Master seed: every deal's and every agent's seed derives from it."""
    workers: int = 1
    """Processes playing deals in parallel; the results do not depend on it."""
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the results do not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""
    ms: int | None = None
    """Milliseconds per decision for every agent that takes a time budget (the module docstring); None: the agents
    as named."""

    def __post_init__(self) -> None:
        check_config(self, agents=("agent_a", "agent_b"), counts=("deals", "workers"))
        if self.ms is not None and not is_positive_integer(self.ms):
            raise PaijuError(f"ms must be a positive integer (milliseconds per decision) or None, got {self.ms!r}")
        Parallelism.of(self)  # refuses an unknown backend, or an address without Ray
        _ = self.seated  # refuses a spec that sets its own budget beside ms

    @property
    def seated(self) -> tuple[str, str]:
        """The agents A and B as they play: with ``ms=N`` added where ``ms`` gives them a time budget."""
        if self.ms is None:
            return self.agent_a, self.agent_b
        return timed_spec(self.agent_a, self.ms), timed_spec(self.agent_b, self.ms)

    @property
    def is_wpg(self) -> bool:
        """Whether this is ScrofaZero's WPG setting: against Mr. Greed over 1024 deal pairs."""
        return self.agent_b == WPG_OPPONENT and self.deals == WPG_DEALS

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def wpg_config(agent: str, seed: int = 0, workers: int = 1) -> GongzhuEvalConfig:
    """WPG (ScrofaZero §5.2): ``agent`` and its copy as partners against two Mr. Greeds, 1024 × 2 games."""
    return GongzhuEvalConfig(agent_a=agent, agent_b=WPG_OPPONENT, deals=WPG_DEALS, seed=seed, workers=workers)


def rotated_deal(deal_seed: int, rotation: int) -> GongzhuState:
    """The default-rules game dealt from ``deal_seed``, every seat moved ``rotation`` seats on."""
    return Gongzhu().rotated_state(deal_seed, None, rotation)


def duplicate_plan(seed: int) -> DuplicatePlan:
    """Gongzhu's duplicate deals for master seed ``seed``."""
    return DuplicatePlan(game=Gongzhu(), dealer=rotated_deal, seed=seed)


@dataclass(frozen=True, slots=True)
class GongzhuEvalReport:
    """An evaluation's results: team A's points against team B, per game and per deal pair."""

    config: GongzhuEvalConfig
    summary: DuplicateSummary
    outcomes: tuple[DealOutcome, ...]
    """Every deal's two results, in deal order."""
    wall_time_s: float
    version: str

    @property
    def wpg(self) -> float | None:
        """A's mean points per game when the configuration is WPG's, else None."""
        return self.summary.per_game.value if self.config.is_wpg else None

    @property
    def decision_times(self) -> tuple[DecisionTimes, DecisionTimes]:
        """Team A's and team B's decision times over every deal (``DealOutcome.decision_seconds``)."""
        a, b = ([seconds for outcome in self.outcomes for seconds in outcome.decision_seconds[team]] for team in (0, 1))
        return DecisionTimes.of(a), DecisionTimes.of(b)

    @property
    def time_budget(self) -> dict[str, Any] | None:
        """``ms`` and the agents as played that it timed and did not, or None without ``ms``."""
        if self.config.ms is None:
            return None
        named = (self.config.agent_a, self.config.agent_b)
        seated = dict.fromkeys(self.config.seated)
        return {"ms": self.config.ms, "timed": [spec for spec in seated if spec not in named],
                "untimed": [spec for spec in seated if spec in named]}

    def to_json(self) -> dict[str, Any]:
        a, b = self.decision_times
        return {"paiju_version": self.version, "game": Gongzhu.name, "config": self.config.to_json(),
                "seated": dict(zip("ab", self.config.seated, strict=True)), "time_budget": self.time_budget,
                "wpg": self.wpg, **self.summary.to_json(), "decision_times": {"a": a.to_json(), "b": b.to_json()},
                "wall_time_s": self.wall_time_s}

    def table(self) -> tuple[Table, Table]:
        """Rich tables of the results and of the decision times."""
        config = self.config
        kind = "WPG (ScrofaZero §5.2)" if config.is_wpg else "duplicate"
        title = f"Gongzhu {kind}: {config.deals} deals × 2, seed {config.seed}"
        budget = self.time_budget
        given = f", {config.ms} ms per decision given to every timed agent" if budget else ""
        times = Table(title=f"Decision times{given}",
                      caption="Wall time of each decision with more than one legal card, on this machine.")
        for column in ("team", "agent", "median ms", "p90 ms", "decisions"):
            times.add_column(column, justify="left" if column in ("team", "agent") else "right")
        for team, spec, measured in zip("AB", config.seated, self.decision_times, strict=True):
            untimed = " (no time budget)" if budget and spec in budget["untimed"] else ""
            times.add_row(team, spec + untimed, _ms(measured.median_ms), _ms(measured.p90_ms), str(measured.decisions))
        return summary_table(title, config.seated, self.summary), times


def evaluate_gongzhu(config: GongzhuEvalConfig, progress: bool = True) -> GongzhuEvalReport:
    """Play ``config.deals`` duplicate deal pairs between A and B and summarise them."""
    started = time.perf_counter()
    (outcomes,) = play_pairings(duplicate_plan(config.seed), [config.seated], config.deals, Parallelism.of(config),
                                progress)
    return GongzhuEvalReport(config=config, summary=DuplicateSummary.of(outcomes), outcomes=tuple(outcomes),
                             wall_time_s=time.perf_counter() - started, version=__version__)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
