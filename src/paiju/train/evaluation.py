"""Evaluation during training: the latest networks against fixed opponents, with paiju's own evaluators.

Runs in a separate process (``spawn``) so the learner never waits for it; the learner snapshots its networks
to ``DIR/eval-model.pt`` (replaced only when no evaluation is running) and collects the result when it is
ready. Figures, with 95 % intervals over duplicate deals:

- DouDizhu: research mode, role-swapped (each deck played with the model as landlord and as peasants):
  ``wp`` the win rate and ``adp`` the average difference in points (``paiju.eval.doudizhu``);
- GuanDan: single rounds, each deal played as dealt and rotated: ``wp`` the round win rate of the model's
  team and ``adp`` its mean round result in levels (``paiju.eval.guandan``).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

from paiju.eval.stats import Estimate

EVAL_MODEL_FILE = "eval-model.pt"


@dataclass(frozen=True, slots=True)
class EvalRow:
    """One opponent's result at one point of training."""

    seconds: float
    frames: int
    opponent: str
    deals: int
    wp: float
    wp_low: float | None
    wp_high: float | None
    adp: float
    adp_low: float | None
    adp_high: float | None

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def __str__(self) -> str:
        return f"vs {self.opponent}: WP {self.wp:.3f} ADP {self.adp:+.2f}"


def _row(seconds: float, frames: int, opponent: str, deals: int, wp: Estimate, adp: Estimate) -> EvalRow:
    return EvalRow(seconds, frames, opponent, deals, wp.value, wp.low, wp.high, adp.value, adp.low, adp.high)


def evaluate_model(game: str, model: Path, opponents: tuple[str, ...], deals: int, seed: int, seconds: float,
                   frames: int) -> list[EvalRow]:
    """The networks in ``model`` against each opponent, over ``deals`` duplicate deals."""
    rows = []
    for opponent in opponents:
        if game == "doudizhu":
            from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu

            report = evaluate_doudizhu(DouDizhuEvalConfig(f"dmc:{model}", opponent, decks=deals, seed=seed),
                                       progress=False)
            overall = report.agents["A"].overall
            rows.append(_row(seconds, frames, opponent, deals, overall.wp, overall.adp))
        else:
            from paiju.eval.guandan import GuanDanEvalConfig, evaluate_guandan

            report = evaluate_guandan(GuanDanEvalConfig(f"dmc:{model}", opponent, deals=deals, seed=seed, rounds=1),
                                      progress=False)
            rows.append(_row(seconds, frames, opponent, deals, report.game_wins, report.round_result))
    return rows


class BackgroundEvaluator:
    """At most one evaluation at a time, in its own process."""

    def __init__(self) -> None:
        self.executor = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        self.pending: Future[list[EvalRow]] | None = None

    @property
    def busy(self) -> bool:
        return self.pending is not None and not self.pending.done()

    def start(self, game: str, model: Path, opponents: tuple[str, ...], deals: int, seed: int, seconds: float,
              frames: int) -> None:
        self.pending = self.executor.submit(evaluate_model, game, model, opponents, deals, seed, seconds, frames)

    def finished(self, wait: bool = False) -> list[EvalRow]:
        """The rows of an evaluation that has finished (waiting for it with ``wait``), else nothing."""
        if self.pending is None or not (wait or self.pending.done()):
            return []
        pending, self.pending = self.pending, None
        return pending.result()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["EVAL_MODEL_FILE", "BackgroundEvaluator", "EvalRow", "evaluate_model"]
