"""Card counting for DouDizhu: the cards a seat has not seen, and whether a play could still be beaten.

Everything here reads one seat's observation only: its hand, the public cards and every play so far. Under the
癞子 rules the unseen wild cards may complete a combination (``can_beat`` with ``wild``).
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.games.doudizhu.cards import BIG_JOKER, FULL_DECK, NUM_RANKS, SMALL_JOKER, TWO, unpack
from paiju.games.doudizhu.moves import CHAIN_SHAPES, HARD, HIGHEST_CHAIN_RANK, SOFT, WILD, Category, Move
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


def can_beat(pool: Sequence[int], move: Move, most_cards: int, wild: Sequence[int] = ()) -> bool:
    """Whether a hand of at most ``most_cards`` cards drawn from ``pool`` could beat ``move`` (bombs and the
    rocket included); ``wild``: the wild ranks (癞子, ``_wild_can_beat``).

    Exact for plays without kickers; for kicker categories it asks for a higher main part and enough
    other cards (of pairs, for pair kickers) to serve as kickers.
    """
    if move.category is Category.ROCKET:
        return False
    if most_cards >= 2 and pool[SMALL_JOKER] and pool[BIG_JOKER]:
        return True
    if wild:
        return _wild_can_beat(pool, move, most_cards, wild)
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


def _wild_can_beat(pool: Sequence[int], move: Move, most_cards: int, wild: Sequence[int]) -> bool:
    """``can_beat`` under the 癞子 rules, the rocket apart: the wild cards of ``pool`` may stand for the missing
    cards of a main part that holds a natural card (a soft bomb, a chain with gaps) or for their own rank (as
    kickers too), and the four cards of a wild rank are the wild bomb."""
    natural = [0 if r in wild else n for r, n in enumerate(pool)]
    spare = sum(pool[w] for w in wild)
    bomb = move.category is Category.BOMB
    if most_cards >= 4 and any(not bomb or (tier, rank) > (move.tier, move.rank)
                               for rank, tier in _bombs(natural, spare, pool, wild)):
        return True
    if bomb or move.size > most_cards:
        return False
    category = move.category
    if category is Category.SOLO:
        return any(pool[r] for r in range(move.rank + 1, NUM_RANKS))
    if category in _SIMPLE:
        copies = _SIMPLE[category]
        return any(pool[r] >= copies if r in wild else natural[r] and natural[r] + spare >= copies
                   for r in range(move.rank + 1, TWO + 1))
    copies, units, unit_cards = (CHAIN_SHAPES[category][0], 0, 1) if category in CHAIN_SHAPES else _KICKERS[category]
    length = move.length
    top = TWO if length == 1 else HIGHEST_CHAIN_RANK
    for low in range(move.rank + 1, top - length + 2):
        window = range(low, low + length)
        need = sum(max(0, copies - natural[r]) for r in window)
        if need > spare or not any(natural[r] for r in window):
            continue
        kickers = sum(n // unit_cards for r, n in enumerate(natural)
                      if r not in window and (unit_cards == 1 or r < SMALL_JOKER))
        if kickers + (spare - need) // unit_cards >= units * length:
            return True
    return False


def _bombs(natural: Sequence[int], spare: int, pool: Sequence[int], wild: Sequence[int]) -> list[tuple[int, int]]:
    """The bombs ``pool`` holds as (rank, tier): four natural cards, four with wild cards (a natural card at
    least), the four cards of a wild rank."""
    found = [(w, WILD) for w in wild if pool[w] == 4]
    for rank in range(TWO + 1):
        if natural[rank] == 4:
            found.append((rank, HARD))
        elif natural[rank] and natural[rank] + spare >= 4:
            found.append((rank, SOFT))
    return found
