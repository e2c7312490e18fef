"""The search agent's options: ``search:KEY=VALUE,KEY=VALUE`` parsed into a typed ``SearchOptions``.

Every option has a per-game default (``profiles``); a bad option is refused with a ``PaijuError`` that names
it and lists what is accepted (``paiju.agents.options``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from paiju.agents import agent_names, make_agent
from paiju.agents.options import option, parse_items
from paiju.core.errors import PaijuError

ALGORITHMS = ("pimc", "ismcts")
BUDGET_KEYS = ("sims", "ms")
REFUSED_POLICIES = ("search", "ext")
"""Agent names that cannot be a policy: a search inside every simulation, or a program per simulated seat."""


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How one ``search`` agent decides (see ``paiju.agents.search``)."""

    algo: str = option(choices=ALGORITHMS)
    """``pimc`` (determinized Monte-Carlo: every candidate in every world) or ``ismcts`` (single-observer
    information-set MCTS)."""
    policy: str
    """The prior: the agent whose ``explain`` ranks the candidates (and gives ISMCTS its priors and the
    belief model its likelihoods); it also acts in the phases the search leaves alone."""
    rollout: str
    """The agent that plays every seat in the simulations."""
    worlds: int = option(minimum=1)
    """Worlds (determinizations of the observation) sampled per decision: PIMC plays every candidate in each
    (so at most ``worlds`` × candidates simulations); ISMCTS draws one per iteration from them."""
    top: int = option(minimum=1)
    """Candidates: the prior's best ``top`` actions (every legal action when there are no more)."""
    sims: int | None = option(minimum=1)
    """Simulations (rollouts) per decision; the same seed and observation then give the same decision."""
    ms: int | None = option(minimum=1)
    """Milliseconds per decision (the search stops at the first simulation that would start later)."""
    z: float = option(minimum=0)
    """PIMC: standard errors by which a candidate must beat the prior's choice, paired world by world, to be
    taken instead (0: the best mean)."""
    c: float = option(positive=True, finite=True)
    """ISMCTS: the PUCT exploration constant (values normalised to [0, 1])."""
    temperature: float = option(positive=True, finite=True)
    """Softmax temperature turning the prior's scores into probabilities (ISMCTS priors, belief weights)."""
    belief: int = option(minimum=0)
    """Belief weighting: each world is weighted by the likelihood, under the prior, of the other seats' last
    ``belief`` decisions of the deal; 0 turns it off."""
    solve: int = option(0, minimum=0)
    """Cards left in all hands at or below which a simulation is decided by the game's exact solver instead
    of played out (0: never; only games whose profile has a solver)."""
    leaf: str = option("")
    """A value network that ends simulations early (empty: none; only games whose profile names leaf agents): at
    the searching seat's first turn after ``depth`` moves of the rollout, the state is scored by this agent's best
    action value there (``rollout.Leaf``)."""
    depth: int = option(0, minimum=0)
    """With ``leaf``: moves the rollout plays after the candidate before the searching seat's next turn is scored
    (0: its very next turn)."""


def parse_options(argument: str, game: str, defaults: SearchOptions) -> SearchOptions:
    """The options written ``argument`` (``key=value`` pairs separated by commas) over ``defaults``.

    Giving ``sims`` or ``ms`` replaces both budget defaults: ``search:ms=500`` searches for 500 ms with no
    limit on simulations. Policies are checked by making them for ``game``.
    """
    given = parse_items(argument, SearchOptions, "search")
    for key in ("policy", "rollout"):
        if key in given:
            check_policy(key, given[key], game)
    if any(key in given for key in BUDGET_KEYS):
        given = {"sims": None, "ms": None, **given}
    return replace(defaults, **given)


def check_policy(key: str, spec: str, game: str) -> None:
    """Refuse ``spec`` as the ``key`` policy unless it names an agent of ``game`` that can play simulations."""
    accepted = [name for name in agent_names(game) if name not in REFUSED_POLICIES]
    if spec.partition(":")[0] not in accepted:
        raise PaijuError(f"search option {key}={spec!r} is not a {game} agent a search can simulate; "
                         f"accepted: {', '.join(accepted)}")
    try:
        make_agent(spec, game).close()
    except PaijuError as error:
        raise PaijuError(f"search option {key}={spec!r}: {error}") from None

