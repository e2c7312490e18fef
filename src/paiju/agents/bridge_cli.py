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
            seed: SeedOption = 0) -> None:
    """Play an arena seat with a paiju agent until the game ends, or with --platform a GuanDan competition
    platform seat until the match ends; prints the result as JSON."""
    from paiju.agents.bridge import run_arena_bot, run_platform_bot

    if url is not None and platform is None:
        finished = asyncio.run(run_arena_bot(url, agent, seed))
        typer.echo(json.dumps({"seat": finished.seat, "result": finished.result, "record_id": finished.record_id}))
    elif platform is not None and url is None:
        match = asyncio.run(run_platform_bot(platform, agent, seed))
        typer.echo(json.dumps({"seat": match.seat, "victoryNum": match.victories, "draws": match.draws}))
    else:
        raise typer.BadParameter("give either URL (an arena seat) or --platform URL (a competition platform "
                                 "server), not both")


__all__ = ["bot", "connect"]
