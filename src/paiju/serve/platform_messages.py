"""The GuanDan competition platform's JSON messages, built from a paiju GuanDan game.

Format: ``shared/specs/guandan.md``, "Competition platform protocol". Cards are platform names (``H9``,
``SB``), ranks rank letters (``"2"`` .. ``"A"``), actions the platform form ``[type, rank, cards]`` (a pass
``["PASS", "PASS", "PASS"]``, gifts ``["tribute", "tribute", ["D2"]]`` / ``["back", "back", ["S5"]]``).

=======================  ==============================================================================
``beginning``            ``{"type": "notify", "stage": "beginning", "handCards", "myPos"}`` — each round's
                         deal, to its seat alone, before any tribute
``anti-tribute``         ``{"type": "notify", "stage": "anti-tribute", "antiNums", "antiPos"}``
``tribute`` / ``back``   ``{"type": "notify", "stage", "result": [[giver, receiver, card], ...]}`` — once
                         every gift of the phase is chosen (until then they stay secret)
``play``                 ``{"type": "notify", "stage": "play", "curPos", "curAction", "greaterPos",
                         "greaterAction"}`` — after each play or pass
``episodeOver``          ``{"type": "notify", "stage": "episodeOver", "order", "curRank", "restCards"}`` —
                         after each round
``gameOver``             ``{"type": "notify", "stage": "gameOver", "curTimes", "settingTimes"}`` — after
                         each game to A
``gameResult``           ``{"type": "notify", "stage": "gameResult", "victoryNum", "draws"}`` — after the
                         match's last game
``act``                  ``{"type": "act", "stage", "handCards", "publicInfo", "selfRank", "oppoRank",
                         "curRank", "curPos", "curAction", "greaterPos", "greaterAction", "actionList",
                         "indexRange"}`` — to the seat to move alone
``error``                ``{"type": "error", "message"}`` — the client's last message was refused, or the
                         client itself (too many waiting, a malformed ``seed``)
=======================  ==============================================================================

Readings of fields the platform's manual leaves open:

- ``handCards``: in paiju's card order (by rank ``2`` .. ``A``, then suits ``H S C D``, jokers last).
- ``indexRange``: the largest valid ``actIndex``, ``len(actionList) - 1``, so that ``0 .. indexRange`` are
  the valid answers (the platform's sample clients answer ``randint(0, indexRange)``).
- ``act``: ``curPos`` / ``curAction`` are the last play or pass of the trick in progress, ``greaterPos`` /
  ``greaterAction`` the play to beat; all four are ``-1`` / ``null`` when the seat to move leads a trick
  (bots detect a lead by them) and in the tribute and back stages. ``publicInfo[s]`` is seat ``s``'s cards
  left (``rest``) and its last play or pass in the trick in progress (``playArea``; ``null`` until it acts in
  the trick).
- ``notify play``: ``greaterPos`` / ``greaterAction`` are the trick's highest play including this one (for
  a pass, the play it let stand).
- ``episodeOver``: ``order`` is the finishing order of the four seats, ``curRank`` the level the round was
  played at, ``restCards`` the cards still held by the seats that had not finished, ``[[seat, cards], ...]``.
- ``gameResult``: ``victoryNum[s]`` counts the games won by seat ``s``'s team, ``draws[s]`` the games no
  team won (only possible with a fixed number of rounds).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from paiju.agents.external import quote
from paiju.core.errors import PaijuError
from paiju.games.guandan.cards import card_name, format_cards, level_name, unpack
from paiju.games.guandan.combos import PASS, Play
from paiju.games.guandan.levels import team
from paiju.games.guandan.observation import Gifted, GuanDanObservation, platform_form

PlatformAction = list[Any]
"""An action in platform form: ``[type, rank, cards]``."""
PlayArea = tuple[PlatformAction | None, ...]
"""Each seat's last play or pass in the trick in progress (``None`` until it acts in the trick)."""
EMPTY_PLAY_AREA: PlayArea = (None, None, None, None)
ANSWER_KEY = "actIndex"


class AnswerError(PaijuError, ValueError):
    """A client's answer to ``act`` that is not ``{"actIndex": i}`` with a valid index."""


def _notice(stage: str, **fields: Any) -> dict[str, Any]:
    return {"type": "notify", "stage": stage, **fields}


def beginning(hand: int, seat: int) -> dict[str, Any]:
    """``notify beginning``: the seat's dealt hand (packed), sorted, and its position."""
    return _notice("beginning", handCards=format_cards(unpack(hand)), myPos=seat)


def anti_tribute(payers: Sequence[int]) -> dict[str, Any]:
    """``notify anti-tribute``: the payers whose big jokers cancel the tribute."""
    return _notice("anti-tribute", antiNums=len(payers), antiPos=list(payers))


def gifts(stage: str, exchanged: Sequence[Gifted]) -> dict[str, Any]:
    """``notify tribute`` / ``notify back``: every gift of the phase as ``[giver, receiver, card]``."""
    return _notice(stage, result=[[giver, receiver, card_name(card)] for giver, receiver, card in exchanged])


