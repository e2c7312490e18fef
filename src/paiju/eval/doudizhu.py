"""Head-to-head DouDizhu evaluation of two agents, A and B, on seeded decks (spec "Evaluation protocols").

**Role-swapped duplicate** (``protocol="role-swap"``, DouZero / PerfectDou). Deck ``d`` is dealt from a
seed derived from (seed, d) and played several times with the agents in swapped places:

- research mode (no bidding, seat 0 is the landlord): twice — A at seat 0 against B at seats 1 and 2,
  then B at seat 0 against A at seats 1 and 2;
- full mode: bidding decides the landlord, so no seat holds "the landlord's cards" before play. The deck
  is played six times: for each seat k, A alone at k against B at the other two seats, then B alone at k
  against A. Over the six games each agent holds every seat's cards three times (alone once, as one of a
  pair twice) and bids first from that seat as often as the other, so the deck favours neither agent.
  When the agent playing alone wins the bidding, the game is a pure landlord-against-peasants contest;
  when one of the pair wins it, the lone agent is a peasant beside a copy of its opponent ("mixed").

**Two-table duplicate** (``protocol="two-table"``, DeepRocket appendix B). No bidding: the referee fixes
the landlord seat — seat 0 in research mode; in full mode the deal's first bidder, bidding 3 on the
referee's behalf (DeepRocket's base score 3, spring doubling applies). Table 1: A's landlord against B's
peasants; table 2: B's landlord against A's peasants, the same cards in the same seats. The team whose
landlords' cumulative score is higher wins; the per-deck difference of landlord scores gets a t interval.
In research mode the games are exactly those of the role swap; only the summary differs.

**Scores.** An agent's score in a game is the sum of the payoffs of the seats it holds, and it wins the
game when that score is positive. In pure games this is the spec's side score (the landlord's payoff, or
both peasants' payoffs added); in a mixed game the agent holding the landlord seat wins exactly when the
landlord wins. Games are zero-sum between A and B, so A's overall ADP is −B's and their WPs add up to 1.

**Paired figure.** A's duplicate score per deck is the sum of A's scores over the deck's games (research
mode: A's landlord game plus A's peasant game); its mean over decks, with a t interval, is the single number
that compares A with B deck by deck (0 when A and B play alike). The JSON report lists every deck's games
(``per_deck``), so any two reports on the same seed can be compared deck by deck.

**Intervals** (95 %): WP with Wilson's interval, ADP with Student's t interval. A deck's games are
correlated (the same cards, seen from both sides), so every interval takes the decks as the independent
groups (``paiju.eval.stats.duplicate_rate`` / ``duplicate_mean``): with one game per deck, as for each role
in research mode, these are the textbook intervals; over all of a deck's role-swapped games they are
duplicate intervals, narrower than intervals for independent games to the extent that the swap cancels
the luck of the deal.

**Reproducibility.** Deck d is dealt from ``derive_seed(seed, "deck", d)``; the agent at seat s gets, in every
game of deck d, the seed ``derive_seed(seed, "agent", d, s)`` whichever agent it is (``paiju.eval.seeds``):
built afresh with it, or, for an external program kept running from game to game, sent it in the game's
``start`` (``paiju.eval.seating``). Results are identical for any number of workers and any backend. These common random
numbers make an agent evaluated against itself replay identical games: its duplicate difference is 0.
Workers are spawned processes; they know the agents that ``paiju.agents`` registers when imported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any, Literal

from rich.table import Table

from paiju import __version__
from paiju.agents import agent_names
from paiju.core.errors import PaijuError
from paiju.core.game import Game
from paiju.core.registry import load_game
from paiju.eval.behaviour import BehaviourSummary, GameBehaviour
from paiju.eval.checks import check_config
from paiju.eval.parallel import Backend, Parallelism, map_units
from paiju.eval.seating import close_kept_agents, play_seated
from paiju.eval.seeds import derive_seed
from paiju.eval.stats import Estimate, duplicate_mean, duplicate_rate, mean_interval, paired_difference
from paiju.games.doudizhu import DouDizhu, DouDizhuRules, DouDizhuState
from paiju.games.doudizhu.observation import POSITIONS
from paiju.games.doudizhu.rules import Mode

Protocol = Literal["role-swap", "two-table"]
PROTOCOLS: tuple[Protocol, ...] = ("role-swap", "two-table")
LABELS = ("A", "B")
ROLES = ("landlord", "peasants", "mixed")
"""An agent's role in one game: alone as landlord, holding both peasant seats, or sharing a side with its
opponent (full-mode role swap only)."""
REFEREE_BID = 3
"""DeepRocket appendix B's duplicate mode: no bidding, base score 3."""


