"""Per-game defaults of the search agent: the only module of ``paiju.agents.search`` that knows a game.

Each profile gives the default options, the phases searched (other phases are played by the prior:
DouDizhu's bidding, whose void deals a determinized world cannot redeal, and GuanDan's tribute and return),
and how a simulation ends and is scored.

The defaults chosen (measured: BENCHMARKS.md, section "Search against the rule bots", subsection "How the
defaults were chosen"):

- **DouDizhu** ``pimc``, ``rules`` prior and rollouts, 40 worlds, top 5, 200 simulations, ``z=2``; no belief
  weighting; the endgame solver (option ``solve``) off by default.
- **GuanDan** ``pimc``, ``rules`` prior and rollouts, 80 worlds, top 3, 240 simulations, ``z=1``: a
  deterministic budget, not a time budget (about 0.27 s a decision on one core with the compiled rule bot; 30
  simulations over 10 worlds tied ``rules``, 240 over 80 beat it). No leaf network by default: the shipped
  ``dmc`` network's values made the search weaker (``leaf``).
- **Gongzhu** ``pimc``, ``mr-greed`` prior, ``mr-greed:1`` rollouts (one sampled deal a decision), 60 worlds,
  top 4, 240 simulations, ``z=1``.
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
    leaf_agents: tuple[str, ...] = ()
    """Agents whose scores are values on ``deal_value``'s scale, and so may score leaves (option ``leaf``)."""


PROFILES: dict[str, GameProfile] = {
    "doudizhu": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="rules", rollout="rules", worlds=40, top=5, sims=200, ms=None,
                               z=2.0, c=1.0, temperature=5.0, belief=0),
        searched_phases=("play",), deal_value=None, exact=doudizhu_endgame,
        size=doudizhu_cards_left),
    "guandan": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="rules", rollout="rules", worlds=80, top=3, sims=240, ms=None,
                               z=1.0, c=1.0, temperature=1.0, belief=0),
        searched_phases=("play",), deal_value=guandan_round_result,
        leaf_agents=("dmc",)),
    "gongzhu": GameProfile(
        defaults=SearchOptions(algo="pimc", policy="mr-greed", rollout="mr-greed:1", worlds=60, top=4, sims=240,
                               ms=None, z=1.0, c=1.0, temperature=20.0, belief=0),
        searched_phases=("play",), deal_value=None),
}
"""Keyed by game name."""
