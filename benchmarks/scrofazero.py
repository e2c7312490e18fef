"""ScrofaZero's costs, measured and printed: ``python benchmarks/scrofazero.py [--agent NAME] [--games N]
[--train-minutes M] [--repeats R] [--json]``.

- **Decision time** of the play-time agent (default ``scrofazero``: the shipped network, SS + IEC, 30 scenarios, 10 +
  2 × legal cards simulations each, leaves valued half by the network and half by a rollout) on one core (torch and
  BLAS on one thread): every decision of two copies of it at seats 0 and 2 against two ``mr-greed`` in ``--games``
  games dealt from seeds 0, 1, ...; the clock covers ``agent.act(observation, legal)`` alone. Decisions with one legal
  card are answered without a search; they are reported apart, and the median, 90th and 99th percentiles and maximum
  cover the others.
- **Self-play games per hour** on 2 cores: ``paiju.train.scrofazero.train`` with its defaults (2 actor
  processes and one learner, 64 games a batch, the paper's training search counts, Adam over the batch and two
  replayed ones, 3 passes), started from the network of ``--init`` (default the shipped one) so that the games
  are those of a trained player, for ``--train-minutes`` each run, no evaluation, no TensorBoard. The figure is
  the trainer's own: games played in the run divided by its wall time. The median of ``--repeats`` runs.
- **Value discrimination** (``--values N``): at N mid-game positions of ``mr-greed`` games (deal ``500 + i``, a
  seeded number of moves in), every legal card's value for the seat to move by the network (the child
  position's value) and by the mean of ``--rollouts`` ``mr-greed`` games from it (``mcts.RolloutEvaluator``);
  reported: the mean over positions of the correlation between the two across the cards, and the mean regret
  (rollout value of the network's best card minus the best rollout value), each with its standard error over the
  positions, and both for each position (``by_position``: the same positions for every network, so two networks
  compare deal by deal). Positions with fewer than three legal cards are skipped. Diagnoses the search's leaf
  values against ``mr-greed``'s play: a network trained by self-play learns values under the search's own play,
  which these references do not measure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import torch

import paiju
from common import machine
from paiju.agents.scrofazero.agent import SHIPPED_MODEL


def decision_times(agent_name: str, games: int) -> dict[str, float | int]:
    """Seconds per decision of ``agent_name`` (two copies) against two ``mr-greed`` (the module docstring)."""
    torch.set_num_threads(1)
    game = paiju.load_game("gongzhu")
    searched: list[float] = []
    forced = 0
    for number in range(games):
        agents = [paiju.make_agent(agent_name if seat % 2 == 0 else "mr-greed", "gongzhu", seed=number * 4 + seat)
                  for seat in range(4)]
        state = game.new_state(number)
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            observation = state.observation(seat)
            if seat % 2 == 0:
                start = time.perf_counter()
                action = agents[seat].act(observation, legal)
                elapsed = time.perf_counter() - start
                if len(legal) > 1:
                    searched.append(elapsed)
                else:
                    forced += 1
            else:
                action = agents[seat].act(observation, legal)
            state.apply(action)
    searched.sort()

    def percentile(share: float) -> float:
        return searched[min(len(searched) - 1, int(share * len(searched)))]

    return {"decisions": len(searched), "forced": forced, "median_s": statistics.median(searched),
            "p90_s": percentile(0.90), "p99_s": percentile(0.99), "max_s": searched[-1],
            "mean_s": statistics.fmean(searched)}


def value_discrimination(model: Path, positions: int, rollouts: int) -> dict[str, Any]:
    """The network's card values against ``rollouts``-game means (the module docstring)."""
    import random

    import numpy as np

    from paiju.agents.scrofazero import mcts
    from paiju.agents.scrofazero.evaluator import NetworkEvaluator
    from paiju.agents.scrofazero.model import load

    torch.set_num_threads(1)
    network = NetworkEvaluator(load(model))
    game = paiju.load_game("gongzhu")
    greed = [paiju.make_agent("mr-greed", "gongzhu", seed=seat) for seat in range(4)]
    rng = random.Random(0)
    correlations, regrets, detail = [], [], []
    for number in range(positions):
        state = game.new_state(500 + number)
        for _ in range(rng.randrange(4, 40)):
            state.apply(greed[state.to_move].act(state.observation(state.to_move), state.legal_actions()))
        cards = [card for card in range(52) if state.legal_mask() >> card & 1]
        if len(cards) < 3:
            continue
        by_network, by_rollouts = [], []
        for card in cards:
            child = state.clone()
            child.play(card)
            sign = 1 if (child.to_move - state.to_move) % 2 == 0 else -1
            by_network.append(sign * network.evaluate([child])[1][0])
            games = [mcts.RolloutEvaluator(lambda seed: paiju.make_agent("mr-greed", "gongzhu", seed), k).rollout(child)
                     for k in range(rollouts)]
            by_rollouts.append(sign * float(np.mean(games)))
        net, rolled = np.array(by_network), np.array(by_rollouts)
        correlation = float(np.corrcoef(net, rolled)[0, 1]) if net.std() > 0 and rolled.std() > 0 else None
        if correlation is not None:
            correlations.append(correlation)
        regrets.append(float(rolled[np.argmax(net)] - rolled.max()))
        detail.append({"deal": 500 + number, "correlation": correlation, "regret": regrets[-1]})
    return {"positions": len(regrets), "rollouts": rollouts, "mean_correlation": float(np.mean(correlations)),
            "correlation_se": float(np.std(correlations, ddof=1) / np.sqrt(len(correlations))),
            "mean_regret": float(np.mean(regrets)), "regret_se": float(np.std(regrets, ddof=1) / np.sqrt(len(regrets))),
            "by_position": detail}


