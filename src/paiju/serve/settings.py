"""The arena server's settings (``paiju serve`` options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
"""The browser front end shipped with paiju (the lobby page, the table and the replay viewer)."""


@dataclass(frozen=True)
class ServeSettings:
    """How the arena runs; every field has the default ``paiju serve`` uses."""

    db_path: Path = Path("paiju-arena.sqlite3")
    """SQLite file of finished games; created, with its schema, on first run."""
    move_timeout: float = 60.0
    """Seconds a person or network bot has for one move before the server plays the default action."""
    bot_delay: float = 0.0
    """Seconds a built-in bot waits before acting, so that a person can follow the play."""
    platform_games: int = 1
    """Full games per match on the GuanDan competition platform endpoint (``/game/{name}``)."""
    static_dir: Path = field(default=STATIC_DIR)
    """Folder served under ``/static`` (``index.html`` is the lobby at ``/``)."""

    def __post_init__(self) -> None:
        if not self.move_timeout > 0:
            raise ValueError(f"move_timeout must be a positive number of seconds, got {self.move_timeout!r}")
        if not self.bot_delay >= 0:
            raise ValueError(f"bot_delay must be zero or more seconds, got {self.bot_delay!r}")
        if self.platform_games < 1:
            raise ValueError(f"platform_games must be at least 1, got {self.platform_games!r}")
