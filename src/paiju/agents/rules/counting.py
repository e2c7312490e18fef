"""Card counting for DouDizhu: the cards a seat has not seen, and whether a play could still be beaten.

Everything here reads one seat's observation only: its hand, the public cards and every play so far.
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.games.doudizhu.cards import BIG_JOKER, FULL_DECK, NUM_RANKS, SMALL_JOKER, TWO, unpack
from paiju.games.doudizhu.moves import CHAIN_SHAPES, HIGHEST_CHAIN_RANK, Category, Move
from paiju.games.doudizhu.observation import DouDizhuObservation

_KICKERS = {  # category -> (cards of the main part per rank, kicker units per main rank, cards per kicker unit)
    Category.TRIO_SOLO: (3, 1, 1),
    Category.TRIO_PAIR: (3, 1, 2),
    Category.PLANE_SOLOS: (3, 1, 1),
    Category.PLANE_PAIRS: (3, 1, 2),
    Category.FOUR_TWO_SOLOS: (4, 2, 1),
    Category.FOUR_TWO_PAIRS: (4, 2, 2),
}
_SIMPLE = {Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3}


def unseen_cards(observation: DouDizhuObservation) -> list[int]:
    """Counts of the cards the seat cannot see: the deck less its hand and every card played."""
    played = unpack(sum(move.packed for _, move in observation.history))  # packed counts add as integers
    return [deck - held - gone for deck, held, gone in zip(FULL_DECK, observation.hand, played, strict=True)]


def can_beat(pool: Sequence[int], move: Move, most_cards: int) -> bool:
    """Whether a hand of at most ``most_cards`` cards drawn from ``pool`` could beat ``move`` (bombs and the
    rocket included).

    Exact for plays without kickers; for kicker categories it asks for a higher main part and enough
    other cards (of pairs, for pair kickers) to serve as kickers.
    """
    if move.category is Category.ROCKET:
        return False
    if most_cards >= 2 and pool[SMALL_JOKER] and pool[BIG_JOKER]:
        return True
    bomb_floor = move.rank if move.category is Category.BOMB else -1
    if most_cards >= 4 and any(pool[r] == 4 for r in range(bomb_floor + 1, SMALL_JOKER)):
        return True
    if move.category is Category.BOMB or move.size > most_cards:
        return False
    return _same_kind_above(pool, move)


def _same_kind_above(pool: Sequence[int], move: Move) -> bool:
    """Whether ``pool`` holds a play of ``move``'s category and length with a higher main rank."""
    category = move.category
    if category in _SIMPLE:
        copies = _SIMPLE[category]
        top = NUM_RANKS if copies == 1 else TWO + 1
        return any(pool[r] >= copies for r in range(move.rank + 1, top))
    if category in CHAIN_SHAPES:
        return _window_above(pool, CHAIN_SHAPES[category][0], move.length, move.rank)
    main_copies, units, unit_cards = _KICKERS[category]
    length = move.length
    top = TWO if length == 1 else HIGHEST_CHAIN_RANK
    for low in range(move.rank + 1, top - length + 2):
        window = range(low, low + length)
        if all(pool[r] >= main_copies for r in window):
            spare = [0 if r in window else pool[r] for r in range(NUM_RANKS)]
            kicker_units = sum(n // unit_cards for r, n in enumerate(spare) if unit_cards == 1 or r < SMALL_JOKER)
            if kicker_units >= units * length:
                return True
    return False


def _window_above(pool: Sequence[int], copies: int, length: int, above: int) -> bool:
    run = 0
    for rank in range(HIGHEST_CHAIN_RANK + 1):
        run = run + 1 if pool[rank] >= copies else 0
        if run >= length and rank - length + 1 > above:
            return True
    return False
