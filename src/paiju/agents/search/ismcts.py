"""Single-observer information-set MCTS (SO-ISMCTS: Cowling, Powley & Whitehouse 2012, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), Algorithm 2), with PUCT selection (Silver et al. 2017) over the observer's
decisions.

One tree, seen by the searching seat: a node is a sequence of actions from the decision, so the observer's
nodes are its information sets (every action the observer sees is public in its searched phases). Each
iteration draws a world, then walks the tree in it:

- at the observer's nodes the candidates are the prior's best ``top`` actions with probabilities ``P`` (the
  softmax of its scores); among those legal in this world (``available`` counts how often each was), it
  takes the one maximising ``Q + c · P · sqrt(available) / (1 + visits)``, ``Q`` the child's mean value
  normalised to [0, 1] by the extreme values seen (an unvisited child counts at its parent's mean);
- at the other seats' nodes the rollout policy chooses, and the tree branches on what it chose (the others
  are modelled by the policy, not searched);
- the first node not visited before ends the walk; the world is played out by the rollout policy and its
  value for the observer is added to every node of the walk.

The decision is the most visited candidate (ties: the higher mean).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from paiju.agents.search.budget import Budget
from paiju.agents.search.prior import ranked, softmax
from paiju.agents.search.rollout import Rollout, ended
from paiju.agents.search.worlds import Worlds
from paiju.core.agent import Agent, ScoredAction
from paiju.core.game import Action, State


@dataclass(eq=False, slots=True)
class Node:
    """An action sequence from the decision: its statistics and children. ``candidates`` (observer's nodes
    only, once reached) are the prior's best actions with their probabilities."""

    prior: float = 1.0
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Action, Node] = field(default_factory=dict)
    candidates: tuple[tuple[Action, float], ...] | None = None

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Ismcts:
    """One decision's tree search for ``observer``; ``prior`` ranks its candidates at every node it reaches."""

    def __init__(self, root: Sequence[ScoredAction], observer: int, prior: Agent, rollout: Rollout,
                 top: int, c: float, temperature: float) -> None:
        self.observer = observer
        self.prior = prior
        self.rollout = rollout
        self.top = top
        self.c = c
        self.temperature = temperature
        self.root = Node()
        self._expand(self.root, root)
        self.low = math.inf
        self.high = -math.inf

    def search(self, worlds: Worlds, budget: Budget, rng: random.Random) -> list[ScoredAction]:
        """Iterate while ``budget`` allows; the root's visited candidates with their mean values, most visited
        first (ties: the higher mean)."""
        iteration = 0
        while budget.allows():
            budget.spend()
            self._iterate(worlds.draw(iteration, rng).state)
            iteration += 1
        visited = [(action, child) for action, child in self.root.children.items() if child.visits]
        visited.sort(key=lambda entry: (-entry[1].visits, -entry[1].mean()))
        return [ScoredAction(action, child.mean()) for action, child in visited]

    def _iterate(self, world: State) -> None:
        state = world.clone()
        deal = state.deal_number
        node = self.root
        path = [node]
        while not ended(state, deal):
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if seat == self.observer:
                action = self._select(node, state, legal)
            else:
                action = legal[0] if len(legal) == 1 else self.rollout.agents[seat].act(state.observation(seat), legal)
            state.apply(action)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node()
            path.append(child)
            node = child
            if child.visits == 0:
                break
        value = self.rollout.play_out(state, deal)
        self.low = min(self.low, value)
        self.high = max(self.high, value)
        for visited in path:
            visited.visits += 1
            visited.total += value

    def _select(self, node: Node, state: State, legal: Sequence[Action]) -> Action:
        """PUCT over the node's candidates available in this world (Cowling et al.'s availability counts)."""
        if node.candidates is None:
            self._expand(node, ranked(self.prior.explain(state.observation(self.observer), legal), legal))
        assert node.candidates is not None
        legal_set = set(legal)
        spread = self.high - self.low
        fallback = node.mean()
        best, best_score = None, -math.inf
        for action, _ in node.candidates:
            if action not in legal_set:
                continue
            child = node.children[action]
            child.available += 1
            value = child.mean() if child.visits else fallback
            normalised = (value - self.low) / spread if spread > 0 else 0.5
            score = normalised + self.c * child.prior * math.sqrt(child.available) / (1 + child.visits)
            if score > best_score:
                best, best_score = action, score
        assert best is not None, "the observer's legal actions are the same in every world"
        return best

    def _expand(self, node: Node, scored: Sequence[ScoredAction]) -> None:
        """Give an observer's node its candidates: the prior's best ``top`` among ``scored``."""
        best = list(scored)[: self.top]
        probabilities = softmax([entry.score for entry in best], self.temperature)
        node.candidates = tuple((entry.action, p) for entry, p in zip(best, probabilities, strict=True))
        for action, p in node.candidates:
            node.children[action] = Node(prior=p)
