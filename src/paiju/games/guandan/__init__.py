"""GuanDan (掼蛋): four players in two teams, two 54-card decks, levels and wild cards.

This package holds the card and combination rules: ``cards`` (notation, packed card sets, the level's wild
cards), ``combos`` (combination types, readings of a set of cards, ``Play`` and how plays compare),
``legal`` (every legal play of a hand) and ``oracle`` (a JSON-lines rules oracle). Rules: the DanZero
paper §III and the competition platform's manual, condensed in ``specs/guandan.md``.
"""

from paiju.games.guandan.cards import format_cards, pack, parse_cards, parse_level, unpack, wild_card
from paiju.games.guandan.combos import PASS, ComboType, Play, interpretations, play_from_platform
from paiju.games.guandan.legal import legal_plays

__all__ = [
    "PASS",
    "ComboType",
    "Play",
    "format_cards",
    "interpretations",
    "legal_plays",
    "pack",
    "parse_cards",
    "parse_level",
    "play_from_platform",
    "unpack",
    "wild_card",
]
