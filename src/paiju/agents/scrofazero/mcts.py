"""ScrofaZero's perfect-information Monte-Carlo tree search, batched across searches (ScrofaZero §4, §8.6–§8.8).

The search sees every hand (a full ``GongzhuState``, "double dummy"): it is the policy improvement of training
(§4, §8.7), the search run in each sampled scenario at play time (§5.3), and a double-dummy analysis player.

- **Selection** (§8.6): from a node whose children have all been tried, the child maximising
  ``q_j + c·sqrt(ln N / n_j)``, with ``q_j`` the child's mean value for the seat to move at the node, ``n_j``
  its visits, ``N`` the node's visits and ``c = 30`` (score points). The paper's rule is plain UCB: it uses no
  prior, so the evaluator's priors are not used here. Equal scores are broken by the search's ``random.Random``.
  c = 30 suits leaf values that estimate the final payoff (the network's). With ``TerminalOrZero`` (every
  unfinished leaf 0) a card whose first line ends well keeps every later simulation while better cards stay
  at 0, the bonus being small beside payoffs of hundreds: give such searches a c of the payoffs' order (2000).
- **Expansion**: a node with untried children tries one of them, drawn by the same generator, before any
  UCB selection there (an untried child's UCB score, n_j = 0, is infinite; the paper is silent on their order).
  The new child is the leaf of the simulation.
- **Evaluation**: a non-final leaf is valued by the evaluator ("the value network evaluates leaves", §8.6);
  a finished game by its exact ``GongzhuState.payoffs``, never by the evaluator.
- **Values** are final payoffs in score points (``GongzhuState.payoffs``: the team's score minus the other
  team's, points already collected included), for a given seat; partners share them and the two teams' sum to
  zero, so one number per leaf, seen from team 0 (seats 0 and 2), backs up the path and each node scores its
  children with the sign of the seat to move there.
- **Search count** (§8.6): ``training_simulations`` = 2 × legal cards, ``evaluation_simulations`` = 10 + 2 ×
  legal cards; one simulation is one descent to a new leaf or to a finished game.
- **Result**: per card, the visits and the mean value ``q`` at the root (for the seat to move there); the card
  played is the searched one of highest ``q`` (§4: "choose the card with the highest Q"), ties broken by the
  generator; the policy target (p_MCTS of §4, eq. 3, in the authors' code's form) is
  ``softmax(0.2·(q − q_max))`` over the searched cards, zero elsewhere.

**Batching.** A ``MctsSearch`` stops at each leaf it needs valued (``pending``) until it is ``feed``-ed the value;
``run`` drives many searches so that one ``Evaluator.evaluate`` call (one network forward pass) values a leaf
of each. A search's course depends only on its own generator and its leaves' values, so ``run`` over many
searches gives the same results as running each alone whenever the evaluator is a function of the state.

**Time budgets.** ``run_until`` drives searches against a deadline instead (``Budget``, milliseconds), still
valuing leaves of many searches together, each round sized to the time left; a search may then have no count of
its own (``simulations=None``) and is ``stop``-ped where the time ran out.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from paiju.agents.rules.gongzhu_common import indices
from paiju.agents.search.budget import Budget
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.gongzhu.cards import CARD_NAMES, NUM_CARDS
from paiju.games.gongzhu.game import Gongzhu
from paiju.games.gongzhu.state import GongzhuState

EXPLORATION = 30.0
"""The UCB exploration constant c of §8.6, in score points."""
POLICY_SHARPNESS = 0.2
"""The policy target is softmax(POLICY_SHARPNESS · (Q − Q_max)), Q in score points (the authors' code)."""
EVALUATION_EXTRA = 10
"""Extra simulations when evaluating (§8.6: T = 10 + 2 × legal cards)."""

_GONGZHU = Gongzhu()


class Evaluator(Protocol):
    """Values the leaves of searches: ``evaluate(states) -> (priors [n, 52], values [n])``.

    For each state, prior probabilities of the 52 cards (zero on illegal cards) and the value of the final
    payoff (score points) for the seat to move; at a finished state, for ``state.to_move`` (the seat that won
    the last trick).
    """

    def evaluate(self, states: Sequence[GongzhuState]) -> tuple[np.ndarray, np.ndarray]: ...


def training_simulations(state: GongzhuState) -> int:
    """The search count of training: 2 × the number of legal cards (§8.6, §8.7)."""
    return 2 * _legal_count(state)


def evaluation_simulations(state: GongzhuState) -> int:
    """The search count when evaluating (playing for strength): 10 + 2 × the number of legal cards (§8.6)."""
    return EVALUATION_EXTRA + 2 * _legal_count(state)


def _legal_count(state: GongzhuState) -> int:
    if state.over:
        raise PaijuError("the game is over: there is no card to search")
    return state.legal_mask().bit_count()


def uniform_priors(states: Sequence[GongzhuState]) -> np.ndarray:
    """Priors [n, 52]: uniform over each state's legal cards (all zero for a finished state)."""
    priors = np.zeros((len(states), NUM_CARDS))
    for row, state in enumerate(states):
        legal = indices(state.legal_mask())
        if legal:
            priors[row, legal] = 1.0 / len(legal)
    return priors


def _mover_payoff(state: GongzhuState) -> float:
    """The exact final payoff for ``state.to_move`` (the last trick's winner once the game is over)."""
    return state.payoffs()[state.to_move]


class TerminalOrZero:
    """The evaluator that knows only the rules: the exact payoff of a finished game, else 0; uniform priors."""

    def evaluate(self, states: Sequence[GongzhuState]) -> tuple[np.ndarray, np.ndarray]:
        values = np.array([_mover_payoff(state) if state.over else 0.0 for state in states])
        return uniform_priors(states), values


class RolloutEvaluator:
    """Values a state by playing it out with four agents (one per seat, each seeing only its own observation, as
    in ``play_game``) and returning the final payoff for the seat to move; uniform priors.

    ``agent_factory(seed)`` makes one agent, e.g. ``lambda seed: make_agent("mr-greed", "gongzhu", seed)``.
    The agents' seeds come from ``seed``, the seat and the state (its hands and plays), so a state's value does
    not depend on which other states were valued before it: batched and one-by-one searches agree.
    """

    def __init__(self, agent_factory: Callable[[int], Agent], seed: int = 0) -> None:
        self.agent_factory = agent_factory
        self.seed = seed

    def evaluate(self, states: Sequence[GongzhuState]) -> tuple[np.ndarray, np.ndarray]:
        return uniform_priors(states), np.array([self.rollout(state) for state in states])

    def rollout(self, state: GongzhuState, repeat: int = 0) -> float:
        """The final payoff, for the seat to move in ``state``, of playing ``state`` (not changed) out; ``repeat``
        numbers independent games from the same state."""
        if state.over:
            return _mover_payoff(state)
        position = hash((self.seed, repeat, tuple(state.hands), tuple(state.actions)))
        agents = [self.agent_factory(hash((position, seat)) & 0xFFFFFFFF) for seat in range(4)]
        final = play_game(_GONGZHU, agents, seed=0, state=state.clone())
        return final.payoffs()[state.to_move]


@dataclass(frozen=True)
class SearchResult:
    """What one search found at its root, arrays indexed by card (``13 * suit + rank``)."""

    player: int
    """The seat to move at the root: ``q`` and ``value`` are its final payoffs."""
    card: int
    """The card chosen: the searched card of highest ``q``."""
    visits: np.ndarray
    """Visits of each card's child (int64 [52]; 0 for cards not searched or not legal)."""
    q: np.ndarray
    """Mean backed-up value of each searched card (float64 [52], score points; 0 where ``visits`` is 0)."""
    policy: np.ndarray
    """The policy target softmax(0.2·(q − q_max)) over the searched cards (float64 [52], zero elsewhere)."""

    @property
    def action(self) -> str:
        """The chosen card's name."""
        return CARD_NAMES[self.card]

    @property
    def value(self) -> float:
        """The root's value under the search: ``q`` of the chosen card."""
        return float(self.q[self.card])


class _Node:
    """A position of the tree: its state, the sign (+1 team 0, −1 team 1) of its seat to move, the visits and the
    sum of the values (team 0's view) backed up through it, its tried children by card, its untried cards."""

    __slots__ = ("children", "sign", "state", "total", "untried", "visits")

    def __init__(self, state: GongzhuState) -> None:
        self.state = state
        self.sign = 1 - 2 * (state.to_move & 1)
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, _Node] = {}
        self.untried = indices(state.legal_mask())


