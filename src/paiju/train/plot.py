"""``paiju plot DIR``: a PNG of a training run's learning curves (matplotlib, no display needed).

Top row: each evaluation opponent's WP and ADP (with their 95 % intervals) against frames (DMC) or games
(ScrofaZero, whose evaluation rows count games; its ADP is points per game, WPG against ``mr-greed``); bottom
row: the same against wall-clock minutes of training, and the learner's training speed. Top right: the
learner's losses (per role for DMC; policy KL and value RMSE for ScrofaZero).

``paiju plot DIR1 DIR2 ...`` compares runs (e.g. ablations at equal wall time): one panel per metric (WP, ADP)
and evaluation opponent, evaluation against wall-clock minutes, one line (and interval band) per run.
``plot_points`` draws such a comparison from a table of evaluations gathered by hand (background and final ones).
"""

from __future__ import annotations

import csv
from pathlib import Path

from paiju.core.errors import PaijuError
from paiju.train.logs import EVAL_FILE, LOG_FILE


def _read(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(newline="") as file:
        return list(csv.DictReader(file))


def _number(text: str) -> float | None:
    return float(text) if text not in ("", "None") else None


def plot_run(folder: Path, out: Path | None = None) -> Path:
    """Draw the curves of the run in ``folder`` into ``out`` (default ``folder/curve.png``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    learner, evaluations = _read(folder / LOG_FILE), _read(folder / EVAL_FILE)
    if not learner and not evaluations:
        raise PaijuError(f"{folder} has no {LOG_FILE} or {EVAL_FILE}: is it a training folder?")
    figure, axes = plt.subplots(2, 3, figsize=(15, 8), constrained_layout=True)
    opponents = sorted({row["opponent"] for row in evaluations})
    by_games = bool(evaluations) and all(_number(row.get("games") or "") for row in evaluations)
    x_axis = ("games", 1e3, "games (thousands)") if by_games else ("frames", 1e6, "frames (millions)")
    for column, metric in enumerate(("wp", "adp")):
        for row_index, (x_key, scale, label) in enumerate((x_axis,
                                                           ("seconds", 60.0, "training time (minutes)"))):
            axis = axes[row_index][column]
            for opponent in opponents:
                rows = [r for r in evaluations if r["opponent"] == opponent]
                xs = [float(r[x_key]) / scale for r in rows]
                ys = [float(r[metric]) for r in rows]
                lows = [_number(r[f"{metric}_low"]) for r in rows]
                highs = [_number(r[f"{metric}_high"]) for r in rows]
                line = axis.plot(xs, ys, marker="o", label=f"vs {opponent}")[0]
                if all(v is not None for v in lows + highs):
                    axis.fill_between(xs, lows, highs, alpha=0.2, color=line.get_color())
            axis.set_xlabel(label)
            axis.set_ylabel(metric.upper())
            axis.grid(alpha=0.3)
            if opponents:
                axis.legend()
            axis.set_title(f"{metric.upper()} ({evaluations[0]['deals']} duplicate deals per point)"
                           if evaluations else f"{metric.upper()}: no evaluation yet")
    loss_axis = axes[0][2]
    roles = [key[len("loss_"):] for key in (learner[0] if learner else {}) if key.startswith("loss_")]
    for role in roles:
        points = [(float(r["frames"]) / 1e6, _number(r[f"loss_{role}"])) for r in learner]
        points = [(x, y) for x, y in points if y is not None]
        loss_axis.plot([x for x, _ in points], [y for _, y in points], label=role)
    loss_axis.set_xlabel("frames (millions)")
    loss_axis.set_ylabel("loss")
    loss_axis.set_yscale("log")
    loss_axis.set_title("learner loss")
    loss_axis.grid(alpha=0.3)
    if roles:
        loss_axis.legend()
    speed = axes[1][2]
    speed.plot([float(r["frames"]) / 1e6 for r in learner], [float(r["fps"]) for r in learner])
    speed.set_xlabel("frames (millions)")
    speed.set_ylabel("frames per second")
    speed.set_title("training speed")
    speed.grid(alpha=0.3)
    figure.suptitle(f"training: {folder.name}")
    target = out or folder / "curve.png"
    figure.savefig(target, dpi=90)
    plt.close(figure)
    return target


def plot_runs(folders: list[Path], out: Path) -> Path:
    """Draw the evaluation curves of several runs against training minutes into ``out`` (module doc)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = {folder: _read(folder / EVAL_FILE) for folder in folders}
    empty = [str(folder) for folder, rows in runs.items() if not rows]
    if empty:
        raise PaijuError(f"no {EVAL_FILE} in {', '.join(empty)}: those runs have no evaluation to compare")
    opponents = sorted({row["opponent"] for rows in runs.values() for row in rows})
    figure, axes = plt.subplots(2, len(opponents), figsize=(6 * len(opponents), 8), constrained_layout=True,
                                squeeze=False)
    for column, opponent in enumerate(opponents):
        for row_index, metric in enumerate(("wp", "adp")):
            axis = axes[row_index][column]
            for folder, rows in runs.items():
                rows = [r for r in rows if r["opponent"] == opponent]
                xs = [float(r["seconds"]) / 60 for r in rows]
                line = axis.plot(xs, [float(r[metric]) for r in rows], marker="o", label=folder.name)[0]
                lows = [_number(r[f"{metric}_low"]) for r in rows]
                highs = [_number(r[f"{metric}_high"]) for r in rows]
                if all(v is not None for v in lows + highs):
                    axis.fill_between(xs, lows, highs, alpha=0.15, color=line.get_color())
            axis.set_xlabel("training time (minutes)")
            axis.set_ylabel(metric.upper())
            axis.set_title(f"{metric.upper()} vs {opponent}")
            axis.grid(alpha=0.3)
            axis.legend()
    figure.suptitle("runs compared: " + ", ".join(folder.name for folder in folders))
    figure.savefig(out, dpi=90)
    plt.close(figure)
    return out


def plot_points(table: Path, out: Path, title: str) -> Path:
    """Draw a table of evaluations (a CSV with ``run``, ``minutes``, ``wp``, ``wp_low``, ``wp_high`` columns, one
    row per evaluation, e.g. runs compared at equal wall time from one start) as WP against training minutes, one
    line and interval band per run, into ``out``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = _read(table)
    if not rows:
        raise PaijuError(f"{table} has no rows of evaluations (run, minutes, wp, wp_low, wp_high)")
    figure, axis = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    for run in dict.fromkeys(row["run"] for row in rows):
        points = sorted((float(r["minutes"]), float(r["wp"]), float(r["wp_low"]), float(r["wp_high"]))
                        for r in rows if r["run"] == run)
        xs = [point[0] for point in points]
        line = axis.plot(xs, [point[1] for point in points], marker="o", label=run)[0]
        axis.fill_between(xs, [point[2] for point in points], [point[3] for point in points], alpha=0.15,
                          color=line.get_color())
    axis.set_xlabel("training time (minutes)")
    axis.set_ylabel("win rate (95 % interval)")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend()
    figure.savefig(out, dpi=90)
    plt.close(figure)
    return out


__all__ = ["plot_points", "plot_run", "plot_runs"]
