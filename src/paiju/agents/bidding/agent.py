"""``learned-bid``: bids from the bid model, plays with another DouDizhu agent.

**Decision rule.** A bid b made good pays b × S to the landlord, S the landlord's score per unit of base bid,
so with the model's estimate E of S the landlord's stake grows with the bid when E > 0 and shrinks when E < 0.
Passing is not worth 0, though: another seat may win the bidding with a hand of its own, and losing a deal as
a peasant to a strong landlord costs too. So the rule asks E to clear a threshold per bid level, t1 <= t2 <=
t3, and bids the highest legal bid whose threshold E clears (bid k needs E >= t_k), else passes. It is
monotonic: a larger estimate never bids less. The thresholds ship in the model file, tuned for its play agent
on evaluation seeds other than the reported one (``weights/README.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.agents.bidding.model import BidModel
from paiju.agents.rules.bidding import highest_bid
from paiju.core.agent import Agent, ScoredAction
from paiju.core.game import JSON, Action


def choose_bid(estimate: float, legal: Sequence[int], thresholds: Sequence[float]) -> int:
    """The highest legal bid k with ``estimate >= thresholds[k - 1]``; the lowest legal bid (0, a pass) if none."""
    return highest_bid(estimate, legal, thresholds)


class LearnedBidAgent(Agent):
    """Bids by ``choose_bid`` on ``model``'s estimate of its hand; every other decision goes to ``player``."""

    def __init__(self, model: BidModel, player: Agent, thresholds: Sequence[float] | None = None) -> None:
        self.model = model
        self.player = player
        self.thresholds = tuple(thresholds) if thresholds is not None else model.thresholds
        self.name = f"learned-bid:{player.name}"

    def bid(self, observation: Any, legal: Sequence[int]) -> tuple[int, float]:
        """The bid and the estimate it came from."""
        estimate = self.model.estimate(observation.hand)
        return choose_bid(estimate, legal, self.thresholds), estimate

    def act(self, observation: Any, legal: Sequence[Action]) -> Action:
        if observation.phase == "bid":
            return self.bid(observation, legal)[0]  # type: ignore[arg-type]
        return self.player.act(observation, legal)

    def scale(self, observation: Any) -> str:
        if observation.phase != "bid":
            return self.player.scale(observation)
        return ("the bid model's estimate of the landlord's score per unit of bid for the bid chosen; the other "
                "bids one point lower per step away from it")

    def explain(self, observation: Any, legal: Sequence[Action]) -> list[ScoredAction]:
        """While bidding: the chosen bid first (scored with the estimate), the others by distance from it."""
        if observation.phase != "bid":
            return self.player.explain(observation, legal)
        chosen, estimate = self.bid(observation, legal)  # type: ignore[arg-type]
        ranked = sorted(legal, key=lambda b: abs(b - chosen))  # type: ignore[operator]
        return [ScoredAction(bid, estimate if bid == chosen else estimate - abs(bid - chosen))  # type: ignore[operator]
                for bid in ranked]

    def begin(self, game: str, seat: int, rules: dict[str, JSON]) -> None:
        self.player.begin(game, seat, rules)

    def finish(self, result: dict[str, JSON]) -> None:
        self.player.finish(result)

    def close(self) -> None:
        self.player.close()


__all__ = ["LearnedBidAgent", "choose_bid"]
