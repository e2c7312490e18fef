"""``paiju bot`` and ``paiju connect``: the agent bridge's commands (``paiju.agents.bridge``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Annotated

import typer

from paiju.agents.external import SEED_VARIABLE
from paiju.core.errors import PaijuError

SeedOption = Annotated[int, typer.Option(help="Seed of the agent's own random choices.")]


def bot(agent: Annotated[str, typer.Argument(help="Agent to play: rules, dmc, mr-greed, random, ...")],
        game: Annotated[str, typer.Option(help="Game: doudizhu, guandan or gongzhu.")],
        seed: Annotated[int, typer.Option(envvar=SEED_VARIABLE, help="Seed of the agent's own random choices "
                                                                     f"(default: ${SEED_VARIABLE}, else 0).")] = 0,
        ) -> None:
    """Play AGENT as an external agent program (protocol v1 on stdin/stdout): name it ext:paiju bot AGENT --game G.

    Input it cannot read stops it with a one-line error on stderr and exit code 2.
    """
    from paiju.agents.bridge import run_stdio_bot

    answers = sys.stdout.buffer
    try:
        with contextlib.redirect_stdout(sys.stderr):  # anything an agent prints must not corrupt the answers
            run_stdio_bot(agent, game, seed, sys.stdin.buffer, answers)
    except PaijuError as error:
        typer.echo(f"error: {' '.join(str(error).split())}", err=True)
        raise typer.Exit(2) from None


def connect(agent: Annotated[str, typer.Option(help="Agent to play: rules, dmc, mr-greed, random, ...")],
            url: Annotated[str | None, typer.Argument(
                help="The seat's websocket: ws://HOST:PORT/ws/tables/ID?token=T.")] = None,
            platform: Annotated[str | None, typer.Option(
                help="Play GuanDan on a competition platform server instead: ws://HOST:PORT/game/NAME.")] = None,
            ladder: Annotated[str | None, typer.Option(
                help="Queue a registered bot on an arena's ladder instead: ws://HOST:PORT/ws/ladder.")] = None,
            key: Annotated[str | None, typer.Option(
                envvar="PAIJU_LADDER_KEY", help="The ladder bot's key (default: $PAIJU_LADDER_KEY).")] = None,
            games: Annotated[int | None, typer.Option(
                min=1, help="With --ladder: stop after this many games (default: play until sent off).")] = None,
            seed: SeedOption = 0) -> None:
    """Play an arena seat with a paiju agent until the game ends, with --platform a GuanDan competition
    platform seat until the match ends, or with --ladder a ladder bot's games (one JSON line per game); prints
    the results as JSON."""
    from paiju.agents.bridge import FinishedGame, run_arena_bot, run_ladder_bot, run_platform_bot

    if sum(target is not None for target in (url, platform, ladder)) != 1:
        raise typer.BadParameter("give one of URL (an arena seat), --platform URL (a competition platform "
                                 "server) or --ladder URL (an arena's ladder)")
    def show(finished: FinishedGame) -> None:
        typer.echo(json.dumps({"seat": finished.seat, "result": finished.result, "record_id": finished.record_id}))

    if url is not None:
        show(asyncio.run(run_arena_bot(url, agent, seed)))
    elif platform is not None:
        match = asyncio.run(run_platform_bot(platform, agent, seed))
        typer.echo(json.dumps({"seat": match.seat, "victoryNum": match.victories, "draws": match.draws}))
    elif ladder is not None:
        if not key:
            raise typer.BadParameter("--ladder needs the bot's key: --key K or $PAIJU_LADDER_KEY")
        asyncio.run(run_ladder_bot(ladder, key, agent, seed, games, on_game=show))


__all__ = ["bot", "connect"]
