"""Gongzhu cards: one standard 52-card deck, named suit letter + rank (``S10``, ``HA``, ``SQ``).

Card order (used everywhere: sorted hands, legal actions, masks) is by suit ``S H D C``, then by rank
``2 3 4 5 6 7 8 9 10 J Q K A`` low to high. Card ``i`` of ``CARD_NAMES`` is suit ``i // 13``, rank ``i % 13``.
A set of cards is also a 52-bit integer, bit ``i`` for card ``i`` ("mask"): the engine works on masks, and
agents, records and protocol messages see card names.
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import CardError
from paiju.native import fast

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NUM_CARDS = 52
CARD_NAMES: tuple[str, ...] = tuple(suit + rank for suit in SUITS for rank in RANKS)
CARD_INDEX: dict[str, int] = {name: index for index, name in enumerate(CARD_NAMES)}
"""Canonical card name -> index in card order."""

SUIT_BITS = (1 << 13) - 1
SUIT_MASKS: tuple[int, ...] = tuple(SUIT_BITS << (13 * suit) for suit in range(4))
"""``SUIT_MASKS[s]``: the mask of every card of suit ``SUITS[s]``."""
FULL_MASK = (1 << NUM_CARDS) - 1


def _suit_tables() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """For each suit, the sorted card names of every 13-bit subset of it (so masks decode by lookup)."""
    tables = []
    for suit in range(4):
        names = CARD_NAMES[13 * suit: 13 * suit + 13]
        table: list[tuple[str, ...]] = [()] * (SUIT_BITS + 1)
        for bits in range(1, SUIT_BITS + 1):
            high = bits.bit_length() - 1
            table[bits] = table[bits ^ (1 << high)] + (names[high],)
        tables.append(tuple(table))
    return tuple(tables)


SUIT_CARDS = _suit_tables()
"""``SUIT_CARDS[s][bits]``: the names of the cards of suit ``s`` whose ranks are set in ``bits``, in order."""


def parse_card(text: str) -> str:
    """The canonical name of one card; case and surrounding spaces are ignored (``" sq "`` -> ``"SQ"``)."""
    if not isinstance(text, str):
        raise CardError(f"a card is a string such as 'SQ' or 'H10', got {type(text).__name__} {text!r}")
    name = text.strip().upper()
    if name not in CARD_INDEX:
        raise CardError(f"unknown card {text!r}: a card is a suit letter S/H/D/C and a rank "
                        f"2-10/J/Q/K/A, e.g. 'SQ', 'H10', 'DJ', 'C10'")
    return name


def parse_cards(text: str) -> tuple[str, ...]:
    """Card names separated by spaces or commas (``"SQ h10, DJ"``), in the order given, each at most once."""
    if not isinstance(text, str):
        raise CardError(f"cards are a string such as 'SQ H10 DJ', got {type(text).__name__}")
    cards = tuple(parse_card(word) for word in text.replace(",", " ").split())
    repeated = sorted({card for card in cards if cards.count(card) > 1}, key=CARD_INDEX.__getitem__)
    if repeated:
        raise CardError(f"{', '.join(repeated)} appear more than once in {text!r}: a deck holds one of each card")
    return cards


def suit_of(card: str) -> str:
    """The suit letter of a card name (``"H10"`` -> ``"H"``)."""
    return card[0]


def rank_of(card: str) -> str:
    """The rank of a card name (``"H10"`` -> ``"10"``)."""
    return card[1:]


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Card names in card order (suit ``S H D C``, then rank ``2`` .. ``A``)."""
    return tuple(sorted(cards, key=CARD_INDEX.__getitem__))


def mask_of(cards: Iterable[str]) -> int:
    """The mask of some canonical card names (bit ``CARD_INDEX[name]`` set for each)."""
    mask = 0
    for card in cards:
        mask |= 1 << CARD_INDEX[card]
    return mask


def cards_of(mask: int) -> tuple[str, ...]:
    """The card names of a mask, in card order."""
    return (SUIT_CARDS[0][mask & SUIT_BITS] + SUIT_CARDS[1][(mask >> 13) & SUIT_BITS]
            + SUIT_CARDS[2][(mask >> 26) & SUIT_BITS] + SUIT_CARDS[3][mask >> 39])


reference_mask_of = mask_of
mask_of = fast("paiju.games.gongzhu._cards_fast", "mask_of", mask_of)
reference_cards_of = cards_of
cards_of = fast("paiju.games.gongzhu._cards_fast", "cards_of", cards_of)
