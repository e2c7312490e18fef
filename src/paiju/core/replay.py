"""A readable, move-by-move account of any game's paiju record, through the core interface alone.

The record is replayed from its opening position one action at a time (``Game.opening_state``, then
``State.apply``), so the account shows each seat's action as the
game saw it. Game-specific words appear only where a game's own objects supply them (an observation's
``position``, the keys of ``perfect_view``, the fields of ``result``).
"""

from __future__ import annotations

import json
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import Game, State
from paiju.core.record import MALFORMED, check_header
from paiju.core.registry import load_game


def replay_lines(record: dict[str, Any]) -> list[str]:
    """Header (game, seed, rules, the starting hands and public facts of ``perfect_view``), one line per
    action (index, phase, seat, position when the observation has one, the action's JSON form with
    strings unquoted, ``pass`` for ``""``), a new header at each new deal, and a footer with the result.

    Raises ``RecordError`` when the record is not a paiju record (``check_header``), names no known game, or
    does not replay; whatever the game's code raises on a malformed record becomes one too.
    """
    game = _game_of(check_header(record))
    try:
        return _account(game, record)
    except RecordError:
        raise
    except MALFORMED as error:
        raise RecordError(f"the record does not replay: {error}") from None


def _account(game: Game, record: dict[str, Any]) -> list[str]:
    game.from_record(record)  # the whole record, result included, is checked before any line is written
    state = game.opening_state(record)
    lines = [f"game: {game.name}", f"seed: {_text(record.get('seed'))}", f"rules: {_text(record.get('rules'))}"]
    lines += _deal_lines(state)
    deal = state.deal_number
    for index, (seat, value) in enumerate(record["actions"]):
        phase = state.phase
        position = getattr(state.observation(seat), "position", None)
        action = state.action_from_json(value)
        state.apply(action, seat=seat)
        written = game.action_to_json(action)
        lines.append(f"{index:4d}  {phase:<5} seat {seat} {position or '':<8} "
                     f"{'pass' if written == '' else _text(written)}")
        if state.deal_number != deal:
            deal = state.deal_number
            lines += _deal_lines(state)
    return lines + _footer_lines(state)


def _game_of(record: dict[str, Any]) -> Game:
    try:
        return load_game(record["game"])
    except PaijuError as error:
        raise RecordError(str(error)) from None


def _deal_lines(state: State) -> list[str]:
    """The deal's opening: each seat's hand, then every other non-empty fact of ``perfect_view``."""
    view = state.perfect_view()
    lines = [f"deal {state.deal_number}:"]
    lines += [f"  seat {seat}: {_text(hand)}" for seat, hand in enumerate(view.get("hands", []))]
    lines += [f"  {key}: {_text(value)}" for key, value in view.items()
              if key != "hands" and value is not None and value != [] and value != {}]
    return lines


def _footer_lines(state: State) -> list[str]:
    if not state.is_terminal():
        return [f"unfinished: seat {state.current_player} to act ({state.phase})"]
    return ["result:"] + [f"  {key}: {_text(value)}" for key, value in state.result().items()]


def _text(value: Any) -> str:
    """Strings as they are, everything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
