"""Training logs: ``DIR/log.csv`` (learner figures), ``DIR/eval.csv`` (evaluations), TensorBoard events
in ``DIR/tensorboard`` (``tensorboard --logdir DIR/tensorboard``), and the console progress line.

``log.csv`` columns: ``seconds`` (trained, summed over resumes), ``frames`` (samples trained on, as DouZero
counts them), ``fps`` (frames per second of this process since the last row), ``games``, ``loss_<name>``
(the mean of each of the learner's figures since the last row: its losses, per role for DMC, and DMC's
``teacher_top1`` during a warm start). ``eval.csv``: ``EvalRow``'s fields. Rows are appended and flushed
at once, so a killed run keeps every row written before it died; a resumed run appends to the same files.
"""

from __future__ import annotations

import csv
from dataclasses import fields
from pathlib import Path

from rich.console import Console

from paiju.train.evaluation import EvalRow

LOG_FILE = "log.csv"
EVAL_FILE = "eval.csv"


class TrainingLog:
    def __init__(self, out: Path, roles: tuple[str, ...], console: Console | None, tensorboard: bool = True) -> None:
        self.out = out
        self.roles = roles
        self.console = console
        self.log_columns = ["seconds", "frames", "fps", "games", *(f"loss_{role}" for role in roles)]
        self.eval_columns = [f.name for f in fields(EvalRow)]
        self.writer = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self.writer = SummaryWriter(str(out / "tensorboard"))
        self.last_eval: list[EvalRow] = []

    def append(self, name: str, row: dict[str, object], columns: list[str] | None = None) -> None:
        """A row of ``DIR/NAME`` (a CSV file; the header, ``columns`` or the row's keys, when it is new)."""
        path = self.out / name
        new = not path.exists()
        with path.open("a", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=columns or list(row))
            if new:
                writer.writeheader()
            writer.writerow(row)

    def scalars(self, values: dict[str, float], step: int) -> None:
        """TensorBoard scalars at ``step``."""
        if self.writer is not None:
            for name, value in values.items():
                self.writer.add_scalar(name, value, step)
            self.writer.flush()

    def say(self, text: str) -> None:
        """A line on the console."""
        if self.console is not None:
            self.console.print(text)

    def learner(self, seconds: float, frames: int, fps: float, games: int, losses: dict[str, float | None]) -> None:
        row: dict[str, object] = {"seconds": round(seconds, 1), "frames": frames, "fps": round(fps, 1), "games": games}
        for role in self.roles:
            loss = losses.get(role)
            row[f"loss_{role}"] = "" if loss is None else round(loss, 5)
            if self.writer is not None and loss is not None:
                self.writer.add_scalar(f"loss/{role}", loss, frames)
        self.append(LOG_FILE, row, self.log_columns)
        if self.writer is not None:
            self.writer.add_scalar("frames_per_second", fps, frames)
            self.writer.flush()
        if self.console is not None:
            loss_text = " ".join(f"{role} {loss:.3f}" for role, loss in losses.items() if loss is not None)
            evals = "; ".join(str(r) for r in self.last_eval) or "none yet"
            self.console.print(f"[{seconds / 60:6.1f} min] frames {frames:,} | {fps:,.0f} f/s | games {games:,} | "
                               f"loss {loss_text} | last eval: {evals}")

    def evaluation(self, rows: list[EvalRow]) -> None:
        for row in rows:
            self.append(EVAL_FILE, row.to_json(), self.eval_columns)
            if self.writer is not None:
                self.writer.add_scalar(f"eval/{row.opponent}/wp", row.wp, row.frames)
                self.writer.add_scalar(f"eval/{row.opponent}/adp", row.adp, row.frames)
        if rows:
            self.last_eval = rows
            if self.console is not None:
                self.console.print(f"evaluation at {rows[0].frames:,} frames ({rows[0].deals} deals): "
                                   + "; ".join(str(r) for r in rows))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


__all__ = ["EVAL_FILE", "LOG_FILE", "TrainingLog"]