@dataclass(frozen=True, slots=True)
class DouDizhuEvalConfig:
    """What to evaluate and how (see the module docstring for the protocols)."""

    agent_a: str
    """Agent A's spec, as ``paiju.agents.make_agent`` accepts it (``random``, ``rules``, ``ext:CMD``)."""
    agent_b: str
    """Agent B's spec."""
    decks: int = 1000
    """Number of decks (deals); each is played 2 times (6 in full-mode role swap)."""
    mode: Mode = "research"
    """``research``: seat 0 is the landlord, no bidding; ``full``: bidding and full scoring."""
    seed: int = 0
    """Master seed: every deal and every agent's seed derives from it."""
    workers: int = 1
    """Processes playing decks in parallel; the results do not depend on it."""
    protocol: Protocol = "role-swap"
    """``role-swap`` (DouZero / PerfectDou) or ``two-table`` (DeepRocket appendix B)."""
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the results do not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Ruleset options but the mode (``DouDizhuRules``; ``{"laizi": true}``: 癞子)."""

    def __post_init__(self) -> None:
        check_config(self, agents=("agent_a", "agent_b"), counts=("decks", "workers"))
        Parallelism.of(self)  # refuses an unknown backend, or an address without Ray
        if self.mode not in ("research", "full"):
            raise PaijuError(f"unknown DouDizhu mode {self.mode!r}; use 'research' or 'full'")
        _ = self.ruleset  # refuses unknown or ill-typed options
        if self.protocol not in PROTOCOLS:
            raise PaijuError(f"unknown evaluation protocol {self.protocol!r}; use {' or '.join(PROTOCOLS)}")

    @property
    def ruleset(self) -> DouDizhuRules:
        return DouDizhuRules.from_json({**self.rules, "mode": self.mode})

    def spec(self, label: str) -> str:
        """The agent spec playing under ``label`` ("A" or "B")."""
        return self.agent_a if label == "A" else self.agent_b

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game: who sat where (``seats`` holds "A"/"B" by seat), the landlord, payoffs, behaviour."""

    deck: int
    seats: tuple[str, str, str]
    landlord: int
    payoffs: tuple[float, ...]
    behaviour: GameBehaviour

    def score(self, label: str) -> float:
        """The sum of the payoffs of the seats ``label`` holds."""
        return sum(p for seat, p in enumerate(self.payoffs) if self.seats[seat] == label)

    def role(self, label: str) -> str:
        """``landlord``, ``peasants`` or ``mixed`` (see ``ROLES``)."""
        held = [seat for seat in range(3) if self.seats[seat] == label]
        if held == [self.landlord]:
            return "landlord"
        if len(held) == 2 and self.landlord not in held:
            return "peasants"
        return "mixed"

    def to_json(self) -> dict[str, Any]:
        """``{"seats": "ABB", "landlord", "payoffs"}``."""
        return {"seats": "".join(self.seats), "landlord": self.landlord, "payoffs": list(self.payoffs)}

    @property
    def lineup(self) -> str:
        """Who holds the landlord, down and up seats, e.g. ``A/B/B``."""
        return "/".join(self.seats[(self.landlord + p) % 3] for p in range(len(POSITIONS)))


