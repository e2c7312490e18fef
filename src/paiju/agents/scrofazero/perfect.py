"""``PerfectScrofaZero``: ScrofaZero's double-dummy player, which sees every hand (ScrofaZero §4, §8.6).

A decision, from the full ``GongzhuState``: one perfect-information MCTS (``mcts.MctsSearch``: UCB, c = 30,
leaves valued by the network through ``NetworkEvaluator``) of ``simulations`` simulations, by default
``mcts.evaluation_simulations`` = 10 + 2 × legal cards (§8.6) and never fewer than the legal cards, so that every
card is tried; the card of highest Q is played (§4), ties broken by the agent's ``seed``. It is the search
ScrofaZero runs in each sampled scenario, run once in the true deal.

What it is for: analysis. Playing with the hidden hands in view, it measures how much a network's search gains
from knowing the deal: ``paiju eval gongzhu scrofazero:perfect,path=MODEL mr-greed`` is an upper bound for
``scrofazero:path=MODEL``, not a fair result. It is a ``PerfectInformationAgent``: only ``play_game`` gives it
the state, its ``act`` on an observation refuses, and the arena and the agent bridge never seat it.

Agent names: ``scrofazero:perfect`` (the shipped network) or ``scrofazero:perfect,path=MODEL,simulations=N``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paiju.agents.scrofazero import mcts
from paiju.core.agent import PerfectInformationAgent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.game import Action, State
from paiju.games.gongzhu.cards import CARD_INDEX
from paiju.games.gongzhu.state import GongzhuState

if TYPE_CHECKING:
    from paiju.agents.scrofazero.model import ScrofaNet


class PerfectScrofaZero(PerfectInformationAgent):
    """Plays the best-Q card of one network-guided MCTS of the true deal (the module docstring)."""

    name = "scrofazero:perfect"

    def __init__(self, model: ScrofaNet, seed: int = 0, simulations: int | None = None) -> None:
        from paiju.agents.scrofazero.evaluator import NetworkEvaluator

        if simulations is not None and (not isinstance(simulations, int) or isinstance(simulations, bool)
                                        or simulations < 1):
            raise PaijuError(f"scrofazero:perfect simulations must be a whole number >= 1, got {simulations!r}")
        self.simulations = simulations
        self.evaluator = NetworkEvaluator(model)
        self.rng = random.Random(seed)

    def act_perfect(self, state: State, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        return self.search(state, legal).action

    def explain_perfect(self, state: State, legal: Sequence[Action]) -> list[ScoredAction]:
        """Every legal card with its Q (final score points for the mover's team), best first."""
        result = self.search(state, legal)
        return sorted((ScoredAction(card, float(result.q[CARD_INDEX[card]])) for card in legal),
                      key=lambda scored: -scored.score)

    def search(self, state: State, legal: Sequence[Action]) -> mcts.SearchResult:
        """The search of one decision; ``legal`` must be the state's legal cards."""
        if not isinstance(state, GongzhuState):
            raise PaijuError(f"scrofazero:perfect plays a full GongzhuState, got {type(state).__name__}")
        if sorted(legal) != sorted(state.legal_actions()):
            raise PaijuError(f"scrofazero:perfect was given legal cards {list(legal)!r}, but the state's are "
                             f"{state.legal_actions()!r}")
        simulations = max(self.simulations or mcts.evaluation_simulations(state), len(legal))
        search = mcts.MctsSearch(state, simulations, random.Random(self.rng.getrandbits(64)))
        return mcts.run([search], self.evaluator)[0]


__all__ = ["PerfectScrofaZero"]
