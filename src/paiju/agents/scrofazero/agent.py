"""``ScrofaZeroAgent``: Gongzhu under imperfect information by searching sampled scenarios (ScrofaZero §5.3–§5.4).

A decision, from the seat's observation only:

1. **Scenarios**: ``scenarios`` deals of the unseen cards consistent with the observation, by ``sampler``:
   ``uniform`` (equal weights), ``ss`` (stratified on the key cards, §5.3) or ``iec`` (stratified, then weighted
   by IEC with the network's policy, §5.4 Algorithm 1, β = ``beta``; the default, the paper's strongest:
   Table 3).
2. **Search**: one perfect-information MCTS per scenario (``mcts``: UCB, c = 30), all scenarios batched through
   ``mcts.run`` so that one forward pass values a leaf of each; ``simulations`` per search, by default
   ``evaluation_simulations`` = 10 + 2 × legal cards (§8.6). A leaf's value is the network's (the paper's,
   ``mix=0``) or, with ``mix`` = λ > 0, ``(1 − λ)·v_net + λ·z`` with z the payoff of one game played out from
   the leaf by ``ROLLOUT_AGENT`` at every seat (``evaluator.MixedEvaluator``: AlphaGo's leaf evaluation,
   Silver et al. 2016, there with λ = 0.5); ``mix=1`` values leaves by the rollouts alone.
3. **Choice**: each legal card's Q averaged over the scenarios with their weights; the highest is played (§5.4
   eq. 10: the expectation of Q under the belief), ties to the card listed first.

**Time budget** (``ms``, milliseconds per decision, counted from its start, the scenarios' drawing and weighting
included; like the ``search`` agent's ``ms``): the searches have no count (``simulations``, when also given, still
caps each) and run in batched rounds until the time is spent (``mcts.run_until``): whatever the time, until every
legal card has been tried in some scenario, so that every card has a value; then rounds sized to the time left, so
that the last ends near the deadline. A card's Q is averaged over the scenarios whose search tried it, their
weights renormalised (with every card tried in every scenario, as without ``ms``, the same average). The number
of simulations, so the decision, depends on the machine's speed and load: under ``ms`` the same seed no longer
gives the same decision.

Choices where the paper is silent or that depart from it: leaves valued half by the network, half by a rollout
(``mix=0.5``) by default, since a network trained on two CPU cores tells the cards of a decision apart too
poorly for the paper's network-only leaves (against two ``mr-greed`` on the same 128 deals × 2, seed 11:
``mix=0`` +26 points a game, ``mix=1`` +43, ``mix=0.5`` +79; BENCHMARKS.md); 30 scenarios by default (enough
that every one of the at most 27 strata of §5.3 gets a scenario; ``stratified`` falls back to uniform draws
below that); a search runs at least as many simulations as there are legal cards, so that every card is tried
in every scenario and its Q averages over all of them. Everything random comes from the agent's ``seed``: the
same seed, observation and legal cards give the same decision (without ``ms``), and the true deal never enters it.

Agent names (``paiju.agents``): comma-separated items after ``scrofazero:`` — a sampler (``scrofazero:uniform``,
``scrofazero:ss``; ``iec`` is the default), a model file (``scrofazero:PATH``) and options
``path=MODEL,sampler=iec|ss|uniform,scenarios=N,simulations=N,ms=N,beta=X,mix=X``; the bare name
``scrofazero`` plays the network shipped as ``weights/gongzhu.pt`` with SS + IEC (a model file named like a
sampler is ``path=ss``). ``perfect`` as the first item (``scrofazero:perfect``,
``scrofazero:perfect,path=MODEL,simulations=N``) names the double-dummy analysis player
``perfect.PerfectScrofaZero`` instead, which sees every hand (a model file named ``perfect`` is ``path=perfect``).
This module imports torch only when an agent is made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paiju.agents.options import check_options, option, parse_options
from paiju.agents.scrofazero import mcts
from paiju.agents.scrofazero.scenarios import IEC_BETA, iec_weights, stratified, uniform
from paiju.agents.search.budget import Budget
from paiju.agents.search.worlds import World
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.game import Action
from paiju.games.gongzhu.cards import CARD_INDEX, NUM_CARDS
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.state import GongzhuState

if TYPE_CHECKING:
    from paiju.agents.scrofazero.model import ScrofaNet

SAMPLERS = ("iec", "ss", "uniform")
ROLLOUT_AGENT = "mr-greed:1"
"""The rollouts' player at every seat: ``mr-greed`` judging each card on one sampled deal (the search agent's
Gongzhu rollouts; about 4 times cheaper than ``mr-greed``'s 20 deals)."""
PERFECT = "perfect"
"""The first comma item that names the double-dummy analysis player (the module docstring)."""
PERFECT_OPTIONS = ("path", "simulations")
"""The options of ``scrofazero:perfect``: it searches the true deal, so it has no scenarios to draw or weigh."""
SHIPPED_MODEL = Path(__file__).parent / "weights" / "gongzhu.pt"
"""The network the bare name ``scrofazero`` plays, where the package ships one."""


