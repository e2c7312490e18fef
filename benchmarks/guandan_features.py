"""How closely a GuanDan network imitating ``rules`` agrees with it, by the features it reads; measured and printed:
``python benchmarks/guandan_features.py --decisions 300000 --steps 800 [--json]``.

- Variants: DanZero's 513 + 54 features (``paper``); those and who played the play to beat (``paper+who``,
  516 + 54); paiju's ``plus`` (516 + 174: also the hand each action leaves). ``paper`` and ``paper+who`` are
  column slices of ``plus`` (its first blocks are the paper's), so all three learn from the same decisions.
- Data: the ``rules`` player at every seat, full games to A dealt from ``--seed`` (``SelfPlayWorker.collect`` with
  a teacher, as the warm start of ``paiju train dmc`` plays them), until ``--decisions`` play decisions of more
  than one legal action; the last ``--held-out`` decisions are held out.
- Training: each variant a fresh ``FeatureQNet`` of ``ModelConfig()`` (MLP 3 × 256, tanh), ``--steps`` steps of
  ``--batch`` decisions drawn at random (seeded), the warm start's loss and optimizer (``paiju.train.dmc.imitate``,
  ``make_optimizer``: cross-entropy over softmax(Q / 0.1) plus the chosen action's squared return error;
  RMSProp at 1e-3). Torch on one thread.
- Reported: held-out top-1 agreement (the network's highest Q is the rule bot's action; suits count) after
  every quarter of the steps, and the seconds each variant took. It measures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from common import machine
from paiju.agents.dmc import danzero_features as F
from paiju.agents.dmc.models import FeatureQNet, ModelConfig
from paiju.train.dmc import DMCConfig, imitate, make_optimizer
from paiju.train.dmc_selfplay import Imitation, SelfPlayWorker
from paiju.train.segments import first_rows, owners, top1_agreement

VARIANTS = {"paper": (F.STATE_SIZE, F.ACTION_SIZE), "paper+who": (F.PLUS_STATE_SIZE, F.ACTION_SIZE),
            "plus": (F.PLUS_STATE_SIZE, F.PLUS_ACTION_SIZE)}
"""Each variant's columns: the first ``state`` of the state features and the first ``action`` of each action's."""


def teacher_decisions(decisions: int, seed: int) -> Imitation:
    """``rules`` decisions in ``plus`` features, chunk after chunk of one seeded worker."""
    worker = SelfPlayWorker("guandan", "adp", ModelConfig(features="plus"), 0.0, seed)
    parts, found, index = [], 0, 0
    while found < decisions:
        chunk = worker.collect(index, min(20_000, decisions - found), teacher="rules")
        parts.append(chunk.samples["player"])
        found += len(parts[-1])
        index += 1
    return Imitation.concat(parts)


def columns(data: Imitation, state: int, action: int) -> Imitation:
    return Imitation(data.state[:, :state], data.actions[:, :action], data.counts, data.chosen, {}, data.target)


def pick(data: Imitation, starts: np.ndarray, rows: np.ndarray) -> Imitation:
    """The decisions ``rows`` of ``data`` (``starts``: each decision's first action row)."""
    actions = np.concatenate([np.arange(starts[r], starts[r] + data.counts[r]) for r in rows])
    return Imitation(data.state[rows], data.actions[actions], data.counts[rows], data.chosen[rows], {},
                     data.target[rows])


def agreement(network: FeatureQNet, data: Imitation) -> float:
    """Share of ``data``'s decisions whose highest Q is the teacher's action."""
    with torch.inference_mode():
        counts = torch.from_numpy(data.counts).long()
        owner = owners(counts)
        q = network.score(torch.from_numpy(data.state).float(), torch.from_numpy(data.actions).float(), owner=owner)
        return top1_agreement(q, owner, first_rows(counts) + torch.from_numpy(data.chosen).long())


def run_variant(data: Imitation, held: int, args: argparse.Namespace, config: DMCConfig) -> dict[str, object]:
    torch.manual_seed(args.seed)
    network = FeatureQNet(data.state.shape[1] + data.actions.shape[1], ModelConfig())
    optimizer = make_optimizer(network, config)
    starts = np.concatenate([[0], np.cumsum(data.counts)[:-1]])
    train_rows, test = len(data) - held, pick(data, starts, np.arange(len(data) - held, len(data)))
    rng = np.random.default_rng(args.seed)
    curve, began = [], time.perf_counter()
    for step in range(1, args.steps + 1):
        imitate(network, optimizer, pick(data, starts, rng.choice(train_rows, args.batch, replace=False)), config)
        if step % max(1, args.steps // 4) == 0 or step == args.steps:
            curve.append((step, round(agreement(network, test), 4)))
    return {"curve": curve, "seconds": round(time.perf_counter() - began, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=300_000)
    parser.add_argument("--held-out", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=800)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    began = time.perf_counter()
    data = teacher_decisions(args.decisions, args.seed)
    print(f"{len(data):,} rules decisions ({len(data.actions):,} legal actions) in "
          f"{time.perf_counter() - began:.0f} s", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        config = DMCConfig(game="guandan", out=Path(folder), minutes=1)
        results = {}
        for name, (state, action) in VARIANTS.items():
            results[name] = run_variant(columns(data, state, action), args.held_out, args, config)
            print(f"{name:10s} held-out top-1 by step: {results[name]['curve']} ({results[name]['seconds']} s)",
                  file=sys.stderr)
    report = {"machine": machine(), "command": " ".join(sys.argv), "decisions": len(data), "results": results}
    print(json.dumps(report, indent=1) if args.json else
          "\n".join(f"| {name} | {r['curve'][-1][1]:.3f} |" for name, r in results.items()))


if __name__ == "__main__":
    main()
