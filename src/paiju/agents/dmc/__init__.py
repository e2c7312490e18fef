"""Deep Monte-Carlo agents (DouZero for DouDizhu, DanZero for GuanDan): Q(state, action) networks that score
every legal action.

Agent names: ``dmc`` plays the networks shipped with paiju for the game (``weights/<game>.pt``, with how
they were trained in ``weights/README.md``; 癞子 DouDizhu: ``weights/doudizhu_laizi.pt``);
``dmc:PATH`` those in a model file or a training folder (``paiju train dmc --out DIR``, which keeps its latest
networks in ``DIR/model.pt``).
Modules: ``models`` (networks), ``douzero_features`` and ``danzero_features`` (DouZero's and DanZero's encoders),
``adapters`` (each game's roles, features, returns), ``weights`` (model files), ``agent`` (the player). Training:
``paiju.train.dmc`` (``paiju train dmc``). This package imports torch only when a
``dmc`` agent is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paiju.agents.model_files import load_once, model_file
from paiju.core.errors import PaijuError

if TYPE_CHECKING:
    from paiju.agents.dmc.agent import DMCAgent
    from paiju.agents.dmc.weights import DMCModels


LAIZI = "doudizhu_laizi"
"""The shipped 癞子 DouDizhu networks' file name (``weights/doudizhu_laizi.pt``): ``dmc`` plays them at 癞子 tables."""


def models_at(argument: str, game: str, shipped: Path | None = None, kind: str = "DMC") -> DMCModels:
    """The networks in the model file or training folder ``argument``, or (``argument`` empty) the shipped ones:
    ``shipped``, by default the ``dmc`` agent's; checked for ``game``. Loaded once per file version; ``kind``
    names the networks in errors."""
    from paiju.agents.dmc.weights import load_models, shipped_model_path

    file = model_file(argument, shipped or shipped_model_path(game), f"{kind} model for {game}")
    models = load_once(load_models, file)
    if models.game != game:
        raise PaijuError(f"{file} holds {models.game} networks, not {game}")
    return models


def make_dmc_agent(game: str):
    """The ``dmc`` agent factory of ``game`` for ``paiju.agents.register_agent``."""

    def factory(argument: str, seed: int) -> DMCAgent:
        from paiju.agents.dmc.agent import DMCAgent
        from paiju.agents.dmc.weights import shipped_model_path

        variants = []
        if game == "doudizhu" and not argument:
            variants.append(lambda: models_at("", game, shipped_model_path(LAIZI)))
        return DMCAgent(models_at(argument, game), seed, variants=variants)

    return factory


__all__ = ["make_dmc_agent", "models_at"]