@dataclass(frozen=True, slots=True)
class ScrofaZeroOptions:
    """How the agent plays (the module docstring)."""

    sampler: str = option("iec", choices=SAMPLERS)
    """``iec`` (stratified + IEC weights), ``ss`` (stratified) or ``uniform``."""
    scenarios: int = option(30, minimum=1)
    """Scenarios searched per decision."""
    simulations: int | None = option(None, minimum=1)
    """Simulations per search; None: ``mcts.evaluation_simulations`` (10 + 2 × legal cards), or with ``ms`` no
    count."""
    ms: int | None = option(None, minimum=1)
    """Milliseconds per decision (the module docstring): the searches stop at the first round of simulations that
    would start later. Play then depends on the machine's speed, not on the seed alone."""
    beta: float = option(IEC_BETA, minimum=0, finite=True)
    """IEC's β per score point (eq. 12); used by ``iec`` only."""
    mix: float = option(0.5, minimum=0, maximum=1)
    """λ, the rollouts' weight in a leaf's value (the module docstring): 0 the network alone (the paper),
    1 the rollouts alone; 0.5 (AlphaGo's) by default."""

    def __post_init__(self) -> None:
        check_options(self, "scrofazero")


@dataclass(frozen=True, slots=True)
class _Named(ScrofaZeroOptions):
    """What ``scrofazero:ARGUMENT`` names: the options and a model file."""

    path: str = ""
    """The model file; "" plays ``SHIPPED_MODEL``."""


class ScrofaZeroAgent(Agent):
    """Plays the legal card of highest weighted Q over searched scenarios (the module docstring)."""

    name = "scrofazero"
    score_scale = "the searches' weighted Q: expected points for this seat's team"

    def __init__(self, model: ScrofaNet, seed: int = 0, options: ScrofaZeroOptions | None = None) -> None:
        from paiju.agents.scrofazero.evaluator import MixedEvaluator, NetworkEvaluator, network_policy

        self.options = options or ScrofaZeroOptions()
        self.evaluator: mcts.Evaluator = NetworkEvaluator(model)
        if self.options.mix > 0:
            from paiju.agents import make_agent

            rollout = mcts.RolloutEvaluator(lambda seed: make_agent(ROLLOUT_AGENT, "gongzhu", seed), seed)
            self.evaluator = MixedEvaluator(self.evaluator, rollout, self.options.mix)
        self.policy = network_policy(model)
        self.rng = random.Random(seed)

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.explain(observation, legal)[0].action

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """Every legal card with its weighted Q (score points for this seat's team), best first."""
        q = self.weighted_q(observation, legal)
        cards = [CARD_INDEX[card] for card in legal]
        order = sorted(range(len(legal)), key=lambda i: -q[cards[i]])
        return [ScoredAction(legal[i], float(q[cards[i]])) for i in order]

    def weighted_q(self, observation: Any, legal: Sequence[Action]) -> np.ndarray:
        """Q of each card (float64 [52]) averaged over the scenarios with their weights; 0 off ``legal``."""
        if not isinstance(observation, GongzhuObservation):
            raise PaijuError(f"scrofazero plays Gongzhu observations, got {type(observation).__name__}")
        if not legal or any(card not in CARD_INDEX for card in legal):
            raise PaijuError(f"scrofazero needs legal Gongzhu cards to choose from, got {list(legal)!r}")
        budget = None if self.options.ms is None else Budget(None, self.options.ms)
        worlds, weights = self.draw_scenarios(observation)
        searches = [mcts.MctsSearch(world.state, self.search_count(world.state, len(legal)),
                                    random.Random(self.rng.getrandbits(64))) for world in worlds]
        if budget is None:
            return weights @ np.stack([result.q for result in mcts.run(searches, self.evaluator)])
        return tried_mean(weights, mcts.run_until(searches, self.evaluator, budget))

    def search_count(self, state: GongzhuState, legal: int) -> int | None:
        """One search's count: ``simulations``, else ``mcts.evaluation_simulations`` or, under ``ms``, None (no
        count); never fewer than the ``legal`` cards."""
        count = self.options.simulations or (None if self.options.ms else mcts.evaluation_simulations(state))
        return None if count is None else max(count, legal)

    def draw_scenarios(self, observation: GongzhuObservation) -> tuple[list[World], np.ndarray]:
        """The scenarios of one decision and their weights (summing to 1), by the options' sampler."""
        count, sampler = self.options.scenarios, self.options.sampler
        if sampler == "uniform":
            worlds = uniform(observation, count, self.rng)
        else:
            worlds = stratified(observation, count, self.rng)
        if sampler == "iec":
            return worlds, iec_weights(observation, worlds, self.policy, beta=self.options.beta)
        return worlds, np.array([world.weight for world in worlds])


