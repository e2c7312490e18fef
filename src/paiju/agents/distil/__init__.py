"""The distilled player: the search's judgement of the prior's candidates, learned by a network (expert
iteration, Anthony, Tian & Barber 2017, with the search's values as the expert's targets).

``search`` weighs the prior's best few actions by the prior's rollouts after each, averaged over sampled
worlds. ``distilled`` asks a network instead: Q(observation, candidate) for the prior's ``top`` candidates, and
plays the candidate whose predicted gain over the prior's own choice is largest when that gain exceeds
``margin`` (the prior's choice otherwise, as the search keeps it unless a candidate is clearly better). One
prior call and one network pass a decision: milliseconds where the search takes a fraction of a second.

The network is a DMC network (``paiju.agents.dmc``: same features, same architecture, same model files),
trained by ``paiju.train.distil`` (``paiju train distil``) on the values the search computes. Agent names:
``distilled:PATH`` (a model file or a training folder) and ``distilled:path=PATH,margin=M,top=K`` (options over
those kept with the model, ``meta["distil"]``); the bare name ``distilled`` plays networks shipped as
``weights/<game>.pt``, for a game where the package ships them — none yet, since no distilled network has yet
measured stronger than its prior (BENCHMARKS.md, "Distilling the search").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paiju.agents.options import option, parse_options

if TYPE_CHECKING:
    from paiju.agents.distil.agent import DistilledAgent


@dataclass(frozen=True, slots=True)
class DistilledOptions:
    """What ``distilled:ARGUMENT`` names; None keeps the value kept with the model (``meta["distil"]``)."""

    path: str = ""
    """A model file or a training folder; "" plays the shipped networks."""
    margin: float | None = option(None, minimum=0)
    """The predicted gain over the prior's choice that a candidate must exceed to be played instead."""
    top: int | None = option(None, minimum=2)
    """The prior's candidates weighed."""


def parse_argument(argument: str) -> DistilledOptions:
    """``PATH`` or ``key=value`` pairs (``path``, ``margin``, ``top``) separated by commas."""
    return parse_options(argument, DistilledOptions(), "distilled", bare=lambda item: "path")


def shipped_path(game: str) -> Path:
    """The distilled networks shipped in the package for ``game``."""
    return Path(__file__).parent / "weights" / f"{game}.pt"


def make_distilled_agent(game: str):
    """The ``distilled`` agent factory of ``game`` for ``paiju.agents.register_agent``."""

    def factory(argument: str, seed: int) -> DistilledAgent:
        from paiju.agents.distil.agent import DistilledAgent
        from paiju.agents.dmc import models_at

        options = parse_argument(argument)
        models = models_at(options.path, game, shipped_path(game), kind="distilled")
        return DistilledAgent(models, seed, options.top, options.margin)

    return factory


__all__ = ["DistilledOptions", "make_distilled_agent", "parse_argument", "shipped_path"]
