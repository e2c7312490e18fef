"""A learned DouDizhu bid: a small network estimating a hand's landlord score, and the agent bidding with it.

Agent spec: ``learned-bid:[OPTIONS,]AGENT`` bids with the bid model and plays with ``AGENT`` (any DouDizhu
agent spec, e.g. ``rules``, ``dmc``, ``perfectdou:run/model.pt``; ``learned-bid`` alone plays ``rules``).
Leading comma-separated options: ``model=PATH`` (another bid model file, default the shipped
``weights/doudizhu.pt``) and ``thresholds=T1/T2/T3`` (the decision thresholds instead of the model file's),
e.g. ``learned-bid:model=runs/bid.pt,thresholds=0/0.2/0.5,dmc``; the play agent, the first item that is not an
option (or ``agent=AGENT``), takes the rest of the name, commas included (``paiju.agents.options``). A path
holding a comma cannot be named here.
Modules: ``features`` (what the network sees), ``model`` (network, model files), ``agent`` (the decision
rule and the wrapper). Training: ``paiju train bid`` (``paiju.train.bid``). torch is imported only when an
agent is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paiju.agents.model_files import load_once, model_file
from paiju.agents.options import option, parse_options
from paiju.core.errors import PaijuError

if TYPE_CHECKING:
    from paiju.agents.bidding.agent import LearnedBidAgent
    from paiju.agents.bidding.model import BidModel

SHIPPED_MODEL = Path(__file__).parent / "weights" / "doudizhu.pt"
NAME = "learned-bid"


def model_at(path: Path | None = None) -> BidModel:
    """The bid model of the file ``path`` (default: the shipped one), loaded once per file version."""
    from paiju.agents.bidding.model import load_model

    return load_once(load_model, model_file(path, SHIPPED_MODEL, "bid model file"))


@dataclass(frozen=True, slots=True)
class LearnedBidOptions:
    """What ``learned-bid:ARGUMENT`` names (the module docstring)."""

    model: str | None = None
    """The bid model file; None: the shipped one."""
    thresholds: str | None = None
    """``T1/T2/T3``, the decision thresholds; None: the model file's."""
    agent: str = option("rules", rest=True)
    """The play agent's spec: the first bare item and everything after it."""


def parse_spec(argument: str) -> LearnedBidOptions:
    """The options and the play agent's spec of ``learned-bid:ARGUMENT`` (see the module docstring)."""
    return parse_options(argument, LearnedBidOptions(), NAME, bare=lambda item: "agent")


def make_learned_bid_agent(argument: str, seed: int) -> LearnedBidAgent:
    """The ``learned-bid`` agent factory (``paiju.agents.register_agent``)."""
    from paiju.agents import make_agent
    from paiju.agents.bidding.agent import LearnedBidAgent
    from paiju.agents.bidding.model import check_thresholds

    options = parse_spec(argument)
    if options.agent.partition(":")[0] == NAME:
        raise PaijuError(f"{NAME}: the play agent cannot itself be {NAME} (got {argument!r})")
    model = model_at(Path(options.model) if options.model is not None else None)
    thresholds = None
    if options.thresholds is not None:
        thresholds = check_thresholds(options.thresholds.split("/"), f"{NAME}: thresholds")
    return LearnedBidAgent(model, make_agent(options.agent, "doudizhu", seed), thresholds)


__all__ = ["NAME", "SHIPPED_MODEL", "LearnedBidOptions", "make_learned_bid_agent", "model_at", "parse_spec"]
