"""Deep Monte-Carlo training throughput, measured and printed: ``python benchmarks/training.py --game GAME
[--compare] [--paper-sizes] [--ppo] [--json]``.

The figure is **frames trained per second**. A frame is one decision of one seat: its features and its
Monte-Carlo return. A trainer counts a frame when its learner takes a gradient step on it, and trains on each
frame once. Every trainer runs 2 self-play actor processes and one learner, each process on one thread
(``OMP_NUM_THREADS=1``, ``MKL_NUM_THREADS=1``; paiju also sets torch's thread count to 1).

- ``paiju``: ``paiju.train.dmc.train`` on the local backend with its default settings: 3,200 frames per
  learner step, networks of ``ModelConfig()``, ε = 0.01. There is no evaluation and no TensorBoard, and the
  only checkpoint is written after the end. ``log.csv`` gets a row of (seconds, frames) after every chunk of
  samples the learner takes in. The clock starts when ``train`` is called, with the modules already imported.
- ``paiju-paper-sizes`` (``--paper-sizes``): the same trainer with the papers' networks. DouDizhu uses
  DouZero's LSTM 128 and MLP 5 × 512; GuanDan uses DanZero's MLP 5 × 512.
- ``paiju-ppo`` (``--ppo``, DouDizhu): PerfectDou's PPO trainer (``paiju.train.ppo.train``) with its defaults
  (Table 7's networks, batches of 64 games, 4 epochs, the perfect critic and the oracle reward), no warm start,
  no evaluation. Its frames are the decisions it trains on, each counted once although every batch is
  trained on 4 times (``epochs``); a decision with a single legal play is not a frame (DMC counts those too).
- ``douzero`` (``--compare``, DouDizhu, when the ``douzero`` package is installed): DouZero's own trainer,
  ``douzero.dmc.train``, in a subprocess with the flags of ``DOUZERO_FLAGS``. All its other settings are its
  defaults: 32 × 100 frames per learner step, 4 learner threads per position, ε = 0.01, and its own networks
  (the papers' sizes). After every learner step it appends a row to ``logs.csv``. That row holds ``_time``
  and ``frames``, the count before the step, which then grows by T × B = 100 × 32 = 3,200
  (``douzero/dmc/dmc.py``, ``batch_and_learn``). paiju's ``frames`` grows by its batch size in the same way,
  so the two counts mean the same thing. The clock starts when the subprocess is launched, so DouZero's
  warm-up also covers its imports (a few seconds). Its deals are not seeded.

Each run lasts ``--seconds``. Its rate is taken from ``--warmup`` seconds in (default: a third of the run) to
the end, which leaves out process start, imports and the filling of the first batches. It is the slope of the
least-squares line through the frames trained by each whole second of that stretch. Frames arrive in steps of
3,200, and DouZero's three positions often step within a second of one another. The slope is steadier than the
difference between the two ends of the stretch, and a run that trained nothing still counts, as 0. Runs are
interleaved (paiju, douzero, paiju, douzero, ...) so that drift in the machine's speed touches every trainer
alike. Each figure is the median of ``--repeats`` runs, and each ratio is a ratio of medians from this
invocation. The benchmark measures and prints; it asserts no time. Long runs give steadier figures: at 500
frames/s a trainer makes only one step every 6 s or so.

    python benchmarks/training.py --game doudizhu --seconds 300 --repeats 3 --compare --paper-sizes --json
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import csv
import importlib.util
import json
import os
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from common import machine
from paiju.agents.dmc.models import ModelConfig
from paiju.train.dmc import DMCConfig, train
from paiju.train.logs import LOG_FILE
from paiju.train.ppo import PPOConfig
from paiju.train.ppo import train as train_ppo

GAMES = ("doudizhu", "guandan")
ACTORS = 2
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
PAPER_SIZES = ModelConfig(hidden=(512,) * 5, lstm=128)
"""DouZero's networks (Zha et al. 2021, Fig. 2: LSTM 128, MLP 5 × 512) and DanZero's MLP (§IV-A: 5 × 512)."""
PAIJU_LOG_SECONDS = 0.0
"""A ``log.csv`` row after every chunk, so that a row follows each learner step closely."""

DOUZERO_FLAGS = ("--actor_device_cpu", "--training_device", "cpu", "--num_actors", str(ACTORS),
                 "--disable_checkpoint", "--xpid", "benchmark")
DOUZERO_MAIN = "from douzero.dmc import parser, train; train(parser.parse_args())"
DOUZERO_FRAMES_PER_STEP = 100 * 32
"""T × B of DouZero's defaults (``--unroll_length 100``, ``--batch_size 32``)."""


@dataclass(frozen=True, slots=True)
class LogRow:
    """A trainer's progress: ``frames`` trained on by ``seconds`` after the run's start."""

    seconds: float
    frames: int


Trainer = Callable[[float], list[LogRow]]
"""Trains for about the given seconds and returns the learner's log rows, in time order."""


