"""The game-agnostic interface every game implements, and the tools built only on it."""

from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import (
    AgentError,
    CardError,
    IllegalActionError,
    PaijuError,
    RecordError,
)
from paiju.core.game import Game, Observation, State
from paiju.core.match import play_game
from paiju.core.registry import game_names, load_game, register_game

__all__ = [
    "Agent",
    "AgentError",
    "CardError",
    "Game",
    "IllegalActionError",
    "Observation",
    "PaijuError",
    "RecordError",
    "ScoredAction",
    "State",
    "game_names",
    "load_game",
    "play_game",
    "register_game",
]