@dataclass(frozen=True, slots=True)
class RoleSummary:
    """One agent's results over a set of games: games, wins, WP (Wilson) and ADP (t), with decks as groups."""

    games: int
    wins: int
    wp: Estimate
    adp: Estimate

    @classmethod
    def of(cls, label: str, decks: Sequence[Sequence[GameOutcome]]) -> RoleSummary:
        """``label``'s results over ``decks`` (each a list of that deck's games to count, possibly empty)."""
        scores = [[g.score(label) for g in deck] for deck in decks]
        wins = sum(1 for deck in scores for s in deck if s > 0)
        return cls(sum(len(deck) for deck in scores), wins, duplicate_rate([[s > 0 for s in deck] for deck in scores]),
                   duplicate_mean(scores))

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": self.wins, "wp": self.wp.to_json(), "adp": self.adp.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoleSummary:
        """The summary that ``to_json`` wrote."""
        return cls(data["games"], data["wins"], Estimate.from_json(data["wp"]), Estimate.from_json(data["adp"]))


@dataclass(frozen=True, slots=True)
class AgentSummary:
    """One agent's results by role and overall."""

    spec: str
    roles: dict[str, RoleSummary]
    """Keyed by the roles the agent played (``ROLES`` order)."""
    overall: RoleSummary

    @classmethod
    def of(cls, label: str, spec: str, decks: Sequence[Sequence[GameOutcome]]) -> AgentSummary:
        roles = {}
        for role in ROLES:
            in_role = [[g for g in deck if g.role(label) == role] for deck in decks]
            if any(in_role):
                roles[role] = RoleSummary.of(label, in_role)
        return cls(spec, roles, RoleSummary.of(label, decks))

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "overall": self.overall.to_json(),
                "roles": {role: summary.to_json() for role, summary in self.roles.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AgentSummary:
        """The summary that ``to_json`` wrote."""
        return cls(data["spec"], {role: RoleSummary.from_json(summary) for role, summary in data["roles"].items()},
                   RoleSummary.from_json(data["overall"]))


@dataclass(frozen=True, slots=True)
class TwoTableSummary:
    """DeepRocket appendix B: each team's cumulative landlord score, the winner, and the per-deck difference."""

    landlord_score_a: float
    landlord_score_b: float
    difference: Estimate
    """Mean over decks of (A's landlord score − B's landlord score), with its t interval."""

    @property
    def winner(self) -> str:
        """``A``, ``B`` or ``tie``: the team whose landlords scored more in total."""
        if self.landlord_score_a == self.landlord_score_b:
            return "tie"
        return "A" if self.landlord_score_a > self.landlord_score_b else "B"

    @classmethod
    def of(cls, decks: Sequence[Sequence[GameOutcome]]) -> TwoTableSummary:
        by_team = {label: [_landlord_score(deck, label) for deck in decks] for label in LABELS}
        return cls(sum(by_team["A"]), sum(by_team["B"]), paired_difference(by_team["A"], by_team["B"]))

    def to_json(self) -> dict[str, Any]:
        return {"landlord_score_a": self.landlord_score_a, "landlord_score_b": self.landlord_score_b,
                "winner": self.winner, "difference": self.difference.to_json()}


@dataclass(frozen=True, slots=True)
class DouDizhuEvalReport:
    """Everything an evaluation found: per-agent figures, the two-table summary, behaviour by lineup."""

    config: DouDizhuEvalConfig
    games: int
    agents: dict[str, AgentSummary]
    """Keyed by ``A`` and ``B``."""
    behaviour: dict[str, BehaviourSummary]
    """Keyed by lineup (``A/B/B``: who held the landlord, down and up seats)."""
    two_table: TwoTableSummary | None
    wall_time_s: float
    version: str
    per_deck: list[list[GameOutcome]]
    """Every deck's games, in deck order."""

    @property
    def duplicate_score(self) -> Estimate:
        """A's duplicate score per deck (the sum of A's scores over the deck's games), mean over decks, t."""
        return mean_interval([sum(game.score("A") for game in deck) for deck in self.per_deck])

    def to_json(self) -> dict[str, Any]:
        return {
            "paiju_version": self.version, "config": self.config.to_json(), "decks": self.config.decks,
            "games": self.games, "agents": {label: a.to_json() for label, a in self.agents.items()},
            "duplicate_score_a": self.duplicate_score.to_json(),
            "two_table": None if self.two_table is None else self.two_table.to_json(),
            "behaviour": {lineup: b.to_json() for lineup, b in self.behaviour.items()},
            "per_deck": [{"deck": deck[0].deck, "games": [game.to_json() for game in deck]}
                         for deck in self.per_deck if deck],
            "wall_time_s": self.wall_time_s,
        }

    def table(self) -> list[Table]:
        """Rich tables for printing: results by agent and role, the two-table summary, behaviour."""
        tables = [self._results_table()]
        if self.two_table is not None:
            tables.append(self._two_table_table(self.two_table))
        tables.append(self._behaviour_table())
        return tables

    def _results_table(self) -> Table:
        config = self.config
        variant = "癞子 " if config.ruleset.laizi else ""
        table = Table(title=f"DouDizhu {variant}{config.mode}, {config.protocol}: {config.decks} decks, "
                            f"{self.games} games, seed {config.seed}",
                      caption="95 % intervals with decks as independent groups: WP Wilson, ADP t")
        for column in ("agent", "role", "games", "WP [95 % CI]", "ADP [95 % CI]"):
            table.add_column(column, justify="left" if column in ("agent", "role") else "right")
        for label, agent in self.agents.items():
            name = f"{label}: {agent.spec}"
            for role, summary in agent.roles.items():
                table.add_row(name, role, str(summary.games), str(summary.wp), str(summary.adp))
                name = ""
            overall = agent.overall
            table.add_row(name, "overall", str(overall.games), str(overall.wp), str(overall.adp), end_section=True)
        table.add_row("A − B", "per deck", str(self.config.decks), "", f"{self.duplicate_score} (A's duplicate score)")
        return table

    def _two_table_table(self, summary: TwoTableSummary) -> Table:
        table = Table(title=f"Two-table duplicate (DeepRocket appendix B): winner {summary.winner}")
        table.add_column("team")
        table.add_column("cumulative landlord score", justify="right")
        for label, score in (("A", summary.landlord_score_a), ("B", summary.landlord_score_b)):
            table.add_row(f"{label}: {self.agents[label].spec}", f"{score:g}")
        table.add_row("A − B per deck [95 % CI]", str(summary.difference))
        return table

    def _behaviour_table(self) -> Table:
        """One column per lineup, one row per statistic (narrow enough for a terminal)."""
        table = Table(title="Behaviour per game (PerfectDou Table 8 style)",
                      caption="lineup: who held landlord/down/up; bombs include rockets; "
                              "control: tricks won by the landlord")
        table.add_column("statistic")
        for lineup in self.behaviour:
            table.add_column(lineup, justify="right")
        summaries = list(self.behaviour.values())
        rows: list[tuple[str, list[str]]] = [
            ("games", [str(b.games) for b in summaries]),
            ("turns", [f"{b.turns:.2f}" for b in summaries]),
            ("plays", [f"{b.plays:.2f}" for b in summaries]),
            ("tricks", [f"{b.tricks:.2f}" for b in summaries]),
            ("landlord control", [f"{b.landlord_control:.2f}" for b in summaries]),
        ]
        rows += [(f"bombs by {p}", [f"{b.positions[p].bombs_per_game:.3f}" for b in summaries]) for p in POSITIONS]
        rows += [(f"held bombs played, {p}", [_percent(b.positions[p].held_bombs_played) for b in summaries])
                 for p in POSITIONS]
        for name, values in rows:
            table.add_row(name, *values)
        return table


def evaluate_doudizhu(config: DouDizhuEvalConfig, progress: bool = True) -> DouDizhuEvalReport:
    """Play ``config.decks`` decks between A and B under ``config.protocol`` and summarise the results."""
    for label in LABELS:
        check_agent(config.spec(label), f"agent {label}")
    started = time.perf_counter()
    try:
        decks = map_units(partial(_play_decks, config), config.decks, Parallelism.of(config), progress, "decks")
    finally:
        close_kept_agents()
    wall_time = time.perf_counter() - started
    lineups: dict[str, list[GameBehaviour]] = {}
    for game in sorted((g for deck in decks for g in deck), key=lambda g: g.lineup):
        lineups.setdefault(game.lineup, []).append(game.behaviour)
    return DouDizhuEvalReport(
        config=config,
        games=sum(len(deck) for deck in decks),
        agents={label: AgentSummary.of(label, config.spec(label), decks) for label in LABELS},
        behaviour={lineup: BehaviourSummary.of(games) for lineup, games in lineups.items()},
        two_table=TwoTableSummary.of(decks) if config.protocol == "two-table" else None,
        wall_time_s=wall_time,
        version=__version__,
        per_deck=decks,
    )


def check_agent(spec: str, place: str) -> None:
    """Refuse ``spec`` unless its name (before any ``:``) is a DouDizhu agent; the error names ``place``
    (``agent A``) and the known agents."""
    known = agent_names(DouDizhu.name)
    if spec.partition(":")[0] not in known:
        raise PaijuError(f"unknown agent {spec!r} for {place}; known: {', '.join(known)}")


def _play_decks(config: DouDizhuEvalConfig, decks: range) -> list[list[GameOutcome]]:
    """Every game of each deck in ``decks`` (runs in a worker process)."""
    game = load_game(DouDizhu.name)
    rules = config.ruleset
    return [_play_deck(config, game, rules, deck) for deck in decks]


def _play_deck(config: DouDizhuEvalConfig, game: Game, rules: DouDizhuRules, deck: int) -> list[GameOutcome]:
    deal_seed = derive_seed(config.seed, "deck", deck)
    seeds = [derive_seed(config.seed, "agent", deck, seat) for seat in range(game.num_players)]
    outcomes = []
    for seats in _lineups(_deal(config, game, rules, deal_seed)):
        state = _deal(config, game, rules, deal_seed)
        play_seated(game, [config.spec(label) for label in seats], seeds, deal_seed, rules, state=state)
        assert state.landlord is not None
        outcomes.append(GameOutcome(deck=deck, seats=seats, landlord=state.landlord,
                                    payoffs=tuple(state.payoffs()), behaviour=GameBehaviour.of(state)))
    return outcomes


def _deal(config: DouDizhuEvalConfig, game: Game, rules: DouDizhuRules, deal_seed: int) -> DouDizhuState:
    """The deck's starting state; in full-mode two-table play the referee's bid is already made."""
    state = game.new_state(deal_seed, rules)
    assert isinstance(state, DouDizhuState)
    if config.protocol == "two-table" and config.mode == "full":
        state.apply(REFEREE_BID)
    return state


def _lineups(start: DouDizhuState) -> list[tuple[str, str, str]]:
    """The seatings of one deck, in playing order (see the module docstring)."""
    if start.landlord is None:  # full-mode role swap: each agent alone at each seat
        return [_alone(label, seat) for seat in range(3) for label in LABELS]
    return [_alone(label, start.landlord) for label in LABELS]


def _alone(label: str, seat: int) -> tuple[str, str, str]:
    other = LABELS[1 - LABELS.index(label)]
    return (label if seat == 0 else other, label if seat == 1 else other, label if seat == 2 else other)


def _landlord_score(deck: Sequence[GameOutcome], label: str) -> float:
    """The landlord's payoff in the deck's game where ``label`` held the landlord seat (two-table play)."""
    (game,) = [g for g in deck if g.seats[g.landlord] == label]
    return game.payoffs[game.landlord]


def _percent(share: float | None) -> str:
    return "–" if share is None else f"{100 * share:.1f} %"
