"""A rules oracle over JSON lines: ``{"hand": "...", "last": "..."}`` in, ``{"legal": [...]}`` out.

``last`` is the play to beat (``""`` or absent: the hand leads). The answer lists every distinct legal
play once, ``""`` for pass, sorted by number of cards and then by rank order (``3`` lowest, ``R`` highest).
A bad line gets ``{"error": "..."}`` naming the problem.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.core.errors import PaijuError
from paiju.games.doudizhu.cards import RANK_INDEX, parse_cards
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import parse_move
from paiju.games.doudizhu.rules import DouDizhuRules


def play_order(cards: str) -> tuple[int, list[int]]:
    """Sort key of a play: number of cards, then its ranks low to high."""
    return (len(cards), [RANK_INDEX[c] for c in cards])


def answer(line: str, rules: DouDizhuRules) -> dict[str, Any]:
    """The oracle's answer to one input line."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error}"}
    if not isinstance(query, dict) or not isinstance(query.get("hand"), str):
        return {"error": 'expected an object like {"hand": "33445", "last": "3"}'}
    last = query.get("last") or ""
    if not isinstance(last, str):
        return {"error": f'"last" must be a string of cards, got {last!r}'}
    try:
        hand = parse_cards(query["hand"])
        follow = parse_move(last, rules) if last else None
    except (PaijuError, ValueError) as error:
        return {"error": str(error)}
    plays = sorted((m.cards for m in legal_moves(hand, follow, rules)), key=play_order)
    return {"legal": plays}
