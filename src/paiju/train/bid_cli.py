"""``paiju train bid``: the bid model's training command (``paiju.train.bid``)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

console = Console(highlight=False)


def train_bid(
    out: Annotated[Path, typer.Option(help="Bid model file to write.")] = Path("runs/bid.pt"),
    agent: Annotated[str, typer.Option(help="Play agent whose games label the hands (at every seat).")] = "rules",
    deals: Annotated[int, typer.Option(help="Deals to label (each hand of each is played as landlord).")] = 30_000,
    seed: Annotated[int, typer.Option(help="Seed of the run (deals, agents, initial weights, batches).")] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing the labelling games.")] = 1,
    epochs: Annotated[int, typer.Option(help="Passes over the training hands (the best held-out epoch is kept).")]
    = 30,
    minutes: Annotated[float, typer.Option(help="Wall-clock bound on learning, after labelling (0: none).")] = 0.0,
    hidden: Annotated[str, typer.Option(help="MLP widths.")] = "128,64",
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-3,
    thresholds: Annotated[str, typer.Option(help="Decision thresholds T1/T2/T3: the estimate needed to bid 1, 2, "
                                                 "3 (stored in the model file; the default was tuned with rules "
                                                 "playing).")]
    = "-0.1/0/0.1",
    data: Annotated[Path | None, typer.Option(help="Cache of labelled deals (.npz), reused when it matches the "
                                                   "agent and seed.")] = None,
) -> None:
    """Learn a DouDizhu bid model: each hand's expected landlord score when the play agent plays it out."""
    from paiju.train.bid import BidTrainConfig, parse_thresholds
    from paiju.train.bid import train_bid as run

    try:
        widths = tuple(int(part) for part in hidden.split(","))
    except ValueError:
        raise typer.BadParameter(f"--hidden: expected widths like 128,64, got {hidden!r}") from None
    config = BidTrainConfig(out=out, agent=agent, deals=deals, seed=seed, workers=workers, epochs=epochs,
                            minutes=minutes, hidden=widths, learning_rate=learning_rate,
                            thresholds=parse_thresholds(thresholds), data=data)
    result = run(config, console, shlex.join(["paiju", *sys.argv[1:]]))
    console.print(f"{result.samples:,} hands, {result.epochs} epochs ({result.seconds / 60:.1f} min): held-out mse "
                  f"{result.held_out_mse:.4f} (a constant: {result.constant_mse:.4f}). Model: {out} "
                  f"(agent learned-bid:model={out},{agent})")


__all__ = ["train_bid"]
