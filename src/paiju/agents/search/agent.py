"""``SearchAgent``: the ``search`` player — a prior policy's best candidates weighed by simulations in worlds
sampled from its own observation."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from paiju.agents import AgentFactory, make_agent
from paiju.agents.search.budget import Budget
from paiju.agents.search.ismcts import Ismcts
from paiju.agents.search.options import SearchOptions, parse_options
from paiju.agents.search.pimc import pimc, ranked_estimates
from paiju.agents.search.prior import ranked
from paiju.agents.search.profiles import PROFILES, GameProfile
from paiju.agents.search.rollout import Leaf, Rollout
from paiju.agents.search.worlds import Belief, Worlds
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.game import JSON, Action, Game
from paiju.core.registry import load_game


class SearchAgent(Agent):
    """Searches its decisions in the profile's phases and plays the others as its prior.

    Each decision is a function of the seed and the observation alone: its random draws (worlds, the
    policies' own choices) come from a generator seeded with both, and its agents (prior, one rollout agent
    and, under a belief, one model agent per seat) are made for the decision, begun at their seats, reused by
    all its simulations, and closed after it. Under a ``sims`` budget the same seed and observation therefore
    give the same decision; under ``ms`` the number of simulations depends on the machine.
    """

    name = "search"
    score_scale = "this seat's mean final score over the simulated deals (points)"

    def __init__(self, game: Game, options: SearchOptions, profile: GameProfile, seed: int = 0) -> None:
        self.game = game
        self.options = options
        self.profile = profile
        self.seed = seed
        self.rules: dict[str, JSON] = {}
        self.simulations = 0
        """Simulations run by the last search (benchmarks and corpora read it)."""
        self.last_search: list[ScoredAction] | None = None
        self.player = self._agent(options.policy, seed)

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:
        self.rules = rules
        self.player.begin(game, seat, rules)

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        self.last_search = None
        if len(legal) == 1:
            return legal[0]
        if observation.phase not in self.profile.searched_phases:
            return self.player.act(observation, legal)
        scored = self.explain(observation, legal)
        self.last_search = scored if self.simulations else None
        return scored[0].action

    def searched(self) -> list[ScoredAction] | None:
        """The last searched decision's candidates and their mean simulated values (``None`` after a move the prior
        made alone: a forced move, a phase not searched)."""
        return self.last_search

    def scale(self, observation: Any) -> str:
        if observation.phase not in self.profile.searched_phases:
            return self.player.scale(observation)
        return self.score_scale

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """The searched candidates with their mean simulated values, best first (the prior's scored actions
        when the budget allowed no simulation; the prior's own ``explain`` in phases not searched)."""
        if observation.phase not in self.profile.searched_phases:
            return self.player.explain(observation, legal)
        if len(legal) == 1:
            return [ScoredAction(legal[0], 0.0)]
        return self._search(observation, legal)

    def finish(self, result: dict[str, JSON]) -> None:
        self.player.finish(result)

    def close(self) -> None:
        self.player.close()

    def _search(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        options = self.options
        budget = Budget(options.sims, options.ms)
        rng = random.Random(f"{self.seed}/{json.dumps(observation.to_json(), sort_keys=True)}")
        seats = range(self.game.num_players)
        prior = self._agent(options.policy, rng.getrandbits(63), observation.seat)
        rollout_agents = [self._agent(options.rollout, rng.getrandbits(63), seat) for seat in seats]
        model = [self._agent(options.policy, rng.getrandbits(63), seat) for seat in seats] if options.belief else []
        leaf_agents = [self._agent(options.leaf, rng.getrandbits(63), observation.seat)] if options.leaf else []
        try:
            scored = ranked(prior.explain(observation, legal), legal)
            candidates = scored[: options.top]
            belief = Belief(model, options.temperature, options.belief) if model else None
            worlds = Worlds(self.game, observation, options.worlds, random.Random(rng.getrandbits(63)), belief)
            leaf = Leaf(leaf_agents[0], options.depth, self.profile.searched_phases) if leaf_agents else None
            rollout = Rollout(rollout_agents, observation.seat, self.profile.deal_value, self.profile.exact,
                              self.profile.size, options.solve, leaf)
            if options.algo == "pimc":
                estimates = pimc([entry.action for entry in candidates], worlds, rollout, budget)
                searched = [ScoredAction(estimate.action, estimate.mean)
                            for estimate in ranked_estimates(estimates, options.z)] if estimates[0].visits else []
            else:
                tree = Ismcts(candidates, observation.seat, prior, rollout, options.top, options.c,
                              options.temperature)
                searched = tree.search(worlds, budget, rng)
        finally:
            self.simulations = budget.spent
            for agent in [prior, *rollout_agents, *model, *leaf_agents]:
                agent.close()
        return searched or scored

    def _agent(self, spec: str, seed: int, seat: int | None = None) -> Agent:
        """The agent ``spec`` with ``seed``, begun at ``seat`` when given."""
        agent = make_agent(spec, self.game.name, seed)
        if seat is not None:
            agent.begin(self.game.name, seat, self.rules)
        return agent


def make_search_agent(game: str) -> AgentFactory:
    """The ``search`` agent factory of ``game`` for ``paiju.agents.register_agent``: ``search:KEY=VALUE,...``."""
    if game not in PROFILES:
        raise PaijuError(f"the search agent has no profile for {game!r}; profiles: {', '.join(PROFILES)}")
    profile = PROFILES[game]

    def factory(argument: str, seed: int) -> SearchAgent:
        options = parse_options(argument, game, profile.defaults)
        if options.solve and profile.exact is None:
            with_solver = ", ".join(name for name, known in PROFILES.items() if known.exact is not None)
            raise PaijuError(f"search option solve: {game} has no exact solver (games with one: {with_solver})")
        if options.leaf:
            check_leaf(options.leaf, game)
        return SearchAgent(load_game(game), options, profile, seed)

    return factory


def check_leaf(spec: str, game: str) -> None:
    """Refuse ``spec`` as the ``leaf`` evaluator unless ``game`` values leaves and ``spec`` names one of the agents
    whose scores are values there (checked by making it)."""
    profile = PROFILES[game]
    if not profile.leaf_agents:
        with_leaves = ", ".join(name for name, known in PROFILES.items() if known.leaf_agents)
        raise PaijuError(f"search option leaf: {game} has no leaf values (games with them: {with_leaves})")
    if spec.partition(":")[0] not in profile.leaf_agents:
        raise PaijuError(f"search option leaf={spec!r} does not score {game} states by their value; "
                         f"accepted: {', '.join(profile.leaf_agents)}")
    try:
        agent = make_agent(spec, game)
    except PaijuError as error:
        raise PaijuError(f"search option leaf={spec!r}: {error}") from None
    try:
        if agent.score_scale != type(agent).score_scale:  # e.g. a DMC file holding a policy trained by PPO
            raise PaijuError(f"search option leaf={spec!r} cannot value states: its scores are {agent.score_scale}")
    finally:
        agent.close()
