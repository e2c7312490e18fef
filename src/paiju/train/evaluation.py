"""Evaluation during training: the latest networks against fixed opponents, with paiju's own evaluators.

Runs in a separate process (``spawn``) so the learner never waits for it; the learner snapshots its networks
to ``DIR/eval-model.pt`` (replaced only when no evaluation is running) and collects the result when it is
ready. The learner may stop an evaluation at any time (the final one, on Ctrl-C): its process is terminated.
Figures, with 95 % intervals over duplicate deals:

- DouDizhu: research mode, role-swapped (each deck played with the model as landlord and as peasants):
  ``wp`` the win rate and ``adp`` the average difference in points (``paiju.eval.doudizhu``);
- GuanDan: single rounds, each deal played as dealt and rotated: ``wp`` the round win rate of the model's
  team and ``adp`` its mean round result in levels (``paiju.eval.guandan``);
- Gongzhu: two copies of the model against two of the opponent, each deal played as dealt and rotated
  (``paiju.eval.gongzhu``): ``wp`` the share of games won, ``adp`` the mean points per game (against
  ``mr-greed``: WPG, ScrofaZero §5.2, on fewer deals).
"""

from __future__ import annotations

import multiprocessing
import threading
import traceback
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from paiju.core.processes import die_with_parent
from paiju.eval.stats import Estimate
from paiju.train.backends import TrainingError
from paiju.train.stopping import ignore_sigint, sigint_held

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
    games: int = 0
    """Games played in training so far (0 where the run counts frames only)."""

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    def __str__(self) -> str:
        return f"vs {self.opponent}: WP {self.wp:.3f} ADP {self.adp:+.2f}"


def _row(seconds: float, frames: int, opponent: str, deals: int, wp: Estimate, adp: Estimate,
         games: int) -> EvalRow:
    return EvalRow(seconds, frames, opponent, deals, wp.value, wp.low, wp.high, adp.value, adp.low, adp.high, games)


def evaluate_model(game: str, agent: str, opponents: tuple[str, ...], deals: int, seed: int, seconds: float,
                   frames: int, games: int = 0, rules: dict[str, Any] | None = None) -> list[EvalRow]:
    """The agent named ``agent`` (e.g. ``dmc:DIR/eval-model.pt``) against each opponent, over ``deals``
    duplicate deals (DouDizhu: research mode, under the ruleset options ``rules``, e.g. 癞子's)."""
    rows = []
    for opponent in opponents:
        if game == "gongzhu":
            from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu
            from paiju.eval.stats import duplicate_rate, mean_interval

            outcomes = evaluate_gongzhu(GongzhuEvalConfig(agent, opponent, deals=deals, seed=seed),
                                        progress=False).outcomes
            won = duplicate_rate([[result > 0 for result in outcome.results] for outcome in outcomes])
            points = mean_interval([outcome.per_game for outcome in outcomes])
            rows.append(_row(seconds, frames, opponent, deals, won, points, games))
        elif game == "doudizhu":
            from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu

            report = evaluate_doudizhu(DouDizhuEvalConfig(agent, opponent, decks=deals, seed=seed,
                                                          rules=dict(rules or {})), progress=False)
            overall = report.agents["A"].overall
            rows.append(_row(seconds, frames, opponent, deals, overall.wp, overall.adp, games))
        else:
            from paiju.eval.guandan import GuanDanEvalConfig, evaluate_guandan

            report = evaluate_guandan(GuanDanEvalConfig(agent, opponent, deals=deals, seed=seed, rounds=1),
                                      progress=False)
            rows.append(_row(seconds, frames, opponent, deals, report.game_wins, report.round_result, games))
    return rows


def _evaluate_into(connection: Connection, arguments: tuple[Any, ...]) -> None:
    """The evaluation process: ``evaluate_model(*arguments)``, its rows (or the traceback) sent back. Ctrl-C is
    the learner's to handle: the process ignores SIGINT and is terminated when the learner stops it (or dies)."""
    die_with_parent()
    ignore_sigint()
    try:
        connection.send(("ok", evaluate_model(*arguments)))
    except Exception:
        connection.send(("error", traceback.format_exc()))


class BackgroundEvaluator:
    """At most one evaluation at a time, in its own process (``spawn``), which ``cancel`` terminates."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None

    @property
    def busy(self) -> bool:
        return self.connection is not None and not self.connection.poll()

    def start(self, game: str, agent: str, opponents: tuple[str, ...], deals: int, seed: int, seconds: float,
              frames: int, games: int = 0, rules: dict[str, Any] | None = None) -> None:
        here, there = self.context.Pipe(duplex=False)
        arguments = (game, agent, opponents, deals, seed, seconds, frames, games, rules)
        self.process = self.context.Process(target=_evaluate_into, args=(there, arguments), daemon=True,
                                            name="paiju-evaluation")
        with sigint_held():
            self.process.start()
        there.close()
        self.connection = here

    def finished(self, wait: bool = False, stop: threading.Event | None = None) -> list[EvalRow] | None:
        """The rows of an evaluation that has finished, else nothing; ``wait`` for it, unless ``stop`` is set
        meanwhile: the evaluation is then cancelled and the answer is ``None``."""
        connection = self.connection
        if connection is None:
            return []
        while not connection.poll(0.2 if wait else 0):
            if not wait:
                return []
            if stop is not None and stop.is_set():
                self.cancel()
                return None
        try:
            status, value = connection.recv()
        except EOFError:
            code = self.process.exitcode if self.process is not None else None
            self.cancel()
            if stop is not None and stop.is_set():
                return None
            raise TrainingError(f"the evaluation process exited (code {code})") from None
        self.cancel()
        if status != "ok":
            raise TrainingError(f"the evaluation failed:\n{value}")
        return list(value)

    def cancel(self) -> None:
        """Stop the evaluation in progress, if any."""
        if self.process is not None:
            if self.process.is_alive():
                self.process.terminate()
            self.process.join(timeout=10)
        if self.connection is not None:
            self.connection.close()
        self.process = self.connection = None

    def close(self) -> None:
        self.cancel()


__all__ = ["EVAL_MODEL_FILE", "BackgroundEvaluator", "EvalRow", "evaluate_model"]
