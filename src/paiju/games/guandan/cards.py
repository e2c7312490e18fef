"""GuanDan cards, their platform names, the level and its wild cards.

Two 54-card decks: 108 cards, two copies of each of 54 distinct cards. A card is an index 0..53:
``4 * rank + suit`` for the 52 suited cards (ranks ``23456789TJQKA`` = 0..12, suits ``HSCD`` = 0..3),
52 the small joker and 53 the big joker. That index order is the canonical sort order (``H2 S2 C2 D2 H3
... DA SB HR``); it is the card order of DanZero's 54-vector (rank × 4 + suit, suits H, S, C, D, then the
two jokers). Platform names are suit + rank (``H9``, ``ST``, ``C2``, ``DA``); the jokers are ``SB``
(small) and ``HR`` (big), as the competition platform writes them.

A set of cards (a hand, a play) is packed into one integer, 2 bits per card (``count << 2 * index``), so
rank ``r`` occupies byte ``r`` (suit ``s`` in bits ``2s, 2s + 1``) and byte 13 holds the jokers (small
joker bits 0-1, big joker bits 2-3). Sets add and subtract as integers; ``packed.to_bytes(14, "little")``
gives each rank's profile byte at once.

The **level** is a rank (0..12, written ``"2"`` .. ``"A"``). Its cards are the level cards; the two heart
level cards are **wild** (``wild_card``).
"""

from __future__ import annotations

from collections.abc import Iterable

from paiju.core.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "HSCD"
NUM_RANKS = 13
HEARTS = 0
SMALL_JOKER, BIG_JOKER = 52, 53
NUM_CARDS = 54
COPIES = 2
"""Copies of each distinct card in the two decks."""
JOKER_BYTE = 13
"""The byte of a packed set that holds the jokers."""

UNIT = tuple(1 << (2 * card) for card in range(NUM_CARDS))
"""Packed form of one copy of each card."""
DECK: tuple[int, ...] = tuple(card for card in range(NUM_CARDS) for _ in range(COPIES))
"""The 108 cards of the two decks, in canonical order."""

_NAMES = (*(SUITS[card % 4] + RANKS[card // 4] for card in range(52)), "SB", "HR")
_INDEX = {name: card for card, name in enumerate(_NAMES)}
_LEVEL_NAMES = {**{letter: rank for rank, letter in enumerate(RANKS)}, "10": RANKS.index("T")}


def card_index(rank: int, suit: int) -> int:
    """The card of ``rank`` (0..12) and ``suit`` (0..3)."""
    return 4 * rank + suit


def card_rank(card: int) -> int:
    """A card's rank: 0..12 for ``2``..``A``, 13 for the small joker, 14 for the big joker."""
    return card // 4 if card < SMALL_JOKER else card - SMALL_JOKER + NUM_RANKS


def card_suit(card: int) -> int:
    """A suited card's suit (0..3 for ``HSCD``); jokers have none (-1)."""
    return card % 4 if card < SMALL_JOKER else -1


def card_name(card: int) -> str:
    """The platform name (``"H9"``, ``"SB"``)."""
    return _NAMES[card]


def parse_card(name: str) -> int:
    """The card called ``name`` (platform notation, case-insensitive; ``10`` may stand for ``T``)."""
    if not isinstance(name, str):
        raise CardError(f"a card is a string like 'H9' or 'SB', got {name!r}")
    key = name.strip().upper().replace("10", "T")
    card = _INDEX.get(key)
    if card is None:
        raise CardError(f"unknown card {name!r}: a card is a suit of {SUITS} and a rank of {RANKS} "
                        "(e.g. 'H9', 'ST'), or 'SB' / 'HR' for the small / big joker")
    return card


def parse_cards(names: Iterable[str] | str) -> list[int]:
    """Cards from platform names (a list, or one string separated by spaces or commas), sorted canonically.

    Raises ``CardError`` for an unknown name or more than two copies of a card (two decks).
    """
    if isinstance(names, str):
        names = names.replace(",", " ").split()
    elif not isinstance(names, Iterable):
        raise CardError(f"cards must be a list of names like ['H9', 'SB'], got {names!r}")
    cards = sorted(parse_card(name) for name in names)
    for card, twin, triplet in zip(cards, cards[1:], cards[2:], strict=False):
        if card == twin == triplet:
            raise CardError(f"more than {COPIES} copies of {card_name(card)}: there are two decks")
    return cards


def format_cards(cards: Iterable[int]) -> list[str]:
    """Platform names of ``cards``, in canonical order."""
    return [_NAMES[card] for card in sorted(cards)]


def pack(cards: Iterable[int]) -> int:
    """The packed form of a multiset of cards (each card at most twice)."""
    return sum(UNIT[card] for card in cards)


_BYTE_SUITS = tuple(tuple(suit for suit in range(4) for _ in range((byte >> (2 * suit)) & 3)) for byte in range(256))
"""The suits (positions in the byte) held by a packed byte, each as often as held."""


_BYTE_NAMES = tuple(tuple(tuple(_NAMES[4 * rank + suit] for suit in suits if 4 * rank + suit < len(_NAMES))
                          for suits in _BYTE_SUITS) for rank in range(14))
"""The names of the cards a packed byte holds, by the byte's rank (0..12, then 13: the jokers) and value."""


def unpacked_names(packed: int) -> list[str]:
    """The platform names of a packed set's cards, in canonical order (``card_names(unpack(packed))``)."""
    return [name for rank, byte in enumerate(packed.to_bytes(14, "little")) if byte
            for name in _BYTE_NAMES[rank][byte]]


def unpack(packed: int) -> list[int]:
    """The cards of a packed set, in canonical order (byte 13's two fields are the jokers, cards 52 and 53)."""
    return [4 * rank + suit for rank, byte in enumerate(packed.to_bytes(14, "little")) if byte
            for suit in _BYTE_SUITS[byte]]


def parse_level(text: str) -> int:
    """The level rank written ``"2"`` .. ``"9"``, ``"T"`` (or ``"10"``), ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
    level = _LEVEL_NAMES.get(text.strip().upper()) if isinstance(text, str) else None
    if level is None:
        raise CardError(f"unknown level {text!r}: a level is one of {', '.join(RANKS)}")
    return level


def level_name(level: int) -> str:
    """The level's rank letter."""
    return RANKS[level]


def wild_card(level: int) -> int:
    """The wild card of ``level``: the heart of the level rank (spec: "the two heart level cards")."""
    return card_index(level, HEARTS)
