"""A rules oracle over JSON lines: ``{"hand": [...], "trick": [...]}`` in, ``{"legal": [...]}`` out.

``trick`` lists the cards of the trick in progress, in order (card names, or ``[seat, card]`` pairs as in the
protocol's observation); empty or absent: the hand leads. The answer lists the cards the hand may play, in
card order (suit S H D C, then rank). A bad line gets ``{"error": "..."}`` naming the problem.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.core.errors import PaijuError
from paiju.games.gongzhu.cards import parse_card, sort_cards


def answer(line: str) -> dict[str, Any]:
    """The oracle's answer to one input line: follow the led suit when holding it, else any card."""
    try:
        query = json.loads(line)
    except json.JSONDecodeError as error:
        return {"error": f"not JSON: {error}"}
    if not isinstance(query, dict) or not isinstance(query.get("hand"), list) or not query["hand"]:
        return {"error": 'expected an object like {"hand": ["SQ", "H10"], "trick": ["S5"]}'}
    trick = query.get("trick") or []
    if not isinstance(trick, list):
        return {"error": f'"trick" must be a list of cards, got {trick!r}'}
    try:
        hand = [parse_card(card) for card in query["hand"]]
        played = [parse_card(entry[1] if isinstance(entry, list) else entry) for entry in trick]
    except (PaijuError, ValueError, IndexError, TypeError) as error:
        return {"error": str(error)}
    if len(set(hand)) != len(hand) or set(hand) & set(played):
        return {"error": "a card appears twice (in the hand or both in the hand and the trick)"}
    if len(played) > 3:
        return {"error": f"a trick in progress holds at most 3 cards, got {len(played)}"}
    following = [card for card in hand if played and card[0] == played[0][0]]
    return {"legal": list(sort_cards(following or hand))}
