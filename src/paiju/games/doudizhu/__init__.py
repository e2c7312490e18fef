"""DouDizhu (斗地主): three players, one 54-card deck, a landlord against two peasants.

Notation (``cards``): ranks ``3456789TJQKA2`` plus ``B`` (small joker) and ``R`` (big joker); suits do not
matter. Plays (``moves.Move``) cover the standard ruleset's 14 categories — exactly the 27,471 plays
(and pass) of DouZero's and RLCard's action space — with the public engines' variants as options of
``DouDizhuRules``. ``state.DouDizhuState`` is the game; ``game.DouDizhu`` deals, replays and determinizes.
癞子 (wild-card) DouDizhu is the ruleset option ``laizi`` (``wild``: its plays, what wild cards stand for, bomb
tiers).
"""

from paiju.games.doudizhu import wild
from paiju.games.doudizhu.cards import RANKS, format_cards, parse_cards
from paiju.games.doudizhu.game import DouDizhu
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import PASS, Category, Move, interpretations, parse_move
from paiju.games.doudizhu.observation import DouDizhuObservation
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.state import Deal, DouDizhuState

__all__ = [
    "PASS",
    "RANKS",
    "Category",
    "Deal",
    "DouDizhu",
    "DouDizhuObservation",
    "DouDizhuRules",
    "DouDizhuState",
    "Move",
    "format_cards",
    "interpretations",
    "legal_moves",
    "parse_cards",
    "parse_move",
    "wild",
]