def games_per_hour(init: Path, minutes: float) -> float:
    """The trainer's self-play games per hour in one run of ``minutes`` from ``init`` (the module docstring)."""
    from paiju.train.scrofazero import ScrofaZeroConfig, train

    with tempfile.TemporaryDirectory() as folder:
        config = ScrofaZeroConfig(out=Path(folder), init=str(init), minutes=minutes, eval_minutes=0)
        return train(config, tensorboard=False).games_per_hour


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="scrofazero", help="the play-time agent timed")
    parser.add_argument("--games", type=int, default=20, help="games of decisions timed (0: no timing)")
    parser.add_argument("--init", type=Path, default=SHIPPED_MODEL, help="network the training runs start from")
    parser.add_argument("--train-minutes", type=float, default=2.0, help="minutes of each training run (0: none)")
    parser.add_argument("--repeats", type=int, default=3, help="training runs; the median is reported")
    parser.add_argument("--values", type=int, default=0, help="positions of the value diagnosis (0: none)")
    parser.add_argument("--rollouts", type=int, default=48, help="rollouts per card in the value diagnosis")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    arguments = parser.parse_args()
    results: dict[str, object] = {"machine": machine(), "agent": arguments.agent, "games": arguments.games}
    if arguments.values:
        results["values"] = values = value_discrimination(arguments.init, arguments.values, arguments.rollouts)
        print(f"values of {values['positions']} positions' cards: correlation with {arguments.rollouts}-rollout "
              f"means {values['mean_correlation']:+.2f} ± {values['correlation_se']:.2f}, regret "
              f"{values['mean_regret']:+.1f} ± {values['regret_se']:.1f} points (± a standard error over positions)")
    if arguments.games:
        results["decisions"] = decision_times(arguments.agent, arguments.games)
    if arguments.train_minutes > 0:
        runs = [games_per_hour(arguments.init, arguments.train_minutes) for _ in range(arguments.repeats)]
        results["selfplay_games_per_hour"] = {"median": statistics.median(runs), "runs": runs,
                                              "minutes_each": arguments.train_minutes}
    if arguments.json:
        print(json.dumps(results, indent=2))
        return
    if "decisions" in results:
        times = results["decisions"]
        assert isinstance(times, dict)
        print(f"{arguments.agent}: {times['decisions']} searched decisions ({times['forced']} forced ones not "
              f"timed) in {arguments.games} games against mr-greed, one core")
        print(f"  median {times['median_s'] * 1e3:.1f} ms, p90 {times['p90_s'] * 1e3:.1f} ms, p99 "
              f"{times['p99_s'] * 1e3:.1f} ms, max {times['max_s'] * 1e3:.1f} ms, mean {times['mean_s'] * 1e3:.1f} ms")
    if "selfplay_games_per_hour" in results:
        found = results["selfplay_games_per_hour"]
        assert isinstance(found, dict)
        print(f"self-play: {found['median']:,.0f} games/hour on 2 actors + learner (median of "
              f"{len(found['runs'])} runs of {arguments.train_minutes} min: "
              f"{', '.join(f'{r:,.0f}' for r in found['runs'])})")


if __name__ == "__main__":
    main()