def frames_by(rows: list[LogRow], seconds: float) -> int:
    """Frames trained by ``seconds`` into the run: those of the last row logged by then."""
    index = bisect.bisect_right(rows, seconds, key=lambda row: row.seconds)
    return rows[index - 1].frames if index else 0


def rate_after(rows: list[LogRow], warmup: float, end: float) -> float:
    """Frames per second from ``warmup`` to ``end``: the slope of the least-squares line through the frames
    trained by each whole second of that stretch."""
    times = [warmup + second for second in range(int(end - warmup) + 1)]
    return statistics.linear_regression(times, [frames_by(rows, t) for t in times]).slope


# -- paiju --------------------------------------------------------------------------------------------


def paiju_trainer(game: str, model: ModelConfig, seed: int) -> Trainer:
    """paiju's trainer in this process (the learner) with ``ACTORS`` local actor processes."""

    def run(seconds: float) -> list[LogRow]:
        with tempfile.TemporaryDirectory(prefix="paiju-training-benchmark-") as folder:
            minutes = seconds / 60
            config = DMCConfig(game=game, out=Path(folder), seed=seed, minutes=minutes, actors=ACTORS, model=model,
                               checkpoint_minutes=minutes + 1, eval_minutes=0, log_seconds=PAIJU_LOG_SECONDS)
            train(config, tensorboard=False)
            with (Path(folder) / LOG_FILE).open(newline="") as log:
                return [LogRow(float(row["seconds"]), int(row["frames"])) for row in csv.DictReader(log)]

    return run


def ppo_trainer(seed: int) -> Trainer:
    """paiju's PPO (PerfectDou) trainer in this process with ``ACTORS`` local actor processes."""

    def run(seconds: float) -> list[LogRow]:
        with tempfile.TemporaryDirectory(prefix="paiju-ppo-benchmark-") as folder:
            minutes = seconds / 60
            config = PPOConfig(out=Path(folder), seed=seed, minutes=minutes, actors=ACTORS,
                               checkpoint_minutes=minutes + 1, eval_minutes=0, log_seconds=PAIJU_LOG_SECONDS)
            train_ppo(config, tensorboard=False)
            with (Path(folder) / LOG_FILE).open(newline="") as log:
                return [LogRow(float(row["seconds"]), int(row["frames"])) for row in csv.DictReader(log)]

    return run


# -- DouZero ------------------------------------------------------------------------------------------


def douzero_installed() -> bool:
    """Whether ``douzero`` is installed; its trainer module is not imported here."""
    return importlib.util.find_spec("douzero") is not None and importlib.util.find_spec("douzero.dmc") is not None


def douzero_trainer() -> Trainer:
    """DouZero's trainer in a subprocess of its own session, stopped with its actors after the run's seconds."""

    def run(seconds: float) -> list[LogRow]:
        with tempfile.TemporaryDirectory(prefix="douzero-training-benchmark-") as folder:
            environment = {**os.environ, **ONE_THREAD}
            command = [sys.executable, "-c", DOUZERO_MAIN, *DOUZERO_FLAGS, "--savedir", folder]
            output = Path(folder) / "output.txt"
            with output.open("w") as stream:
                launched = time.time()
                process = subprocess.Popen(command, cwd=folder, env=environment, stdout=stream,
                                           stderr=subprocess.STDOUT, start_new_session=True)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=seconds)
                exited = process.returncode
                stop_session(process)
            if exited is not None:
                raise RuntimeError(f"DouZero's trainer exited early (code {exited}); its output ends:\n"
                                   f"{output.read_text()[-3000:]}")
            return douzero_steps(Path(folder) / "benchmark", launched)

    return run


def douzero_steps(experiment: Path, launched: float) -> list[LogRow]:
    """One row per learner step from DouZero's ``logs.csv`` (``fields.csv`` names its columns): the step's
    ``_time`` after ``launched`` and the frames trained once the step is done. A line cut short by the stop is
    left out."""
    logs = experiment / "logs.csv"
    if not logs.exists():
        return []
    with (experiment / "fields.csv").open(newline="") as fields:
        names = next(csv.reader(fields))
    text = logs.read_text()
    lines = [line for line in text[: text.rfind("\n") + 1].splitlines() if not line.startswith("#")]
    return [LogRow(float(row["_time"]) - launched, int(row["frames"]) + DOUZERO_FRAMES_PER_STEP)
            for row in csv.DictReader(lines, fieldnames=names)]


