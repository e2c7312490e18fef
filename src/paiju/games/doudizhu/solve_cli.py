"""``paiju solve doudizhu``: decide an endgame given as card text, every hand visible (``solver``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from paiju.core.errors import PaijuError
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.solver import DEFAULT_NODE_LIMIT, solve
from paiju.games.doudizhu.solver_position import Position, position_from_text

PLAYER_HELP = "landlord, down (plays after the landlord) or up (plays before the landlord)"


def solve_doudizhu(
    landlord: Annotated[str, typer.Option(help="The landlord's cards, e.g. 33KA2 (ranks 3-9 TJQKA2, jokers B R).")],
    down: Annotated[str, typer.Option(help="Cards of the peasant who plays right after the landlord.")],
    up: Annotated[str, typer.Option(help="Cards of the peasant who plays right before the landlord.")],
    to_move: Annotated[str, typer.Option(help=f"Who plays next: {PLAYER_HELP}.")],
    last: Annotated[str | None, typer.Option(help="The play to beat, e.g. 5 or 33344; leave out when to-move leads.")]
    = None,
    last_by: Annotated[str | None, typer.Option(help=f"Who made the play to beat: {PLAYER_HELP}.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="Positions to expand before answering unknown.")]
    = DEFAULT_NODE_LIMIT,
    seconds: Annotated[float | None, typer.Option(min=0, help="Seconds to search before answering unknown "
                                                              "(default: no time limit).")] = None,
    rules: Annotated[str | None, typer.Option(help='Ruleset options as JSON, e.g. \'{"bomb_as_kickers": true}\'.')]
    = None,
) -> None:
    """Who wins a DouDizhu endgame with best play, every hand visible, and a winning move for the side to move.

    Win or loss only: the doublings of the score by bombs are not weighed.
    """
    position = _position(landlord, down, up, to_move, last, last_by, _rules(rules))
    solution = solve(position, limit=limit, seconds=seconds)
    typer.echo(f"position: {position}")
    mover = position.player(position.to_move)
    if solution.winner is None:
        bound = f"{limit} nodes" + (f" or {seconds:g} s" if seconds is not None else "")
        typer.echo(f"winner: unknown (not solved within {bound})")
    else:
        typer.echo(f"winner: {solution.winner} (with best play)")
        if solution.move is None:
            typer.echo(f"{mover}, to move, has no winning move")
        else:
            play = "pass" if solution.move.is_pass else f"{solution.move.cards} ({solution.move.category.label})"
            typer.echo(f"winning move for {mover}: {play}")
    typer.echo(f"searched: {solution.nodes} nodes in {solution.seconds:.3f} s")


def _position(landlord: str, down: str, up: str, to_move: str, last: str | None, last_by: str | None,
              rules: DouDizhuRules) -> Position:
    try:
        return position_from_text(landlord, down, up, to_move, last, last_by, rules)
    except PaijuError as error:
        raise typer.BadParameter(str(error)) from None


def _rules(text: str | None) -> DouDizhuRules:
    try:
        return DouDizhuRules.from_json(json.loads(text) if text else {})
    except (json.JSONDecodeError, PaijuError) as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None
