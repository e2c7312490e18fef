"""A DouDizhu round robin: every pair of agents in a role-swapped duplicate evaluation, with the tables of
PerfectDou's Tables 12 and 13 (the row agent's WP and ADP against the column agent, as landlord and as
peasants) and a heat map of the ADP matrix.

**Pairs.** For agents a_1 … a_n, each pair (a_i, a_j), i < j, is one ``evaluate_doudizhu`` run (role swap) with
a_i as agent A. Every pair uses the tournament's seed, so deck d is the same deal in every pair and a pair that
plays fewer decks plays the first ones: the tournament is duplicate across pairs as well as within each. A pair
plays ``decks`` decks, unless one of its agents' specs starts with a prefix of ``decks_with`` (slow agents such
as ``search``): then the smallest count among the prefixes that match.

**Matrices.** ADP[i][j] is a_i's ADP per game against a_j over all its games of the pair (every role), with
its 95 % interval, decks as groups. The games are zero-sum, so ADP[j][i] = −ADP[i][j], and ADP[i][i] = 0 by
definition. WP[i][j] is a_i's share of games won against a_j; the diagonal is empty.

**Files.** ``write_tournament`` writes ``tournament.json`` (the configuration, the matrices and every pair's full
report), ``tournament.md`` (the matrices and the per-role table in Markdown) and ``tournament.png`` (the heat map).

**Resuming.** Given a folder, ``run_tournament`` saves each pair's report as ``pairs/<A>__<B>.json`` as soon as
the pair is played (each spec percent-encoded, ``_`` included, so that ``__`` separates the two). A later run
reuses a saved report instead of replaying its pair when it was played with the run's agents, decks, mode, seed
and protocol (the number of workers does not change results). A saved report played otherwise is refused before
anything is played, naming the file and the setting: delete it to replay the pair, or use another folder. Files
are named by pair order: listing the agents in another order plays the reversed pairs afresh.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from rich.console import Console
from rich.table import Table

from paiju import __version__
from paiju.core.errors import PaijuError
from paiju.eval.checks import check_config, check_lineup, is_positive_integer
from paiju.eval.doudizhu import LABELS, AgentSummary, DouDizhuEvalConfig, check_agent, evaluate_doudizhu
from paiju.eval.parallel import Backend
from paiju.eval.stats import Estimate
from paiju.games.doudizhu.rules import Mode

PAIRS_FOLDER = "pairs"
"""Where, in a tournament's folder, each pair's report is saved as it finishes."""
SETTINGS = ("agent_a", "agent_b", "decks", "mode", "seed", "protocol")
"""The fields of a pair's configuration that decide its games: a saved report is reused only when they agree."""
FILE_PART_LIMIT = 100
"""Longest encoded spec in a pair file name; a longer one is cut short and ends with a hash of the spec."""
PLOT_LABEL_LIMIT = 24
"""Longest agent spec written whole on the heat map's axes."""
_FILE_SAFE = frozenset(string.ascii_letters + string.digits + ".-")

Diagonal = TypeVar("Diagonal")


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Who plays, on how many decks, under which rules (see the module docstring)."""

    agents: tuple[str, ...]
    """At least two distinct DouDizhu agent specs; the tables list them in this order."""
    decks: int = 1000
    """Role-swapped decks per pair (two games each in research mode, six in full mode)."""
    mode: Mode = "research"
    """``research``: seat 0 is the landlord, no bidding; ``full``: bidding and full scoring."""
    seed: int = 0
    """Master seed of every pair: the same decks and agent seeds in every pair."""
    workers: int = 1
    """Processes playing decks in parallel; the results do not depend on it."""
    decks_with: tuple[tuple[str, int], ...] = ()
    """(spec prefix, decks): pairs with an agent whose spec starts with the prefix play that many decks."""
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the results do not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""

    def __post_init__(self) -> None:
        check_lineup(self.agents, "a tournament")
        check_config(self, counts=("decks", "workers"))
        for spec in self.agents:
            check_agent(spec, "the tournament")
        for override in self.decks_with:
            if not (isinstance(override, tuple) and len(override) == 2 and isinstance(override[0], str)
                    and override[0] and is_positive_integer(override[1])):
                raise PaijuError(f"a deck count override must be (spec prefix, positive decks), got {override!r}")
            prefix, count = override
            if not any(spec.startswith(prefix) for spec in self.agents):
                raise PaijuError(f"the deck count override {prefix}={count} matches no agent of the tournament; "
                                 f"agents: {', '.join(self.agents)}")
        self.pairings()  # each pair's configuration checks the mode

    def decks_for(self, agent_a: str, agent_b: str) -> int:
        """The decks the pair plays: the smallest override whose prefix starts either spec, else ``decks``."""
        return min((count for prefix, count in self.decks_with
                    if agent_a.startswith(prefix) or agent_b.startswith(prefix)), default=self.decks)

    def pairings(self) -> list[DouDizhuEvalConfig]:
        """Each pair's evaluation, in ``itertools.combinations`` order of ``agents``."""
        return [DouDizhuEvalConfig(agent_a=a, agent_b=b, decks=self.decks_for(a, b), mode=self.mode,
                                   seed=self.seed, workers=self.workers, backend=self.backend, address=self.address)
                for a, b in itertools.combinations(self.agents, 2)]

    def decks_text(self) -> str:
        """The deck counts in words, e.g. ``20 decks per pair (5 in pairs with an agent 'search…')``."""
        overrides = [f"{count} in pairs with an agent '{prefix}…'" for prefix, count in self.decks_with]
        return f"{self.decks} decks per pair" + (f" ({'; '.join(overrides)})" if overrides else "")

    def to_json(self) -> dict[str, Any]:
        return {"agents": list(self.agents), "decks": self.decks, "mode": self.mode, "seed": self.seed,
                "workers": self.workers, "decks_with": {prefix: count for prefix, count in self.decks_with},
                "backend": self.backend, "address": self.address}