def tried_mean(weights: np.ndarray, results: Sequence[mcts.SearchResult | None]) -> np.ndarray:
    """Each card's Q (float64 [52]) averaged over the scenarios whose search tried it, their ``weights``
    renormalised; 0 for a card no search tried. A None result is a scenario not searched."""
    q, tried = np.zeros((len(results), NUM_CARDS)), np.zeros((len(results), NUM_CARDS))
    for row, result in enumerate(results):
        if result is not None:
            q[row], tried[row] = result.q, result.visits > 0
    covered = weights @ tried
    return np.divide(weights @ q, covered, out=np.zeros(NUM_CARDS), where=covered > 0)


def parse_argument(argument: str) -> tuple[str, ScrofaZeroOptions]:
    """Comma-separated items (``paiju.agents.options``): a sampler's name (``iec``, ``ss``, ``uniform``), a model
    path, or ``key=value`` pairs (``path`` and the fields of ``ScrofaZeroOptions``). The model path ("" when not
    given) and the options."""
    named = parse_options(argument, _Named(), "scrofazero",
                          bare=lambda item: "sampler" if item in SAMPLERS else "path")
    return named.path, ScrofaZeroOptions(**{each.name: getattr(named, each.name) for each in fields(ScrofaZeroOptions)})


def is_perfect(argument: str) -> bool:
    """Whether ``argument`` names the double-dummy player: ``perfect`` is its first comma item."""
    return argument.split(",")[0].strip() == PERFECT


def parse_perfect_argument(argument: str) -> tuple[str, int | None]:
    """``perfect`` then ``key=value`` pairs (``PERFECT_OPTIONS``) separated by commas: the model path ("" when not
    given) and the simulations (None: ``mcts.evaluation_simulations``)."""
    if not is_perfect(argument):
        raise PaijuError(f"scrofazero:perfect arguments start with {PERFECT!r}, got {argument!r}")
    named = parse_options(argument.partition(",")[2], _Named(), "scrofazero:perfect", only=PERFECT_OPTIONS,
                          why="it searches the true deal with a count: no scenarios to weigh, no time budget")
    return named.path, named.simulations


def make_scrofazero_agent(argument: str, seed: int) -> Agent:
    """The ``scrofazero`` agent factory for ``paiju.agents.register_agent``: a ``ScrofaZeroAgent``, or with
    ``perfect`` first a ``perfect.PerfectScrofaZero``."""
    from paiju.agents.scrofazero.model import load

    if is_perfect(argument):
        from paiju.agents.scrofazero.perfect import PerfectScrofaZero

        path, simulations = parse_perfect_argument(argument)
        _check_model(path, "scrofazero:perfect,path=MODEL")
        return PerfectScrofaZero(load(path or SHIPPED_MODEL), seed, simulations)
    path, options = parse_argument(argument)
    _check_model(path, "scrofazero:path=MODEL")
    return ScrofaZeroAgent(load(path or SHIPPED_MODEL), seed, options)


def _check_model(path: str, name_one: str) -> None:
    if not path and not SHIPPED_MODEL.is_file():
        raise PaijuError(f"scrofazero needs a model: no ScrofaNet ships at {SHIPPED_MODEL}; "
                         f"name one with {name_one} (a file written by model.save)")


__all__ = ["PERFECT", "PERFECT_OPTIONS", "ROLLOUT_AGENT", "SAMPLERS", "SHIPPED_MODEL", "ScrofaZeroAgent",
           "ScrofaZeroOptions", "is_perfect", "make_scrofazero_agent", "parse_argument", "parse_perfect_argument",
           "tried_mean"]
