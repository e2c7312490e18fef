"""Duplicate play for four-player partnership games (partners opposite: seats 0+2 against 1+3).

**Design** (ScrofaZero §5.2, spec "Evaluation": "each deal is played twice, the second time with hands
rotated one seat so each team holds each pair of hands once"). Team A's agent sits at seats 0 and 2,
team B's at seats 1 and 3, in both plays. Deal d is dealt from a seed derived from (seed, d) and played

- as dealt, then
- rotated: everything the deal gives a seat (its hand, being first to lead) moves one seat on, so the
  hand dealt to seat s is played from seat s + 1 (mod 4). Team A now holds the hands team B held.

A game's result for team A is A's points minus B's points (the payoff of seat 0: a partnership game pays
each seat its team's result). The deal's score is the mean of its two results; summed over the pair, the
luck of the cards cancels and what remains is the difference in play.

**Statistics.** The two games of a deal share their cards, so the deals are the independent units: the
mean per game and per deal pair come with the standard error of the per-deal values, s / √D, and
Student's t 95 % interval over the D deals (``paiju.eval.stats.mean_interval``). Wins, draws and losses
are counted for team A per game (result > 0, = 0, < 0) and per deal pair (sum of the two results).

**Common random numbers.** Deal d is dealt from ``derive_seed(seed, "deal", d)``. Every agent gets for each
game the seed ``derive_seed(seed, "agent", d, hand)`` (``paiju.eval.seeds``), where ``hand`` is the seat that
was dealt the cards it holds — built afresh with it, or, for an external program kept running from game to
game, sent it in the game's ``start`` (``paiju.eval.seating``): the player of a given hand gets the same
seed in both plays, whichever seat that hand sits at. An agent played against itself therefore replays
the first game from the other side, and each deal pair sums to exactly 0, provided its choices do not
change when the seats are relabelled (true of ``random``, which draws from the legal cards in card order).
An agent whose random draws depend on absolute seat numbers (say, dealing hidden cards to the other seats
in seat order) plays a different game after rotation; against itself it then scores 0 only on average.
Results depend only on the seed, never on the number of workers or the backend.

**Decision times.** Each deal also keeps the wall time of every decision with more than one legal action, by team
(forced moves are played at once by any agent and would only hide the others): the machine's figures, apart
from the results and from their equality.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
from rich.table import Table

from paiju.agents import agent_names
from paiju.core.errors import PaijuError
from paiju.core.game import Game, State
from paiju.eval.parallel import Parallelism, map_units
from paiju.eval.seating import close_kept_agents, play_seated
from paiju.eval.seeds import derive_seed
from paiju.eval.stats import mean_interval

SEATS = 4
TEAM_A_SEATS = (0, 2)
ROTATIONS = (0, 1)
"""The deal as dealt, then every hand one seat on."""

Dealer = Callable[[int, int], State]
"""``dealer(deal_seed, rotation)``: the starting state of the deal dealt from ``deal_seed`` with everything
seat-bound moved ``rotation`` seats on (the hand dealt to seat s held by seat (s + rotation) mod 4).
Must be picklable (a module-level function, or a ``functools.partial`` of one) to run in worker processes."""

Pairing = tuple[str, str]
"""The agent specs of team A and team B."""


@dataclass(frozen=True, slots=True)
class DuplicatePlan:
    """The game and the deals: every pairing evaluated under one plan plays the same deals."""

    game: Game
    """A four-player partnership game."""
    dealer: Dealer
    """Builds a deal's two starting states (see ``Dealer``)."""
    seed: int
    """Master seed: every deal's and every agent's seed derives from it."""
    keep_results: bool = False
    """Keep each game's ``State.result()`` in its ``DealOutcome`` (for game-specific summaries)."""


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """Team A's results (A − B points) on one deal: as dealt, then rotated."""

    deal: int
    results: tuple[float, float]
    summaries: tuple[dict[str, Any], ...] = ()
    """The two games' ``State.result()``, when the plan keeps them."""
    decision_seconds: tuple[tuple[float, ...], tuple[float, ...]] = field(default=((), ()), compare=False)
    """Team A's and team B's decision times in both games, seconds (the module docstring); not compared."""

    @property
    def pair(self) -> float:
        """The deal pair's total: the duplicate difference between the teams on this deal."""
        return self.results[0] + self.results[1]

    @property
    def per_game(self) -> float:
        """The deal's mean result per game."""
        return self.pair / 2