class MctsSearch:
    """One search from a full state (the module docstring): ``pending`` / ``feed`` until ``done``, then ``result``.

    The state is copied; ``rng`` breaks ties and orders the untried children, so the search is reproducible.
    ``simulations=None``: no count, the search runs ``simulate`` by ``simulate`` until ``stop`` (``run_until``).
    """

    def __init__(self, state: GongzhuState, simulations: int | None, rng: random.Random, c: float = EXPLORATION,
                 sharpness: float = POLICY_SHARPNESS) -> None:
        if not isinstance(state, GongzhuState):
            raise PaijuError(f"MCTS searches a GongzhuState, got {type(state).__name__}")
        if state.over:
            raise PaijuError("the game is over: there is no card to search")
        if simulations is not None and (not isinstance(simulations, int) or isinstance(simulations, bool)
                                        or simulations < 1):
            raise PaijuError(f"simulations must be a positive integer or None, got {simulations!r}")
        if not (math.isfinite(c) and c >= 0):
            raise PaijuError(f"the exploration constant c must be finite and non-negative, got {c!r}")
        if not (math.isfinite(sharpness) and sharpness >= 0):
            raise PaijuError(f"the policy sharpness must be finite and non-negative, got {sharpness!r}")
        self.simulations = simulations
        self.rng = rng
        self.c = c
        self.sharpness = sharpness
        self.completed = 0
        self._root = _Node(state.clone())
        self._path: list[_Node] | None = None
        self._result: SearchResult | None = None

    @property
    def cards(self) -> int:
        """The cards legal at the root, a mask (bit ``13 * suit + rank``)."""
        return self._root.state.legal_mask()

    @property
    def tried(self) -> int:
        """The root's cards tried so far, a mask."""
        return sum(1 << card for card in self._root.children)

    @property
    def done(self) -> bool:
        """Whether every simulation has been run and backed up (without a count: once ``stop``-ped)."""
        return self.completed == self.simulations

    def pending(self) -> GongzhuState | None:
        """The leaf to value next (``feed`` its value), after running the simulations that end in finished games;
        None once ``done``. Asked again before ``feed``, it returns the same leaf. Do not change the state."""
        if self._path is not None:
            return self._path[-1].state
        if self.simulations is None:
            raise PaijuError("a search without a simulation count runs one simulate() at a time until stop()")
        while not self.done:
            leaf = self.simulate()
            if leaf is not None:
                return leaf
        return None

    def simulate(self) -> GongzhuState | None:
        """Run one more simulation: the leaf it reached, to ``feed`` its value (do not change the state), or None
        when it ended in a finished game, whose payoff is backed up already."""
        if self._path is not None:
            raise PaijuError("simulate() needs the pending leaf's value first: feed() it")
        if self.done:
            raise PaijuError(f"the search has run all its {self.simulations} simulations")
        path = self._descend()
        leaf = path[-1]
        if leaf.state.over:
            self._back_up(path, leaf.state.payoffs()[0])
            return None
        self._path = path
        return leaf.state

    def stop(self) -> SearchResult:
        """End the search after the simulations backed up so far (at least one, no leaf pending): ``done`` from now
        on. Its result."""
        if self._path is not None or not self.completed:
            raise PaijuError(f"stop() needs at least one simulation backed up and no leaf waiting for its value; "
                             f"{self.completed} backed up, {'one' if self._path is not None else 'none'} waiting")
        self.simulations = self.completed
        return self.result()

    def feed(self, value: float) -> None:
        """Back up the value (final payoff, score points, for the seat to move) of the leaf ``pending`` gave."""
        if self._path is None:
            raise PaijuError("feed() needs a leaf: call pending() first (and not after the search is done)")
        value = float(value)
        if not math.isfinite(value):
            raise PaijuError(f"a leaf value must be a finite number of points, got {value!r}")
        path, self._path = self._path, None
        self._back_up(path, value * path[-1].sign)

    def result(self) -> SearchResult:
        """The root's visits, values, chosen card and policy target (the module docstring)."""
        if self.simulations is None:
            raise PaijuError(f"the search has run {self.completed} simulations and has no count: stop() it")
        if not self.done:
            raise PaijuError(f"the search has run {self.completed} of its {self.simulations} simulations: "
                             f"drive it with run() or pending()/feed() until done")
        if self._result is None:
            self._result = self._summarise()
        return self._result

    def _descend(self) -> list[_Node]:
        """Select through fully tried nodes (UCB), then try one untried child: the path to the new leaf (or to a
        finished game)."""
        node = self._root
        path = [node]
        while not node.state.over:
            untried = node.untried
            if untried:
                index = self.rng.randrange(len(untried))
                untried[index], untried[-1] = untried[-1], untried[index]
                card = untried.pop()
                state = node.state.clone()
                state.play(card)
                child = node.children[card] = _Node(state)
                path.append(child)
                return path
            node = self._select(node)
            path.append(node)
        return path

    def _select(self, node: _Node) -> _Node:
        """The child of highest ``q_j + c·sqrt(ln N / n_j)`` (§8.6), equal scores broken by the generator."""
        children = list(node.children.values())
        if len(children) == 1:
            return children[0]
        sign, scale = node.sign, self.c * math.sqrt(math.log(node.visits))
        scores = [sign * child.total / child.visits + scale / math.sqrt(child.visits) for child in children]
        best = max(scores)
        ties = [child for child, score in zip(children, scores, strict=True) if score == best]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def _back_up(self, path: list[_Node], team_value: float) -> None:
        for node in path:
            node.visits += 1
            node.total += team_value
        self.completed += 1

    def _summarise(self) -> SearchResult:
        root = self._root
        visits = np.zeros(NUM_CARDS, dtype=np.int64)
        q = np.zeros(NUM_CARDS)
        for card, child in root.children.items():
            visits[card] = child.visits
            q[card] = root.sign * child.total / child.visits
        searched = [card for card, child in root.children.items() if child.visits]
        best = max(q[card] for card in searched)
        ties = sorted(card for card in searched if q[card] == best)
        card = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        policy = np.zeros(NUM_CARDS)
        policy[searched] = np.exp(self.sharpness * (q[searched] - best))
        policy /= policy.sum()
        return SearchResult(player=root.state.to_move, card=card, visits=visits, q=q, policy=policy)


