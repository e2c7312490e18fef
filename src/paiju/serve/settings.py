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
    platform_group_by_name: bool = False
    """Platform endpoint: match only clients that connected under the same name (default: any four
    waiting clients, in connection order, as the competition's own server does)."""
    static_dir: Path = field(default=STATIC_DIR)
    """Folder served under ``/static`` (``index.html`` is the lobby at ``/``)."""
    send_timeout: float = 10.0
    """Seconds one message to a client may take to be written; a client that does not read is then
    treated as gone: nothing more is queued for it, its handler ends, its moves are played by timeout."""
    max_queued_messages: int = 256
    """Messages that may wait unsent for one seat websocket; a client that lets more pile up is
    disconnected with close code 1008."""
    max_body_bytes: int = 65_536
    """Largest HTTP request body; a larger one is refused with 413 before it is read in full."""
    max_tables: int = 256
    """Tables waiting or playing at once, over all clients."""
    max_tables_per_client: int = 8
    """Tables waiting or playing that one client address may have created."""
    max_reservations_per_client: int = 8
    """Open seats of unfinished tables that one client address may hold reserved."""
    requests_per_minute: int = 120
    """Table creations and seat reservations one client address may make per minute."""
    reservation_timeout: float = 300.0
    """Seconds a seat token (a human seat's or a reserved open seat's) may go unused before the seat
    is given up (an open seat opens again; a table waiting on a human seat is closed)."""
    abandoned_timeout: float = 300.0
    """Seconds a playing table may go on with none of its people or network bots connected; it is
    then aborted, and nothing of it is stored."""
    ended_tables_kept: int = 200
    """Finished or aborted tables kept in memory for the lobby (the oldest are forgotten first)."""
    max_stored_games: int = 0
    """Retention: finished games kept in the database (the oldest are deleted first); 0 keeps all."""
    ws_compression: bool = False
    """Whether websockets may be compressed (permessage-deflate, when the client offers it): the messages are small
    JSON and compressing them costs about an eighth of the server's CPU a move (BENCHMARKS.md); turn it on for
    clients behind slow links."""
    admin_token: str | None = None
    """The secret that admin calls (pause, ban or resume a ladder bot) must carry; ``None`` turns them off."""
    ladder_move_timeout: float = 10.0
    """The ladder's time control: seconds a ladder bot has for one move."""
    ladder_forfeit_after: int = 2
    """Moves a ladder bot may let time out in one game; after that its turns are played at once by default."""
    ladder_fill_after: float = 2.0
    """Seconds the first bot in a ladder queue waits for other bots before house bots fill the table."""
    ladder_house: tuple[str, ...] | None = None
    """The house bots that fill ladder tables, those offered for the game (``None``: each game's graded set,
    ``paiju.serve.ladder.HOUSE_BOTS``; empty: none, bots wait for other bots)."""
    registrations_per_hour: int = 10
    """Ladder bots one client address may register an hour."""
    ladder_strikes: int = 3
    """Ladder games in a row with a move played by timeout (or many refused messages) that pause a bot."""
    ladder_pause: float = 900.0
    """Seconds such a pause lasts."""

    def __post_init__(self) -> None:
        if not self.move_timeout > 0:
            raise ValueError(f"move_timeout must be a positive number of seconds, got {self.move_timeout!r}")
        if not self.bot_delay >= 0:
            raise ValueError(f"bot_delay must be zero or more seconds, got {self.bot_delay!r}")
        if not self.max_stored_games >= 0:
            raise ValueError(f"max_stored_games must be zero (keep all) or more, got {self.max_stored_games!r}")
        if self.admin_token is not None and len(self.admin_token) < 16:
            raise ValueError("admin_token must be at least 16 characters")
        if not self.ladder_fill_after >= 0:
            raise ValueError(f"ladder_fill_after must be zero or more seconds, got {self.ladder_fill_after!r}")
        for name in ("send_timeout", "reservation_timeout", "abandoned_timeout", "ladder_move_timeout",
                     "ladder_pause"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {getattr(self, name)!r}")
        for name in ("platform_games", "max_queued_messages", "max_body_bytes", "max_tables",
                     "max_tables_per_client", "max_reservations_per_client", "requests_per_minute",
                     "ended_tables_kept", "ladder_forfeit_after", "registrations_per_hour", "ladder_strikes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")