@dataclass(frozen=True, slots=True)
class ScoreEstimate:
    """A mean over ``n`` independent values with its standard error s / √n and 95 % t interval.

    ``se``, ``low`` and ``high`` are None for a single value.
    """

    value: float
    se: float | None
    low: float | None
    high: float | None
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> ScoreEstimate:
        estimate = mean_interval(values)
        se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None
        return cls(estimate.value, se, estimate.low, estimate.high, estimate.n)

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "se": self.se, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        if self.se is None or self.low is None or self.high is None:
            return f"{self.value:.2f}"
        return f"{self.value:.2f} ± {self.se:.2f} [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True, slots=True)
class WinDrawLoss:
    """Team A's wins, draws and losses: results above, at and below 0."""

    wins: int
    draws: int
    losses: int

    @classmethod
    def of(cls, results: Sequence[float]) -> WinDrawLoss:
        return cls(sum(1 for r in results if r > 0), sum(1 for r in results if r == 0),
                   sum(1 for r in results if r < 0))

    def to_json(self) -> dict[str, int]:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}

    def __str__(self) -> str:
        return f"{self.wins} / {self.draws} / {self.losses}"


@dataclass(frozen=True, slots=True)
class DuplicateSummary:
    """Team A's results over all deals, with the deals as independent units (see the module docstring)."""

    deals: int
    games: int
    per_game: ScoreEstimate
    """A − B points per game: the mean over deals of each deal's mean result."""
    per_deal_pair: ScoreEstimate
    """A − B points per deal pair: the mean of the two results' sums (twice ``per_game``)."""
    as_dealt: ScoreEstimate
    """A's result in the games played as dealt (A holding the hands of seats 0 and 2)."""
    rotated: ScoreEstimate
    """A's result in the rotated games (A holding the hands dealt to seats 1 and 3)."""
    games_record: WinDrawLoss
    pairs_record: WinDrawLoss

    @classmethod
    def of(cls, outcomes: Sequence[DealOutcome]) -> DuplicateSummary:
        """The summary of at least one deal's outcomes."""
        if not outcomes:
            raise ValueError("a duplicate summary needs at least one deal")
        results = [r for outcome in outcomes for r in outcome.results]
        return cls(
            deals=len(outcomes), games=len(results),
            per_game=ScoreEstimate.of([o.per_game for o in outcomes]),
            per_deal_pair=ScoreEstimate.of([o.pair for o in outcomes]),
            as_dealt=ScoreEstimate.of([o.results[0] for o in outcomes]),
            rotated=ScoreEstimate.of([o.results[1] for o in outcomes]),
            games_record=WinDrawLoss.of(results), pairs_record=WinDrawLoss.of([o.pair for o in outcomes]))

    def to_json(self) -> dict[str, Any]:
        return {"deals": self.deals, "games": self.games, "per_game": self.per_game.to_json(),
                "per_deal_pair": self.per_deal_pair.to_json(), "as_dealt": self.as_dealt.to_json(),
                "rotated": self.rotated.to_json(), "games_record": self.games_record.to_json(),
                "pairs_record": self.pairs_record.to_json()}


def summary_table(title: str, pairing: Pairing, summary: DuplicateSummary) -> Table:
    """A rich table of ``summary``: team A's points per game and per deal pair, and its record."""
    table = Table(title=title, caption="A − B points; ± standard error, [95 % t interval], deals as units. "
                                       "Record: A's wins / draws / losses.")
    table.add_column("team A − team B")
    table.add_column("points", justify="right")
    table.add_column("record", justify="right")
    table.add_row(f"A: {pairing[0]} (seats 0+2)", "", "")
    table.add_row(f"B: {pairing[1]} (seats 1+3)", "", "", end_section=True)
    table.add_row(f"per game ({summary.games} games)", str(summary.per_game), str(summary.games_record))
    table.add_row(f"per deal pair ({summary.deals} deals)", str(summary.per_deal_pair), str(summary.pairs_record))
    table.add_row("games as dealt", str(summary.as_dealt), "")
    table.add_row("games rotated", str(summary.rotated), "")
    return table


