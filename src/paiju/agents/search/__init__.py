"""``search``: a prior policy's best candidates weighed by simulations in worlds sampled from the searching seat's
observation — determinized Monte-Carlo (PIMC) or single-observer information-set MCTS (SO-ISMCTS), for every
game, through the core interface only.

Agent names (every game with a profile: DouDizhu, GuanDan, Gongzhu)::

    search                                       # the game's measured defaults (profiles)
    search:algo=ismcts,policy=rules,worlds=32,ms=500
    search:policy=mr-greed,rollout=mr-greed:1,sims=240

Options (``options.SearchOptions``): ``algo`` (``pimc`` | ``ismcts``), ``policy`` (the prior: any agent of the
game but ``search`` and ``ext:``), ``rollout`` (the policy playing every seat in simulations), ``worlds``,
``top`` (candidates), ``sims`` and / or ``ms`` (the budget; giving one drops the other's default), ``z``
(PIMC: how clearly a candidate must beat the prior's choice), ``c`` (ISMCTS exploration), ``temperature``
(prior scores to probabilities), ``belief`` (0: off; N: weight worlds by the other seats' last N decisions),
``solve`` (DouDizhu: once at most N cards are left in all hands, a simulation is decided by the exact endgame
solver, ``paiju.games.doudizhu.solver``, instead of played out; 0: off), ``leaf`` and ``depth`` (GuanDan: a
simulation stops at the searching seat's first turn after ``depth`` moves, and a value network, ``leaf=dmc``,
scores the state; off by default).

A decision (``agent.SearchAgent``):

1. **Worlds** (``worlds``): ``game.determinize(observation, rng)``, optionally weighted by belief.
2. **Candidates** (``prior``): the prior's ``explain`` ranking, its best ``top``.
3. **Search**: ``pimc`` plays each candidate in every world to the end of the deal with the rollout policy
   and averages, keeping the prior's choice unless another candidate beats it by ``z`` paired standard
   errors; ``ismcts`` grows a tree over the observer's decisions, one world per iteration.
4. **Value** of a simulation for the seat (``profiles``): the game's payoff (DouDizhu: with its bomb and
   spring multipliers; Gongzhu: the team's result), or for GuanDan the result of the current round for the
   seat's team (+3 / +2 / +1, negative for a loss), the simulation stopping when the round ends; with
   ``solve``, a DouDizhu simulation small enough is scored by the solver's winner at the stake reached; with
   ``leaf``, a simulation is scored at the seat's next turn after ``depth`` moves by the network's best action
   value there (``max_a Q(s, a)``, DMC's greedy value).

With one legal action the agent plays it at once; a budget that allows no complete sweep (PIMC) or no
iteration (ISMCTS) returns the prior's choice.
"""

from paiju.agents.search.agent import SearchAgent, make_search_agent
from paiju.agents.search.options import SearchOptions, parse_options
from paiju.agents.search.profiles import PROFILES, GameProfile

__all__ = ["PROFILES", "GameProfile", "SearchAgent", "SearchOptions", "make_search_agent", "parse_options"]