def run(searches: Sequence[MctsSearch], evaluator: Evaluator) -> list[SearchResult]:
    """Drive searches to the end together: each round values the pending leaf of every unfinished search in one
    ``evaluator.evaluate`` call and feeds the values back. Returns the results in the searches' order."""
    while True:
        waiting = []
        for mcts in searches:
            leaf = mcts.pending()
            if leaf is not None:
                waiting.append((mcts, leaf))
        if not waiting:
            return [mcts.result() for mcts in searches]
        values = _values(evaluator, [leaf for _, leaf in waiting])
        for (mcts, _), value in zip(waiting, values, strict=True):
            mcts.feed(value)


def run_until(searches: Sequence[MctsSearch], evaluator: Evaluator, budget: Budget) -> list[SearchResult | None]:
    """Drive searches against the time budget ``budget`` (``Budget(None, ms)``), then stop each where it is: the
    results in the searches' order, None for one that ran no simulation.

    Rounds value the leaves of several searches in one ``evaluator.evaluate`` call, one simulation each, the
    searches taking turns (those ``done`` skipped); every simulation is ``budget.spend``-t. A round holds as many
    searches as the time left allows at this call's mean time per simulation so far (at least one; the first round
    one), so that the last round ends near the deadline, and none starts once ``budget.allows`` no more, except
    that, until the first search has tried every card at its root, every round holds it, whatever the time: for
    the scenarios of one observation, every legal card then has a value.
    """
    if budget.deadline is None:
        raise PaijuError("run_until needs a time budget: Budget(None, ms)")
    if not searches:
        raise PaijuError("run_until needs at least one search")
    started = time.perf_counter()
    first = searches[0]
    turns = itertools.cycle(searches)
    while not all(mcts.done for mcts in searches):
        trying = first.tried != first.cards and not first.done
        if not (trying or budget.allows()):
            break
        size = 1
        elapsed = time.perf_counter() - started
        if budget.spent and elapsed > 0:
            fits = int((budget.deadline - time.perf_counter()) * budget.spent / elapsed)
            size = max(1, min(sum(not mcts.done for mcts in searches), fits))
        batch = [first] if trying else []
        while len(batch) < size:
            mcts = next(turns)
            if not mcts.done and mcts not in batch:
                batch.append(mcts)
        waiting = []
        for mcts in batch:
            budget.spend()
            leaf = mcts.simulate()
            if leaf is not None:
                waiting.append((mcts, leaf))
        if waiting:
            for (mcts, _), value in zip(waiting, _values(evaluator, [leaf for _, leaf in waiting]), strict=True):
                mcts.feed(value)
    return [mcts.stop() if mcts.completed else None for mcts in searches]


def _values(evaluator: Evaluator, leaves: list[GongzhuState]) -> np.ndarray:
    """The evaluator's values of ``leaves``, refused unless there is one per leaf."""
    _, values = evaluator.evaluate(leaves)
    if np.shape(values) != (len(leaves),):
        raise PaijuError(f"the evaluator returned values of shape {np.shape(values)} for {len(leaves)} states; "
                         f"expected ({len(leaves)},)")
    return np.asarray(values)


def search(state: GongzhuState, evaluator: Evaluator, simulations: int, rng: random.Random,
           c: float = EXPLORATION) -> SearchResult:
    """One search of ``simulations`` simulations from ``state`` (e.g. ``training_simulations(state)``)."""
    return run([MctsSearch(state, simulations, rng, c)], evaluator)[0]
