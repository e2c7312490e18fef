"""PerfectDou (Yang et al. 2022) for DouDizhu: PPO with a critic that sees every hand while the actor sees only
its own, an abstract action space of 621 with kickers decoded by rule, and a dense reward from the minimum
steps to play out.

Agent names: ``perfectdou`` plays the networks shipped with paiju (``weights/doudizhu.pt``, how they were
trained in ``weights/README.md``); ``perfectdou:PATH`` those of a model file or a training folder (``paiju train
ppo --out DIR`` keeps its latest networks in ``DIR/model.pt``). Networks play the ruleset they were trained for:
the shipped ones the classic game; 癞子 tables need networks of ``paiju train ppo --features laizi`` (none ship).
Modules: ``model`` (networks, model files), ``features`` (PerfectDou's features, classic and 癞子, a decision's
candidates and scores), ``agent`` (the player), ``guandan`` (the same PPO for GuanDan: the actor is a DMC GuanDan
network, played by the ``dmc`` agent, and the critic in this module also sees the other three hands). Training:
``paiju.train.ppo``.
This package imports torch only when an agent is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paiju.agents.model_files import load_once, model_file

if TYPE_CHECKING:
    from paiju.agents.perfectdou.agent import PerfectDouAgent
    from paiju.agents.perfectdou.model import PerfectDouModels

SHIPPED_MODEL = Path(__file__).parent / "weights" / "doudizhu.pt"


def models_at(argument: str) -> PerfectDouModels:
    """The networks of the model file or training folder ``argument`` (empty: the shipped ones), loaded once
    per file version."""
    from paiju.agents.perfectdou.model import load_models

    return load_once(load_models, model_file(argument, SHIPPED_MODEL, "PerfectDou model"))


def make_perfectdou_agent(argument: str, seed: int) -> PerfectDouAgent:
    """The ``perfectdou`` agent factory (``paiju.agents.register_agent``)."""
    from paiju.agents.perfectdou.agent import PerfectDouAgent

    return PerfectDouAgent(models_at(argument), seed)


__all__ = ["SHIPPED_MODEL", "make_perfectdou_agent", "models_at"]
