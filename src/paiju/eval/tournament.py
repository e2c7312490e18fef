"""A round-robin tournament: every pair of agents in a role-swapped DouDizhu evaluation, one table.

Each pairing is an ``evaluate_doudizhu`` run with the tournament's seed, so the decks are the same for
every pairing (duplicate across the whole tournament) and the results are reproducible.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from paiju.eval.doudizhu import DouDizhuEvalConfig, DouDizhuEvalReport, evaluate_doudizhu


def round_robin(agents: Sequence[str], decks: int, seed: int, workers: int = 1, mode: str = "research",
                console: Console | None = None) -> list[DouDizhuEvalReport]:
    """Evaluate every pair of ``agents`` on ``decks`` role-swapped decks; print one summary table."""
    console = console or Console(highlight=False)
    start = time.perf_counter()
    reports = []
    for agent_a, agent_b in itertools.combinations(agents, 2):
        config = DouDizhuEvalConfig(agent_a=agent_a, agent_b=agent_b, decks=decks, mode=mode, seed=seed,
                                    workers=workers)
        reports.append(evaluate_doudizhu(config, progress=True))
    console.print(summary_table(reports, mode, decks, seed))
    console.print(f"{sum(r.games for r in reports)} games in {time.perf_counter() - start:.1f} s. "
                  "WP = share of games won, ADP = mean score per game; 95 % intervals, decks as groups.")
    return reports


def summary_table(reports: Sequence[DouDizhuEvalReport], mode: str, decks: int, seed: int) -> Table:
    """One row per pairing and role of agent A: WP and ADP with intervals, and A's overall ADP."""
    table = Table(title=f"DouDizhu round robin ({mode} mode, {decks} role-swapped decks per pairing, seed {seed})")
    for column in ("A", "B", "A's role", "A's WP [95 % CI]", "A's ADP [95 % CI]"):
        table.add_column(column, justify="left" if column in ("A", "B", "A's role") else "right")
    for report in reports:
        summary = report.agents["A"]
        first = True
        for role, figures in [*summary.roles.items(), ("overall", summary.overall)]:
            table.add_row(report.config.agent_a if first else "", report.config.agent_b if first else "", role,
                          str(figures.wp), str(figures.adp), end_section=role == "overall")
            first = False
    return table
