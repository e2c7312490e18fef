"""ScrofaNet as the search's evaluator and as IEC's policy (ScrofaZero §8.6, §5.4, §8.13).

- ``NetworkEvaluator``: the ``mcts.Evaluator`` of a ``ScrofaNet`` — one forward pass per batch of leaves; the
  priors are ``model.policy`` over each state's legal cards (exactly 0 on illegal cards), the values the value
  head's (score points for the seat to move). A finished state gets its exact payoff and zero priors, as the
  protocol asks (the search itself never sends one).
- ``MixedEvaluator``: AlphaGo's leaf evaluation (Silver et al. 2016, "Mastering the game of Go with deep neural
  networks and tree search", eq. for V(s_L)): ``(1 − λ)·v_net + λ·z``, z the payoff of one game played out from
  the leaf (``mcts.RolloutEvaluator``); priors the network's. The network's value knows how a deal is going
  but tells the cards of one decision apart poorly (the shipped model's README); a rollout is unbiased for its
  player but noisy. λ = 1 skips the network's forward pass.
- ``network_policy``: the ``scenarios.Policy`` IEC needs, per-card values in points for the seat to move, read
  from the policy head as the authors' code does. The network is trained towards softmax(0.2·(Q − Q_max))
  (``mcts.POLICY_SHARPNESS``), so a logit is 0.2·Q plus a constant of the state, and logit / 0.2 is Q up to
  that constant, which cancels in IEC's q_max − q_a. (The authors scale logits by ``BETA_POST_RECT / BETA``;
  ``scenarios.IEC_BETA`` = 0.015 per point is that factor carried over to points.) The other seats' hands are
  averaged ("triple-1/3-hot", §8.13), since the seat whose play is scored could not see them. One forward pass
  for all moments; valuing each child position instead would take a pass per legal card.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch

from paiju.agents.scrofazero.features import encode_batch, legal_masks
from paiju.agents.scrofazero.mcts import POLICY_SHARPNESS, RolloutEvaluator, uniform_priors
from paiju.agents.scrofazero.model import ScrofaNet, policy
from paiju.agents.scrofazero.scenarios import Policy
from paiju.games.gongzhu.cards import NUM_CARDS
from paiju.games.gongzhu.state import GongzhuState


class NetworkEvaluator:
    """``evaluate(states) -> (priors [n, 52], values [n])`` by ``model`` (put in eval mode), float64 arrays."""

    def __init__(self, model: ScrofaNet) -> None:
        torch.set_num_threads(1)  # small forward passes: more threads only contend (evaluations use a process a core)
        self.model = model.eval()

    def evaluate(self, states: Sequence[GongzhuState]) -> tuple[np.ndarray, np.ndarray]:
        priors = np.zeros((len(states), NUM_CARDS))
        values = np.array([state.payoffs()[state.to_move] if state.over else 0.0 for state in states])
        playing = [row for row, state in enumerate(states) if not state.over]
        if playing:
            live = [states[row] for row in playing]
            with torch.inference_mode():
                logits, value = self.model(torch.from_numpy(encode_batch(live)))
                probabilities = policy(logits, torch.from_numpy(legal_masks(live)))
            priors[playing] = probabilities.double().numpy()
            values[playing] = value.double().numpy()
        return priors, values


class MixedEvaluator:
    """``evaluate(states)``: priors of ``network`` (uniform with ``mix`` = 1) and values ``(1 − mix)·network +
    mix·rollout`` (the module docstring)."""

    def __init__(self, network: NetworkEvaluator, rollout: RolloutEvaluator, mix: float) -> None:
        self.network = network
        self.rollout = rollout
        self.mix = mix

    def evaluate(self, states: Sequence[GongzhuState]) -> tuple[np.ndarray, np.ndarray]:
        played = np.array([self.rollout.rollout(state) for state in states])
        if self.mix == 1:
            return uniform_priors(states), played
        priors, values = self.network.evaluate(states)
        return priors, (1 - self.mix) * values + self.mix * played


def network_policy(model: ScrofaNet) -> Policy:
    """IEC's ``scenarios.Policy`` from ``model`` (put in eval mode): ``logits / POLICY_SHARPNESS`` in points for
    every card, the other hands averaged (the module docstring)."""
    model.eval()

    def values(states: Sequence[GongzhuState]) -> np.ndarray:
        with torch.inference_mode():
            logits, _ = model(torch.from_numpy(encode_batch(states, average_others=True)))
        return logits.double().numpy() / POLICY_SHARPNESS

    return values


__all__ = ["MixedEvaluator", "NetworkEvaluator", "network_policy"]