def parse_decks_with(text: str) -> tuple[str, int]:
    """``SPEC=N`` as (SPEC, N); the last ``=`` splits, since agent specs may hold ``=`` themselves."""
    prefix, equals, count = text.rpartition("=")
    if not equals or not prefix or not (count.isascii() and count.isdigit()) or int(count) < 1:
        raise PaijuError(f"--decks-with must be SPEC=N with N a positive number of decks, got {text!r}")
    return prefix, int(count)


@dataclass(frozen=True, slots=True)
class PairResult:
    """One pair's evaluation as the tournament uses it: its configuration, both agents' figures, its report."""

    config: DouDizhuEvalConfig
    agents: dict[str, AgentSummary]
    """Keyed by ``A`` and ``B``."""
    report: dict[str, Any]
    """The full report (``DouDizhuEvalReport.to_json``), as its pair file holds it."""
    reused: bool
    """Read from the pair file of an earlier run rather than played by this one."""

    @classmethod
    def from_json(cls, report: dict[str, Any], reused: bool) -> PairResult:
        """The pair that the report ``report`` describes."""
        return cls(DouDizhuEvalConfig(**report["config"]),
                   {label: AgentSummary.from_json(report["agents"][label]) for label in LABELS}, report, reused)

    def summary(self, spec: str) -> AgentSummary:
        """The figures of the agent ``spec`` (one of the pair's two)."""
        return self.agents["A" if spec == self.config.agent_a else "B"]


class _Section(NamedTuple):
    """One table of the report, rendered alike in Markdown and for the terminal."""

    title: str
    header: list[str]
    left: int
    """How many leading columns hold names (left-aligned); the others hold figures."""
    rows: list[tuple[list[str], bool]]
    """Each row's cells, and whether it closes a group of rows."""