def stop_session(process: subprocess.Popen[bytes]) -> None:
    """End the trainer and its actor processes (one session). SIGTERM first: multiprocessing's resource tracker
    ignores it and frees the shared semaphores once the others are gone. SIGKILL if anything is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


# -- the measurement ----------------------------------------------------------------------------------


def trainers(game: str, arguments: argparse.Namespace) -> dict[str, Trainer]:
    """The trainers measured for ``game``, in the order their runs interleave."""
    table = {"paiju": paiju_trainer(game, ModelConfig(), arguments.seed)}
    if arguments.paper_sizes:
        table["paiju-paper-sizes"] = paiju_trainer(game, PAPER_SIZES, arguments.seed)
    if arguments.ppo and game == "doudizhu":
        table["paiju-ppo"] = ppo_trainer(arguments.seed)
    if arguments.compare and game == "doudizhu" and douzero_installed():
        table["douzero"] = douzero_trainer()
    return table


def measure(game: str, arguments: argparse.Namespace, progress: Callable[[str], None]) -> dict[str, Any]:
    """``arguments.repeats`` interleaved runs of every trainer; each run's rate, the medians and the ratios."""
    table = trainers(game, arguments)
    runs: dict[str, list[float]] = {name: [] for name in table}
    for repeat in range(arguments.repeats):
        for name, trainer in table.items():
            runs[name].append(rate_after(trainer(arguments.seconds), arguments.warmup, arguments.seconds))
            progress(f"run {repeat + 1}/{arguments.repeats} {game} {name}: {runs[name][-1]:,.1f} frames/s")
    medians = {name: statistics.median(rates) for name, rates in runs.items()}
    ratios = {f"{name}/douzero": medians[name] / medians["douzero"] for name in table
              if name.startswith("paiju") and medians.get("douzero")}
    return {"unit": "frames/s", "runs": runs, "median": medians, "ratio": ratios}


def settings(arguments: argparse.Namespace) -> dict[str, Any]:
    """How every trainer was configured."""
    return {
        "actors": ACTORS, "threads_per_process": 1, "environment": ONE_THREAD,
        "frames": "decisions trained on, counted at each learner step (paiju: batch_size; DouZero: T x B)",
        "paiju": {"backend": "local", "batch_size": DMCConfig.batch_size, "model": ModelConfig().to_json(),
                  "paper_sizes_model": PAPER_SIZES.to_json() if arguments.paper_sizes else None,
                  "seed": arguments.seed},
        "douzero": {"command": shlex.join(["python", "-c", DOUZERO_MAIN, *DOUZERO_FLAGS, "--savedir", "TEMP"]),
                    "frames_per_step": DOUZERO_FRAMES_PER_STEP} if arguments.compare else None,
    }


def table_text(report: dict[str, Any]) -> str:
    """The medians, runs and ratios as a Markdown table."""
    lines = ["| game | trainer | median | unit | runs | trainer / douzero |",
             "| --- | --- | ---: | --- | --- | ---: |"]
    for game, result in report["games"].items():
        for name, median in result["median"].items():
            ratio = result["ratio"].get(f"{name}/douzero")
            runs = ", ".join(f"{rate:,.0f}" for rate in result["runs"][name])
            lines.append(f"| {game} | {name} | {median:,.1f} | {result['unit']} | {runs} | "
                         f"{'' if ratio is None else f'{ratio:.2f}x'} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="doudizhu", choices=(*GAMES, "both"), help="game to train")
    parser.add_argument("--seconds", type=float, default=120.0, help="length of each run (default 120)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of each run left out before the rate is taken (default: a third of --seconds)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per trainer (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="seed of paiju's runs")
    parser.add_argument("--compare", action="store_true", help="also run DouZero's trainer (DouDizhu) if installed")
    parser.add_argument("--paper-sizes", action="store_true", help="also train paiju with the papers' network sizes")
    parser.add_argument("--ppo", action="store_true", help="also run the PerfectDou PPO trainer (DouDizhu)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    arguments = parser.parse_args(argv)
    if arguments.warmup is None:
        arguments.warmup = arguments.seconds / 3
    if arguments.repeats < 1 or arguments.warmup < 0 or arguments.seconds < arguments.warmup + 1:
        parser.error("--repeats must be at least 1, --warmup at least 0, --seconds at least --warmup + 1")
    os.environ.update(ONE_THREAD)  # inherited by paiju's actor processes
    games = GAMES if arguments.game == "both" else (arguments.game,)
    if arguments.compare and not douzero_installed():
        print("douzero is not installed: only paiju is measured", file=sys.stderr)
    report = {
        "command": shlex.join(["python", *sys.argv]), "machine": {**machine(), "torch": torch.__version__},
        "config": {"games": list(games), "seconds": arguments.seconds, "warmup": arguments.warmup,
                   "repeats": arguments.repeats, "compare": arguments.compare, "paper_sizes": arguments.paper_sizes},
        "settings": settings(arguments),
        "games": {game: measure(game, arguments, lambda line: print(line, file=sys.stderr)) for game in games},
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        facts = report["machine"]
        print(f"{facts['cpu']}, {facts['cores']} cores, Python {facts['python']}, torch {facts['torch']}; "
              f"{ACTORS} actors, one thread per process; median of {arguments.repeats} runs of "
              f"{arguments.seconds:g} s, rate taken after {arguments.warmup:.1f} s")
        print(f"frames: {report['settings']['frames']}")
        print(table_text(report))


if __name__ == "__main__":
    main()