def check_agents(game: str, specs: Sequence[str]) -> None:
    """Raise ``PaijuError`` naming the first spec whose agent is not known for ``game``."""
    known = agent_names(game)
    for spec in specs:
        if not isinstance(spec, str) or spec.partition(":")[0] not in known:
            raise PaijuError(f"unknown agent {spec!r} for {game}; known: {', '.join(known)}")


def play_pairings(plan: DuplicatePlan, pairings: Sequence[Pairing], deals: int, parallelism: Parallelism | int = 1,
                  progress: bool = True) -> list[list[DealOutcome]]:
    """Every pairing's outcomes on deals 0..deals−1 of ``plan``, in pairing order.

    All pairings' deals are one pool of work for ``parallelism`` (a number: local worker processes); results do
    not depend on it.
    """
    check_agents(plan.game.name, [spec for pairing in pairings for spec in pairing])
    pairings = tuple(pairings)
    try:
        outcomes = map_units(partial(_play_units, plan, pairings, deals), len(pairings) * deals, parallelism,
                             progress, "deal pairs")
    finally:
        close_kept_agents()
    return [outcomes[p * deals:(p + 1) * deals] for p in range(len(pairings))]


def play_deal(plan: DuplicatePlan, pairing: Pairing, deal: int) -> DealOutcome:
    """Deal ``deal`` played as dealt and rotated, team A (``pairing[0]``) at seats 0 and 2."""
    game = plan.game
    if game.num_players != SEATS:
        raise PaijuError(f"duplicate team play needs a four-player game; {game.name} has {game.num_players}")
    deal_seed = derive_seed(plan.seed, "deal", deal)
    results = []
    summaries = []
    times: tuple[list[float], list[float]] = ([], [])
    specs = [pairing[0] if seat in TEAM_A_SEATS else pairing[1] for seat in range(SEATS)]

    def timed(seat: int, choices: int, seconds: float) -> None:
        if choices > 1:
            times[0 if seat in TEAM_A_SEATS else 1].append(seconds)

    for rotation in ROTATIONS:
        seeds = [derive_seed(plan.seed, "agent", deal, (seat - rotation) % SEATS) for seat in range(SEATS)]
        state = play_seated(game, specs, seeds, deal_seed, state=plan.dealer(deal_seed, rotation), on_decision=timed)
        results.append(team_result(state.payoffs()))
        if plan.keep_results:
            summaries.append(state.result())
    return DealOutcome(deal, (results[0], results[1]), tuple(summaries), (tuple(times[0]), tuple(times[1])))


def team_result(payoffs: Sequence[float]) -> float:
    """Team A's result from a finished partnership game's payoffs: partners share it, opponents get minus it."""
    if len(payoffs) != SEATS or not payoffs[0] == payoffs[2] == -payoffs[1] == -payoffs[3]:
        raise PaijuError(f"expected team payoffs (x, -x, x, -x) from a partnership game, got {list(payoffs)}")
    return float(payoffs[0])


def per_deal_scores(outcomes: Sequence[DealOutcome]) -> np.ndarray:
    """Each deal's mean result per game, in deal order (the independent values behind ``per_game``)."""
    return np.array([outcome.per_game for outcome in outcomes], dtype=float)


def _play_units(plan: DuplicatePlan, pairings: tuple[Pairing, ...], deals: int, units: range) -> list[DealOutcome]:
    """Unit u is deal u mod ``deals`` of pairing u div ``deals`` (runs in a worker process)."""
    return [play_deal(plan, pairings[unit // deals], unit % deals) for unit in units]
