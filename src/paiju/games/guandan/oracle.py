"""A GuanDan rules oracle over JSON lines, in the competition platform's notation.

One query per line: ``{"hand": ["H9", "SB", ...], "level": "7", "last": [type, rank, cards] | null}``.
``level`` is the level rank (``"2"`` .. ``"A"``); ``last`` is the play to beat in platform form (``null``,
absent or ``["PASS", "PASS", "PASS"]``: the hand leads). The answer is ``{"legal": [[type, rank, cards],
...]}``: every distinct legal play once (``legal.legal_plays``), cards in canonical order, sorted by

1. type, in the order PASS, Single, Pair, Trips, ThreeWithTwo, Straight, ThreePair, TwoTrips, Bomb,
   StraightFlush, joker bomb (``combos.ComboType``);
2. strength within the type at this level (``Play.order``; bombs by size, then rank);
3. the cards, as canonical card indices compared lexicographically (H2 S2 C2 D2 H3 ... DA SB HR).

A bad line gets ``{"error": "..."}`` naming the problem: malformed JSON, an unknown card, more than two
copies of a card between the hand and ``last``, an unknown level, or a ``last`` that is no combination.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from paiju.core.errors import PaijuError
from paiju.games.guandan.cards import COPIES, card_name, pack, parse_cards, parse_level
from paiju.games.guandan.combos import Play, play_from_platform
from paiju.games.guandan.legal import legal_plays


def play_order(play: Play, level: int) -> tuple[int, int, int, tuple[int, ...]]:
    """The oracle's sort key of a play (see the module's docstring)."""
    strength = play.bomb_strength(level) if play.is_bomb else (0, play.order(level))
    return (play.type, *strength, play.cards)


def answer(line: str) -> dict[str, Any]:
    """The oracle's answer to one input line."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error}"}
    if not isinstance(query, dict) or not isinstance(query.get("hand"), list):
        return {"error": 'expected an object like {"hand": ["H9", "S9"], "level": "7", "last": null}'}
    try:
        level = parse_level(query.get("level"))
        hand = parse_cards(query["hand"])
        last = query.get("last")
        follow = None if last is None else play_from_platform(last, None, level)
        if follow is not None:
            _check_copies(hand, follow)
    except PaijuError as error:
        return {"error": str(error)}
    plays = legal_plays(pack(hand), level, follow)
    plays.sort(key=lambda play: play_order(play, level))
    return {"legal": [play.to_platform() for play in plays]}


def _check_copies(hand: list[int], follow: Play) -> None:
    """The hand and the play to beat come from the same two decks: at most two copies of a card in all."""
    counts = Counter(hand) + Counter(follow.cards)
    extra = sorted(card for card, count in counts.items() if count > COPIES)
    if extra:
        raise PaijuError(f"the hand and 'last' hold more than {COPIES} copies of "
                         f"{', '.join(card_name(card) for card in extra)}: there are two decks")
