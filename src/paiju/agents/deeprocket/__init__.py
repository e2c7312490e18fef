"""DeepRocket (Jiang et al. 2019) for DouDizhu: a policy CNN trained by supervised learning on game records
picks the main group and kicker type among 309 labels, a kicker CNN picks the kickers, a rule-based module bids.

Agent names: ``deeprocket`` plays the networks shipped with paiju (``weights/doudizhu.pt``; how they were
trained and how accurate they are in ``weights/README.md``); ``deeprocket:PATH`` those of a model file or a
training folder (``paiju train sl --out DIR`` keeps its latest networks in ``DIR/model.pt``). Modules:
``model`` (networks, model files), ``labels`` (the 309 policy and 28 kicker labels), ``features`` (the input
planes and a decision's inputs), ``agent`` (the player). Training:
``paiju.train.sl``. This package imports torch only when an agent is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paiju.agents.model_files import load_once, model_file

if TYPE_CHECKING:
    from paiju.agents.deeprocket.agent import DeepRocketAgent
    from paiju.agents.deeprocket.model import DeepRocketNets

SHIPPED_MODEL = Path(__file__).parent / "weights" / "doudizhu.pt"


def nets_at(argument: str) -> DeepRocketNets:
    """The networks of the model file or training folder ``argument`` (empty: the shipped ones), loaded once per
    file version."""
    from paiju.agents.deeprocket.model import load_model

    return load_once(load_model, model_file(argument, SHIPPED_MODEL, "DeepRocket model"))


def make_deeprocket_agent(argument: str, seed: int) -> DeepRocketAgent:
    """The ``deeprocket`` agent factory (``paiju.agents.register_agent``)."""
    from paiju.agents.deeprocket.agent import DeepRocketAgent

    return DeepRocketAgent(nets_at(argument), seed)


__all__ = ["SHIPPED_MODEL", "make_deeprocket_agent", "nets_at"]
