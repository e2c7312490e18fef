"""Duplicate evaluation of two GuanDan teams (spec "A round", DanZero §III for the round results).

Team A's agent holds seats 0 and 2 (team 0), team B's seats 1 and 3. Each deal seed gives a whole game —
every round's deal from it — played twice: as dealt, then with every deal rotated one seat
(``GuanDan.rotated_state``), so each team holds each set of hands once (``paiju.eval.team_duplicate``).
``rounds=None`` plays each game until a team wins at A; ``rounds=N`` plays N rounds (``rounds=1``: the quick
single-round comparison, every round at ``start_level``).

Reported for team A, with deal pairs as the independent units (``paiju.eval.stats``): the game win rate
(Wilson interval at the duplicate design's effective size), the mean round result per round (+3 / +2 / +1
when A's first player is joined by its partner 2nd / 3rd / 4th, the negative when B's is; t interval) — the
levels A gains per round minus those B gains, before the cap at A — and the distribution of round outcomes.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from rich.table import Table

from paiju import __version__
from paiju.core.registry import load_game
from paiju.eval.checks import check_config
from paiju.eval.parallel import Backend, Parallelism
from paiju.eval.stats import Estimate, duplicate_mean, duplicate_rate
from paiju.eval.team_duplicate import DealOutcome, DuplicatePlan, play_pairings
from paiju.games.guandan import GuanDanRules, GuanDanState

OUTCOMES = (3, 2, 1, -1, -2, -3)
"""Round results for team A, best first."""


@dataclass(frozen=True, slots=True)
class GuanDanEvalConfig:
    """What to evaluate: team A against team B on ``deals`` seeded deals, each played twice."""

    agent_a: str
    """Agent spec of team A (seats 0 and 2): ``random``, ``rules``, ``ext:COMMAND`` ..."""
    agent_b: str
    """Agent spec of team B (seats 1 and 3)."""
    deals: int = 500
    """Deal seeds; each gives one game played twice (as dealt, then rotated one seat)."""
    seed: int = 0
    """Master seed of deals and agents."""
    workers: int = 1
    """Processes playing deals in parallel; the results do not depend on it."""
    rounds: int | None = None
    """Rounds per game: None plays until a team wins at A; 1 is the quick single-round comparison."""
    start_level: str = "2"
    """Level of the first round."""
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the results do not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""

    def __post_init__(self) -> None:
        check_config(self, agents=("agent_a", "agent_b"), counts=("deals", "workers"))
        Parallelism.of(self)  # refuses an unknown backend, or an address without Ray
        self.rules()  # refuses bad rounds / start_level with the ruleset's own message

    def rules(self) -> GuanDanRules:
        return GuanDanRules(rounds=self.rounds, start_level=self.start_level)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def rotated_game(rules: GuanDanRules, deal_seed: int, rotation: int) -> GuanDanState:
    """The game of ``deal_seed`` with every deal moved ``rotation`` seats on."""
    return load_game("guandan").rotated_state(deal_seed, rules, rotation)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class GuanDanEvalReport:
    """Team A's game win rate, mean round result, round outcome distribution; every deal's outcomes."""

    config: GuanDanEvalConfig
    games: int
    rounds: int
    game_wins: Estimate
    round_result: Estimate
    levels_gained: tuple[Estimate, Estimate]
    """Mean levels each team's round wins promote it per round (A, B), before the cap at A."""
    outcomes: dict[int, int]
    """Round result for team A -> number of rounds."""
    deal_outcomes: tuple[DealOutcome, ...]
    wall_time_s: float
    version: str

    def to_json(self) -> dict[str, Any]:
        return {"paiju_version": self.version, "config": self.config.to_json(), "games": self.games,
                "rounds": self.rounds, "game_win_rate": self.game_wins.to_json(),
                "round_result": self.round_result.to_json(),
                "levels_gained_per_round": {"A": self.levels_gained[0].to_json(), "B": self.levels_gained[1].to_json()},
                "round_outcomes": {f"{r:+d}": self.outcomes.get(r, 0) for r in OUTCOMES},
                "deal_results": [list(o.results) for o in self.deal_outcomes], "wall_time_s": self.wall_time_s}

    def table(self) -> Table:
        config = self.config
        mode = "until a team wins at A" if config.rounds is None else f"{config.rounds} round(s) per game"
        table = Table(title=f"GuanDan duplicate: {config.deals} deals × 2 ({mode}), seed {config.seed}",
                      caption="Team A = seats 0+2. 95 % intervals with deals as independent units. A round's "
                              "result: +3/+2/+1 when A's first player's partner is 2nd/3rd/4th, negative for B.")
        table.add_column("team A − team B")
        table.add_column("value", justify="right")
        table.add_row("A", config.agent_a)
        table.add_row("B", config.agent_b, end_section=True)
        table.add_row(f"A's game win rate ({self.games} games)", str(self.game_wins))
        table.add_row(f"A's mean round result ({self.rounds} rounds)", str(self.round_result))
        table.add_row("levels gained per round, A", str(self.levels_gained[0]))
        table.add_row("levels gained per round, B", str(self.levels_gained[1]), end_section=True)
        for result in OUTCOMES:
            count = self.outcomes.get(result, 0)
            table.add_row(f"rounds {result:+d} for A", f"{count} ({count / max(1, self.rounds):.1%})")
        return table


def evaluate_guandan(config: GuanDanEvalConfig, progress: bool = True) -> GuanDanEvalReport:
    """Play ``config.deals`` duplicate deal pairs between A and B and summarise them."""
    started = time.perf_counter()
    plan = DuplicatePlan(load_game("guandan"), partial(rotated_game, config.rules()), config.seed,
                         keep_results=True)
    (outcomes,) = play_pairings(plan, [(config.agent_a, config.agent_b)], config.deals, Parallelism.of(config),
                                 progress)
    wins = [[payoff > 0 for payoff in outcome.results] for outcome in outcomes]
    round_results = [[r["scores"][0] for game in outcome.summaries for r in game["rounds"]] for outcome in outcomes]
    counts = Counter(result for deal in round_results for result in deal)
    return GuanDanEvalReport(
        config=config, games=2 * len(outcomes), rounds=sum(counts.values()), game_wins=duplicate_rate(wins),
        round_result=duplicate_mean(round_results),
        levels_gained=(duplicate_mean([[max(r, 0) for r in deal] for deal in round_results]),
                       duplicate_mean([[max(-r, 0) for r in deal] for deal in round_results])),
        outcomes=dict(counts), deal_outcomes=tuple(outcomes),
        wall_time_s=time.perf_counter() - started, version=__version__)