@dataclass(frozen=True, slots=True)
class TournamentReport:
    """Every pair's results, the ADP and WP matrices and the per-role table."""

    config: TournamentConfig
    pairs: list[PairResult]
    """In ``TournamentConfig.pairings`` order."""
    version: str

    @property
    def games(self) -> int:
        """Games played over all pairs."""
        return sum(pair.report["games"] for pair in self.pairs)

    def pair(self, agent: str, opponent: str) -> PairResult:
        """The pair in which ``agent`` met ``opponent``, whichever was A."""
        return next(pair for pair in self.pairs if {pair.config.agent_a, pair.config.agent_b} == {agent, opponent})

    def adp_matrix(self) -> list[list[Estimate]]:
        """ADP[i][j]: agent i's ADP per game against agent j, every role; antisymmetric, 0 on the diagonal."""
        return self._matrix(lambda summary: summary.overall.adp, Estimate(0.0, None, None, 0))

    def wp_matrix(self) -> list[list[Estimate | None]]:
        """WP[i][j]: agent i's share of games won against agent j, every role; None on the diagonal."""
        return self._matrix(lambda summary: summary.overall.wp, None)

    def decks_matrix(self) -> list[list[int | None]]:
        """The decks each pair played; None on the diagonal."""
        agents = self.config.agents
        return [[None if row == column else self.pair(row, column).config.decks for column in agents]
                for row in agents]

    def _matrix(self, figure: Callable[[AgentSummary], Estimate],
                diagonal: Diagonal) -> list[list[Estimate | Diagonal]]:
        agents = self.config.agents
        return [[diagonal if row == column else figure(self.pair(row, column).summary(row)) for column in agents]
                for row in agents]

    def to_json(self) -> dict[str, Any]:
        """The configuration, the matrices (rows and columns in ``agents`` order) and every pair's report."""
        return {
            "paiju_version": self.version, "config": self.config.to_json(), "agents": list(self.config.agents),
            "games": self.games,
            "matrices": {"adp": [[cell.to_json() for cell in row] for row in self.adp_matrix()],
                         "wp": [[None if cell is None else cell.to_json() for cell in row] for row in self.wp_matrix()],
                         "decks": self.decks_matrix()},
            "pairs": [{"agent_a": pair.config.agent_a, "agent_b": pair.config.agent_b, "decks": pair.config.decks,
                       "reused": pair.reused, "report": pair.report} for pair in self.pairs],
        }

    def markdown(self) -> str:
        """The matrices and the per-role table as a Markdown document."""
        lines = ["# DouDizhu round robin", "", self._caption()]
        for section in self._sections():
            lines += ["", f"## {section.title}", "", _markdown_row(section.header),
                      _markdown_row([":--" if index < section.left else "--:"
                                     for index in range(len(section.header))])]
            lines += [_markdown_row(cells) for cells, _ in section.rows]
        return "\n".join(lines) + "\n"

    def table(self) -> list[Table]:
        """The same tables for the terminal (rich)."""
        tables = []
        for section in self._sections():
            table = Table(title=section.title)
            for index, column in enumerate(section.header):
                table.add_column(column, justify="left" if index < section.left else "right")
            for cells, closes in section.rows:
                table.add_row(*cells, end_section=closes)
            tables.append(table)
        tables[-1].caption = self._caption()
        return tables

    def _caption(self) -> str:
        config = self.config
        return (f"{config.mode} mode, seed {config.seed}, role-swapped duplicate, the same decks in every pair: "
                f"{config.decks_text()}; {len(self.pairs)} pairs, {self.games} games. WP = share of games won, "
                "ADP = mean score per game; 95 % intervals with decks as groups: WP Wilson, ADP t.")

    def _sections(self) -> list[_Section]:
        header = ["agent \\ opponent", *self.config.agents]
        return [
            _Section("ADP per game of the row agent against the column agent [95 % CI]", header, 1,
                     self._matrix_rows(self.adp_matrix())),
            _Section("WP of the row agent against the column agent [95 % CI]", header, 1,
                     self._matrix_rows(self.wp_matrix())),
            _Section("By role (PerfectDou Tables 12 and 13)",
                     ["agent", "opponent", "role", "decks", "WP [95 % CI]", "ADP [95 % CI]"], 3, self._role_rows()),
        ]

    def _matrix_rows(self, matrix: Sequence[Sequence[Estimate | None]]) -> list[tuple[list[str], bool]]:
        return [([spec, *("–" if row == column else str(cell) for column, cell in enumerate(cells))], False)
                for row, (spec, cells) in enumerate(zip(self.config.agents, matrix, strict=True))]

    def _role_rows(self) -> list[tuple[list[str], bool]]:
        """Each agent against each opponent: its roles, then overall."""
        rows = []
        for agent, opponent in itertools.permutations(self.config.agents, 2):
            pair = self.pair(agent, opponent)
            summary = pair.summary(agent)
            for role, figures in [*summary.roles.items(), ("overall", summary.overall)]:
                rows.append(([agent, opponent, role, str(pair.config.decks), str(figures.wp), str(figures.adp)],
                             role == "overall"))
        return rows


def run_tournament(config: TournamentConfig, folder: Path | None = None,
                   console: Console | None = None) -> TournamentReport:
    """Play every pair of ``config``. With ``folder``, each pair's report is saved under ``folder/pairs`` as it
    finishes and the saved reports of an earlier run with the same settings are reused (module docstring).
    ``console`` shows each pair and its progress."""
    pairings = config.pairings()
    files = [None if folder is None else folder / PAIRS_FOLDER / pair_file_name(p.agent_a, p.agent_b)
             for p in pairings]
    saved = {index: _load_pair(path, pairing) for index, (pairing, path) in enumerate(zip(pairings, files, strict=True))
             if path is not None and path.exists()}  # every saved pair is checked before anything is played
    pairs = []
    for index, (pairing, path) in enumerate(zip(pairings, files, strict=True)):
        heading = f"pair {index + 1}/{len(pairings)}: {pairing.agent_a} against {pairing.agent_b}"
        if index in saved:
            _say(console, f"{heading}: reused {path}")
            pairs.append(saved[index])
            continue
        _say(console, f"{heading}, {pairing.decks} decks")
        report = evaluate_doudizhu(pairing, progress=console is not None).to_json()
        if path is not None:
            _save(path, report)
        pairs.append(PairResult.from_json(report, reused=False))
    return TournamentReport(config=config, pairs=pairs, version=__version__)


