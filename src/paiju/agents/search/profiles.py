"""Per-game defaults of the search agent: the only module of ``paiju.agents.search`` that knows a game.

Each profile gives the default options, the phases searched (other phases are played by the prior:
DouDizhu's bidding, whose void deals a determinized world cannot redeal, and GuanDan's tribute and return),
and how a simulation ends and is scored.

How the defaults were chosen (2-core machine shared with other work; duplicate evaluations, 95 % intervals):

- **DouDizhu** ``pimc``, ``rules`` prior and rollouts, 40 worlds, top 5, 200 simulations, ``z=2`` (about
  0.2 s a decision). Against ``rules``, 40 decks (seed 11): ADP +1.05 [0.31, 1.79] with ``z=2``; 600
  simulations gave +0.98 [0.32, 1.63] (paired difference with 200: +0.04 ± 0.19), ``ismcts`` with 200
  simulations +0.35 [−0.18, 0.88]. A one-step test (the search's play against ``rules``' play in the true
  deal, ``rules`` playing on; 300 positions) preferred ``z=2`` (+0.072 ± 0.042 a decision) to ``z=1``
  (+0.033 ± 0.057) and ``z=0`` (+0.022 ± 0.072), and belief weighting (8 decisions, temperature 5) did not
  help (+0.030 ± 0.028): it concentrates the worlds on the true hands (card overlap 0.64 to 0.67) but
  leaves 9 effective worlds of 40. Checked on fresh deals, 60 decks (seed 2026): ADP +0.63 [0.19, 1.08];
  as landlord +0.80 [0.13, 1.47], as peasants +0.47 [−0.40, 1.33]; then 500 decks (seed 2027): A's duplicate
  score per deck +1.38 [1.03, 1.72], as landlord ADP +0.62 [0.34, 0.90], as peasants +0.75 [0.42, 1.08].
  The endgame solver (option ``solve``) is off by default: a game reaches 20 cards or fewer in all hands in
  about one deal in three, and then only in its last plays, so it decides few simulations, while each
  simulation solves its world afresh: on 20 positions the median decision took 253 ms with ``solve=12``,
  379 ms with 16 and 999 ms with 24 (p90 5.3 s), against 247 ms without. Its effect on strength is not
  measured.
- **GuanDan** ``pimc``, ``rules`` prior and rollouts, 10 worlds, top 3, 30 simulations, ``z=1`` (about
  0.15 s a decision; a rollout of a round costs about 10 ms). Against ``rules``, 60 one-round games (seed
  2026): win rate 0.53 [0.42, 0.64], round result +0.35 [−0.13, 0.83]. Time budgets did no better on the
  same deals: ``ms=300`` 0.50 (+0.05), ``ms=1000`` 0.50 (+0.33, 40 games); on seed 11, 24 simulations
  gave 0.45 (−0.02) and ``ms=300`` 0.53 (+0.38). A deterministic budget is the default. On 400 games (seed
  2027): win rate 0.525 [0.488, 0.561], round result +0.20 [0.04, 0.36].
- **Gongzhu** ``pimc``, ``mr-greed`` prior, ``mr-greed:1`` rollouts (one sampled deal a decision: 13x
  cheaper than 20), 60 worlds, top 4, 240 simulations, ``z=1`` (about 0.4 s a decision). Against
  ``mr-greed``, 16 deals × 2 (seed 11): +99.7 ± 46.0 points a game; checked on 24 deals × 2 (seed 2026):
  +104.2 ± 29.1 [44.1, 164.3]; on 256 deals × 2 (seed 2027): +65.9 [48.2, 83.6].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paiju.agents.search.options import SearchOptions
from paiju.games.doudizhu.solver import solve
from paiju.games.doudizhu.solver_position import position_from_state

DealValue = Callable[[Any, int], float]
"""The value, for a seat, of a state whose deal has just ended (the game may go on with another deal)."""
ExactValue = Callable[[Any, int], "float | None"]
"""``(state, seat)``: the seat's value of a state with best play by everyone; ``None`` when the solver gives up."""
StateSize = Callable[[Any], int]
"""Cards left in all hands: how big a state is for the solver."""

SOLVER_NODES = 20_000
"""Positions the DouDizhu solver may expand for one simulation before the simulation is played out instead."""


def doudizhu_cards_left(state: Any) -> int:
    """DouDizhu: cards in the three hands (the play phase; larger than any hand before it)."""
    return sum(map(sum, state.hands)) if state.phase == "play" else 1 << 30


def doudizhu_endgame(state: Any, seat: int) -> float | None:
    """DouDizhu: the winner with best play (``paiju.games.doudizhu.solver``, perfect information), scored as the
    game's payoff at the stake reached (bid × multiplier so far: bombs, the rocket and a spring still to come
    are not counted, since the solver decides who wins, not how); ``None`` past ``SOLVER_NODES``."""
    solution = solve(position_from_state(state), limit=SOLVER_NODES)
    if solution.winner is None:
        return None
    sign = 1 if solution.winner == "landlord" else -1
    score = state.bid * state.multiplier
    return float(2 * sign * score if seat == state.landlord else -sign * score)


def guandan_round_result(state: Any, seat: int) -> float:
    """GuanDan: the round just finished, for the seat's team: +3 / +2 / +1 when its first finisher's partner
    came 2nd / 3rd / 4th, the negative when the other team's first finisher is joined so (DanZero's round
    reward, ``paiju.games.guandan.levels.settle``). Partners are seats ``s`` and ``s ^ 2``, teams ``s % 2``.

    The round, not the game to A, because a round is what a decision can see to the end of; it is also
    what one-round evaluations (``--rounds 1``) score.
    """
    return float(state.rounds[-1].outcome.scores[seat % 2])


@dataclass(frozen=True, slots=True)
class GameProfile:
    """What the search needs to know about one game."""

    defaults: SearchOptions
    searched_phases: tuple[str, ...]
    """Phases in which the agent searches; in the others it plays as its prior."""
    deal_value: DealValue | None
    """How a simulation is scored once its deal ends; ``None``: the game's payoff (the deal is the game)."""
    exact: ExactValue | None = None
    """The game's exact solver of small states (option ``solve``), if it has one."""
    size: StateSize | None = None
    """How big a state is for ``exact``."""


PROFILES: dict[str, GameProfile] = {
    "doudizhu": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="rules", rollout="rules", worlds=40, top=5, sims=200, ms=None,
                               z=2.0, c=1.0, temperature=5.0, belief=0),
        searched_phases=("play",), deal_value=None, exact=doudizhu_endgame,
        size=doudizhu_cards_left),
    "guandan": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="rules", rollout="rules", worlds=10, top=3, sims=30, ms=None,
                               z=1.0, c=1.0, temperature=1.0, belief=0),
        searched_phases=("play",), deal_value=guandan_round_result),
    "gongzhu": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="mr-greed", rollout="mr-greed:1", worlds=60, top=4, sims=240,
                               ms=None, z=1.0, c=1.0, temperature=20.0, belief=0),
        searched_phases=("play",), deal_value=None),
}
"""Keyed by game name."""