def _seat_and_action(move: tuple[int, Play] | None) -> tuple[int, PlatformAction | None]:
    return (-1, None) if move is None else (move[0], platform_form(move[1]))


def play(seat: int, action: Play, greater: tuple[int, Play] | None) -> dict[str, Any]:
    """``notify play``: ``seat`` played ``action`` where ``greater`` was the play to beat (``None``: it led)."""
    top = greater if action == PASS else (seat, action)
    greater_pos, greater_action = _seat_and_action(top)
    return _notice("play", curPos=seat, curAction=platform_form(action), greaterPos=greater_pos,
                   greaterAction=greater_action)


def episode_over(order: Sequence[int], level: int, rest: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """``notify episodeOver``: the round's finishing ``order``, its ``level``, and ``rest`` — (seat, packed
    hand) of each seat that still held cards."""
    return _notice("episodeOver", order=list(order), curRank=level_name(level),
                   restCards=[[seat, format_cards(unpack(hand))] for seat, hand in rest])


def game_over(games_played: int, games_planned: int) -> dict[str, Any]:
    """``notify gameOver``: after the ``games_played``-th game of ``games_planned``."""
    return _notice("gameOver", curTimes=games_played, settingTimes=games_planned)


def game_result(winners: Sequence[int | None]) -> dict[str, Any]:
    """``notify gameResult`` from the winning team (``levels.team``) of each game, ``None`` for no winner."""
    victories = [sum(1 for winner in winners if winner == team(seat)) for seat in range(4)]
    draws = [sum(1 for winner in winners if winner is None)] * 4
    return _notice("gameResult", victoryNum=victories, draws=draws)


def act(observation: GuanDanObservation, play_area: PlayArea, legal: Sequence[Any]) -> dict[str, Any]:
    """``act`` for the seat of ``observation`` (its own view only), choosing among ``legal``; a seat that leads
    a trick (or gives a gift) is sent no current or greater play."""
    leads = observation.greater is None
    cur_pos, cur_action = _seat_and_action(None if leads else observation.history[-1])
    greater_pos, greater_action = _seat_and_action(observation.greater)
    action_list = [platform_form(action) for action in legal]
    return {
        "type": "act", "stage": observation.phase, "handCards": format_cards(unpack(observation.hand)),
        "publicInfo": [{"rest": rest, "playArea": area}
                       for rest, area in zip(observation.cards_left, play_area, strict=True)],
        "selfRank": level_name(observation.self_level), "oppoRank": level_name(observation.oppo_level),
        "curRank": level_name(observation.level), "curPos": cur_pos, "curAction": cur_action,
        "greaterPos": greater_pos, "greaterAction": greater_action, "actionList": action_list,
        "indexRange": len(action_list) - 1,
    }


def next_play_area(play_area: PlayArea, seat: int, action: Play, trick_over: bool) -> PlayArea:
    """The play area after ``seat`` played ``action``: cleared when that ended the trick."""
    if trick_over:
        return EMPTY_PLAY_AREA
    return tuple(platform_form(action) if other == seat else area for other, area in enumerate(play_area))


def error(message: str) -> dict[str, Any]:
    """``error``: the client's last message was refused; nothing changed."""
    return {"type": "error", "message": message}


def read_answer(text: str, index_range: int) -> int:
    """The index of an answer ``{"actIndex": i}`` with ``0 <= i <= index_range``; ``AnswerError`` otherwise."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError as problem:
        raise AnswerError(f'expected {{"{ANSWER_KEY}": i}}; got text that is not JSON ({problem.msg}): '
                          f"{quote(text)}") from None
    except ValueError:  # json reads integers of at most sys.get_int_max_str_digits() digits
        raise AnswerError(f'expected {{"{ANSWER_KEY}": i}}; got a number with too many digits: {quote(text)}') from None
    except RecursionError:
        raise AnswerError(f'expected {{"{ANSWER_KEY}": i}}; got JSON nested too deeply: {quote(text)}') from None
    if not isinstance(answer, dict) or ANSWER_KEY not in answer:
        raise AnswerError(f'expected a JSON object {{"{ANSWER_KEY}": i}}, got {quote(text)}')
    unknown = sorted(set(answer) - {ANSWER_KEY})
    if unknown:
        raise AnswerError(f'unknown keys {unknown} in the answer; send only {{"{ANSWER_KEY}": i}}')
    index = answer[ANSWER_KEY]
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= index_range:
        raise AnswerError(f"{ANSWER_KEY} must be an integer from 0 to indexRange ({index_range}), "
                          f"got {quote(json.dumps(index))}")
    return index


def default_index(legal: Sequence[Any]) -> int:
    """The action played for a seat that does not answer in time: the pass when legal, else the first."""
    return legal.index(PASS) if PASS in legal else 0
