"""Games register themselves by name; tools take names (``load_game("doudizhu")``)."""

from __future__ import annotations

from paiju.core.errors import PaijuError
from paiju.core.game import Game

_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` available under ``game.name``."""
    _GAMES[game.name] = game
    return game


def load_game(name: str) -> Game:
    """The registered game called ``name``."""
    import paiju.games  # noqa: F401  (importing the package registers every game)

    try:
        return _GAMES[name]
    except KeyError:
        raise PaijuError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    import paiju.games  # noqa: F401

    return sorted(_GAMES)