def write_tournament(report: TournamentReport, folder: Path) -> list[Path]:
    """Write ``tournament.json``, ``tournament.md`` and ``tournament.png`` into ``folder``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    json_path, markdown_path = folder / "tournament.json", folder / "tournament.md"
    json_path.write_text(json.dumps(report.to_json(), indent=2) + "\n")
    markdown_path.write_text(report.markdown())
    return [json_path, markdown_path, plot_tournament(report, folder / "tournament.png")]


def plot_tournament(report: TournamentReport, out: Path) -> Path:
    """A heat map of the ADP matrix into ``out``: row agent against column agent, each cell annotated with the
    ADP, its 95 % interval and the decks; a diverging colour map centred at 0 (blue: the row agent wins)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matrix, decks = report.adp_matrix(), report.decks_matrix()
    labels = [_short(spec) for spec in report.config.agents]
    limit = max(max(abs(cell.value) for row in matrix for cell in row), 1e-9)
    side = 2.5 + 1.5 * len(labels)
    figure, axis = plt.subplots(figsize=(side + 1.5, side), constrained_layout=True)
    image = axis.imshow([[cell.value for cell in row] for row in matrix], cmap="RdBu", vmin=-limit, vmax=limit)
    for row, cells in enumerate(matrix):
        for column, cell in enumerate(cells):
            text = "–" if row == column else f"{cell.value:+.2f}\n{_interval(cell)}\n{decks[row][column]} decks"
            axis.text(column, row, text, ha="center", va="center", fontsize=9,
                      color="white" if abs(cell.value) > 0.6 * limit else "black")
    axis.set_xticks(range(len(labels)), labels=labels, rotation=30, ha="right")
    axis.set_yticks(range(len(labels)), labels=labels)
    axis.set_xlabel("opponent (column agent)")
    axis.set_ylabel("agent (row)")
    figure.colorbar(image, ax=axis, label="row agent's ADP per game")
    config = report.config
    axis.set_title(f"DouDizhu round robin: ADP per game\n{config.mode} mode, seed {config.seed}", fontsize=10)
    figure.savefig(out, dpi=100)
    plt.close(figure)
    return out


def pair_file_name(agent_a: str, agent_b: str) -> str:
    """``<A>__<B>.json``, each spec percent-encoded but for letters, digits, ``.`` and ``-``."""
    return f"{_file_part(agent_a)}__{_file_part(agent_b)}.json"


def _file_part(spec: str) -> str:
    encoded = "".join(char if char in _FILE_SAFE else "".join(f"%{byte:02X}" for byte in char.encode())
                      for char in spec)
    if len(encoded) <= FILE_PART_LIMIT:
        return encoded
    return f"{encoded[:FILE_PART_LIMIT - 17]}-{hashlib.sha256(spec.encode()).hexdigest()[:16]}"


def _load_pair(path: Path, pairing: DouDizhuEvalConfig) -> PairResult:
    """The pair saved at ``path``; a ``PaijuError`` naming the file when it is unreadable or played otherwise."""
    try:
        pair = PairResult.from_json(json.loads(path.read_text()), reused=True)
    except (OSError, ValueError, LookupError, TypeError, AttributeError, PaijuError) as error:
        raise PaijuError(f"{path} is not a readable pair report ({error}); delete it to replay the pair") from None
    differ = [f"{name} {getattr(pair.config, name)!r}, not {getattr(pairing, name)!r}"
              for name in SETTINGS if getattr(pair.config, name) != getattr(pairing, name)]
    if differ:
        raise PaijuError(f"{path} was played with other settings ({'; '.join(differ)}): delete it to replay "
                         "the pair, or write the tournament to another folder")
    return pair


def _save(path: Path, report: dict[str, Any]) -> None:
    """Write ``report`` to ``path`` whole or not at all (an interrupted run leaves no half-written pair)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_text(json.dumps(report, indent=2) + "\n")
    os.replace(partial, path)


def _say(console: Console | None, line: str) -> None:
    if console is not None:
        console.print(line, markup=False, highlight=False)


def _markdown_row(cells: list[str]) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _short(spec: str) -> str:
    """``spec`` cut to ``PLOT_LABEL_LIMIT`` characters for an axis label (the tables give it whole)."""
    return spec if len(spec) <= PLOT_LABEL_LIMIT else spec[:PLOT_LABEL_LIMIT - 1] + "…"


def _interval(estimate: Estimate) -> str:
    return "" if estimate.low is None or estimate.high is None else f"[{estimate.low:+.2f}, {estimate.high:+.2f}]"
