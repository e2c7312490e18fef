"""GuanDan combinations (spec "Combinations", DanZero §III): their types, how a set of cards reads as one,
and how one play beats another.

A ``Play`` is a multiset of concrete cards together with its interpretation (type and rank). The same
cards may read several ways — ``S5 S5 S5 H7 H7`` at level 7 is a full house of 5s and a 5-card bomb of 5s;
``S3 D4 C5`` with two wild cards is a straight from A, from 2 and from 3 — and each reading is a
different play. A play does not depend on the level; whether its cards *can* read that way does
(``interpretations``).

Rule choices (the spec leaves these open; each is stated where it is used):

- **Wild cards** (the two heart level cards) stand for any card except a joker, inside any combination of
  two or more cards that holds a natural card too; a combination made only of wild cards — one wild card,
  or the two as a pair — is the level card itself (a single or pair of the level rank). A wild card never
  joins a joker pair or the joker bomb. Standing for a heart level card, a wild card is itself.
- **Straight vs straight flush**: five consecutive ranks read as a ``Straight`` when some choice of the wild
  cards leaves them not all of one suit, and as a ``StraightFlush`` when some choice puts them all in one
  suit. Five natural cards of one suit are only a straight flush; with a wild card they are both.
- **Full house**: the trips and the pair are of different ranks (five cards of one rank are a bomb); the
  pair may be a joker pair (two small or two big jokers). It is ranked by the trips alone, so the same cards
  with the pair read as different ranks (two wild cards) are one play.
- **Platform rank field**: the rank letter of the single card / pair / trips / bomb (``B`` and ``R`` for
  joker singles and pairs); for ``Straight``, ``ThreePair``, ``TwoTrips`` and ``StraightFlush`` the rank of
  the *lowest* card, so ``A`` is A-2-3-4-5 (AA2233, AAA222) and ``T`` is T-J-Q-K-A — as in the competition
  platform's action lists, where the DanZero authors' client compares a straight flush's first (lowest)
  card with the action's rank; ``JOKER`` for the joker bomb; ``PASS`` for a pass. The cards are listed in
  canonical order (``cards``), whatever the combination: A-2-3-4-5 lists the ace last.
- **Distinct plays**: two plays are the same exactly when their cards (suits included), type and rank are.
  A wild card standing for a 5 and a natural 5 make different plays; so do the same cards read as a
  straight from 2 and from 3, or as a straight and a straight flush.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any

from paiju.core.errors import IllegalActionError
from paiju.games.guandan.cards import (
    BIG_JOKER,
    NUM_RANKS,
    RANKS,
    SMALL_JOKER,
    card_name,
    card_rank,
    card_suit,
    format_cards,
    level_name,
    pack,
    parse_cards,
    unpack,
    unpacked_names,
    wild_card,
)

ACE = 12
SMALL_JOKER_RANK, BIG_JOKER_RANK, JOKER_BOMB_RANK = 13, 14, 15
"""Rank codes of the joker single/pair (``B``, ``R``) and of the joker bomb (``JOKER``)."""
RANK_NAMES = (*RANKS, "B", "R", "JOKER")
POSITION_RANK = (ACE, *range(NUM_RANKS))
"""Chain position ``p`` (0..13) holds rank ``POSITION_RANK[p]``: the ace is low at position 0 and high at 13."""
MAX_BOMB = 10


class ComboType(IntEnum):
    """Combination types, in the order the oracle lists them; ``platform`` gives the platform's name."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPS = 3
    THREE_WITH_TWO = 4
    STRAIGHT = 5
    THREE_PAIR = 6
    TWO_TRIPS = 7
    BOMB = 8
    STRAIGHT_FLUSH = 9
    JOKER_BOMB = 10

    @property
    def platform(self) -> str:
        """The platform's type name (the joker bomb is a ``Bomb`` of rank ``JOKER``)."""
        return _PLATFORM_TYPES[self]


_PLATFORM_TYPES = {
    ComboType.PASS: "PASS", ComboType.SINGLE: "Single", ComboType.PAIR: "Pair", ComboType.TRIPS: "Trips",
    ComboType.THREE_WITH_TWO: "ThreeWithTwo", ComboType.STRAIGHT: "Straight", ComboType.THREE_PAIR: "ThreePair",
    ComboType.TWO_TRIPS: "TwoTrips", ComboType.BOMB: "Bomb", ComboType.STRAIGHT_FLUSH: "StraightFlush",
    ComboType.JOKER_BOMB: "Bomb",
}
CHAIN_SHAPES = {
    ComboType.STRAIGHT: (5, 1), ComboType.THREE_PAIR: (3, 2), ComboType.TWO_TRIPS: (2, 3),
    ComboType.STRAIGHT_FLUSH: (5, 1),
}
"""Chain types: (ranks in the chain, cards per rank). A chain starts at positions 0 .. 14 - width."""
BOMB_TYPES = frozenset({ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.JOKER_BOMB})
STRAIGHT_FLUSH_TIER = 11
"""Bomb tiers: a bomb of n cards is 2n, a straight flush 11 (above 5-card bombs, below 6-card ones), the
joker bomb 100 (spec "Combinations")."""


def power(rank: int, level: int) -> int:
    """Rank order of Single, Pair, Trips, ThreeWithTwo and Bomb: 2 < ... < A < level card < small joker <
    big joker (spec "Ranking")."""
    if rank == level:
        return NUM_RANKS
    return rank + 1 if rank >= NUM_RANKS else rank


def chain_position(rank: int) -> int:
    """A chain's position from its lowest card's rank: 0 for a chain from the ace (A-2-3-4-5), else rank + 1."""
    return 0 if rank == ACE else rank + 1


KEY_MARKER = 1 << 120
"""Set in every play key, above the cards: a play never equals a small integer (a card, a seat, a count)."""
_CARD_BITS = (1 << 112) - 1
_LOW_BITS = int("01" * 56, 2)
_TYPES = tuple(ComboType)
_PLATFORM_TYPES = tuple(combo.platform for combo in _TYPES)


class Play(int):
    """One play: a type, a rank code and concrete cards, as one immutable integer, its *key*:
    ``KEY_MARKER | packed cards << 8 | type << 4 | rank`` (``play_key``).

    Being an ``int`` makes a play cheap to build (the legal-play generator makes hundreds per call) and
    hashed and compared for equality in C; two plays are equal exactly when type, rank and cards are.
    Everything else is read from the key: ``type``, ``rank`` (0..12 for ``2``..``A`` — for chains the lowest
    card, the ace for A-2-3-4-5 —, 13 / 14 for joker singles and pairs, 15 for the joker bomb, -1 for a
    pass), ``packed``, ``cards`` (canonical order), ``size``. Plays are ordered only by ``beats``; ``<``
    and the other order operators raise ``TypeError`` rather than compare keys.
    """

    __slots__ = ()

    @property
    def key(self) -> int:
        return int(self)

    @property
    def type(self) -> ComboType:
        return _TYPES[(self >> 4) & 15]

    @property
    def rank(self) -> int:
        return -1 if self == PASS else self & 15

    @property
    def packed(self) -> int:
        """The cards as a packed set (``cards.pack``)."""
        return (self >> 8) & _CARD_BITS

    @property
    def cards(self) -> tuple[int, ...]:
        return tuple(unpack(self.packed))

    @property
    def size(self) -> int:
        """Number of cards: the 2-bit counts summed from two bit counts."""
        packed = self.packed
        return (packed & _LOW_BITS).bit_count() + 2 * (packed & (_LOW_BITS << 1)).bit_count()

    @property
    def is_pass(self) -> bool:
        return self == PASS

    @property
    def is_bomb(self) -> bool:
        """Bomb, straight flush or joker bomb: the plays that beat every other type."""
        return self.type in BOMB_TYPES

    @property
    def rank_name(self) -> str:
        return "PASS" if self == PASS else RANK_NAMES[self.rank]

    def order(self, level: int) -> int:
        """Position among plays of its type: ``power`` for Single .. ThreeWithTwo and Bomb, the chain
        position for chains (A-2-3-4-5 lowest, no wrap-around)."""
        if self.type in CHAIN_SHAPES:
            return chain_position(self.rank)
        return power(self.rank, level)

    def bomb_strength(self, level: int) -> tuple[int, int]:
        """Strength among bombs: more cards first, then rank; a straight flush between 5- and 6-card bombs;
        the joker bomb above all. Non-bombs are ``(0, 0)``."""
        play_type = self.type
        if play_type is ComboType.BOMB:
            return (2 * self.size, power(self.rank, level))
        if play_type is ComboType.STRAIGHT_FLUSH:
            return (STRAIGHT_FLUSH_TIER, chain_position(self.rank))
        if play_type is ComboType.JOKER_BOMB:
            return (100, 0)
        return (0, 0)

    def beats(self, other: Play, level: int) -> bool:
        """Whether this play may follow ``other`` at ``level``: the same type higher, or a stronger bomb
        (any bomb beats every non-bomb). A pass beats nothing; anything but a pass follows a pass."""
        if other == PASS or self == PASS:
            return self != PASS
        if self.is_bomb or other.is_bomb:
            return self.bomb_strength(level) > other.bomb_strength(level)
        return self.type is other.type and self.order(level) > other.order(level)

    def wilds(self, level: int) -> int:
        """How many of its cards are wild at ``level``."""
        return (self.packed >> (8 * level)) & 3

    def to_platform(self) -> list[Any]:
        """``[type, rank, [cards...]]`` as the platform writes actions; a pass is ``["PASS", "PASS", "PASS"]``."""
        if self == PASS:
            return ["PASS", "PASS", "PASS"]
        return [_PLATFORM_TYPES[(self >> 4) & 15], RANK_NAMES[self & 15], unpacked_names((self >> 8) & _CARD_BITS)]

    def _unordered(self, other: object) -> bool:
        raise TypeError("plays have no natural order: compare them with Play.beats(other, level)")

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __str__(self) -> str:
        if self == PASS:
            return "PASS"
        return f"{self.type.platform} {self.rank_name} {' '.join(card_name(card) for card in self.cards)}"

    def __repr__(self) -> str:
        return f"Play({self})"


def play_key(play_type: ComboType | int, rank: int, packed: int) -> int:
    """The key of a play (``Play``): marker, packed cards, type, rank code."""
    return KEY_MARKER | packed << 8 | play_type << 4 | rank


def plays_from_keys(keys: list[int]) -> list[Play]:
    """Plays from their keys."""
    return list(map(Play, keys))


def make_play(play_type: ComboType, rank: int, cards: Iterable[int]) -> Play:
    """The play of these cards read as ``play_type`` of ``rank`` (no check that they do)."""
    return Play(play_key(play_type, rank, pack(cards)))


PASS = Play(KEY_MARKER)


def interpretations(cards: Sequence[int], level: int) -> list[Play]:
    """Every reading of the multiset ``cards`` at ``level`` as a combination, by type then rank.

    A reading exists when the wild cards can be chosen (each any non-joker card) so that the cards form
    that type and rank (see the module's rule choices). Reasoned from the natural cards' rank and suit
    counts, never by trying every choice of the wild cards.
    """
    cards = sorted(cards)
    size = len(cards)
    wild = wild_card(level)
    wilds = cards.count(wild)
    naturals = [card for card in cards if card != wild]
    found: list[Play] = []
    if not naturals:
        if size in (1, 2):  # only wild cards: the level card itself
            found.append(make_play((ComboType.SINGLE, ComboType.PAIR)[size - 1], level, cards))
        return found
    by_rank = Counter(card_rank(card) for card in naturals)
    has_joker = any(card >= SMALL_JOKER for card in naturals)
    if len(by_rank) == 1:
        _same_rank(found, cards, next(iter(by_rank)), wilds)
    if size == 4 and cards == [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]:
        found.append(make_play(ComboType.JOKER_BOMB, JOKER_BOMB_RANK, cards))
    if size == 5:
        _full_houses(found, cards, by_rank)
    if not has_joker and size in (5, 6):
        suits = {card_suit(card) for card in naturals}
        for play_type, (width, copies) in CHAIN_SHAPES.items():
            if width * copies != size or max(by_rank.values()) > copies:
                continue
            if play_type is ComboType.STRAIGHT and not wilds and len(suits) == 1:
                continue  # five natural cards of one suit are only a straight flush
            if play_type is ComboType.STRAIGHT_FLUSH and len(suits) != 1:
                continue
            for start in range(15 - width):
                window = {POSITION_RANK[p] for p in range(start, start + width)}
                if window.issuperset(by_rank):
                    found.append(make_play(play_type, POSITION_RANK[start], cards))
    return found


def _same_rank(found: list[Play], cards: list[int], rank: int, wilds: int) -> None:
    """Single, Pair, Trips or Bomb of one natural rank (wild cards standing for it); jokers pair only with
    the same joker, never with a wild card."""
    size = len(cards)
    if rank >= NUM_RANKS:
        if size == 1 or (size == 2 and not wilds):
            found.append(make_play((ComboType.SINGLE, ComboType.PAIR)[size - 1], rank, cards))
        return
    if size <= 3:
        found.append(make_play((ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPS)[size - 1], rank, cards))
    elif size <= MAX_BOMB:
        found.append(make_play(ComboType.BOMB, rank, cards))


def _full_houses(found: list[Play], cards: list[int], by_rank: Counter[int]) -> None:
    """Trips of rank t + a pair of another rank (a joker pair must be natural); ranked by t."""
    for trips, count in sorted(by_rank.items()):
        if trips >= NUM_RANKS or count > 3:
            continue
        others = [rank for rank in by_rank if rank != trips]
        if not others:
            ok = count == 3  # the two wild cards are the pair
        elif len(others) == 1:
            pair = others[0]
            ok = by_rank[pair] == 2 if pair >= NUM_RANKS else by_rank[pair] <= 2
        else:
            ok = False
        if ok:
            found.append(make_play(ComboType.THREE_WITH_TWO, trips, cards))


def play_from_platform(value: Any, hand: int | None, level: int) -> Play:
    """The play written ``[type, rank, cards]`` (platform form), checked at ``level``: the cards exist, are
    in ``hand`` (a packed set; ``None`` skips this check) and read as that type and rank.

    Raises ``CardError`` for unknown card names and ``IllegalActionError`` for anything else wrong.
    """
    if not isinstance(value, list | tuple) or len(value) != 3:
        raise IllegalActionError(f"a play is [type, rank, cards] (e.g. ['Pair', '5', ['S5', 'D5']]), got {value!r}")
    type_name, rank_name, names = value
    if type_name == "PASS":
        if rank_name != "PASS" or names not in ("PASS", [], ()):
            raise IllegalActionError(f'a pass is ["PASS", "PASS", "PASS"], got {value!r}')
        return PASS
    if not isinstance(names, list | tuple) or not names:
        raise IllegalActionError(f"the cards of {value!r} must be a non-empty list of card names")
    cards = parse_cards(names)
    if hand is not None:
        _check_held(cards, hand)
    options = interpretations(cards, level)
    rank_name = str(rank_name).upper().replace("10", "T")
    for play in options:
        if play.type.platform == type_name and play.rank_name == rank_name:
            return play
    readings = ", ".join(f"{p.type.platform} {p.rank_name}" for p in options) or "no combination"
    raise IllegalActionError(f"{format_cards(cards)} is not {type_name} {rank_name} at level {level_name(level)}; "
                             f"it reads as: {readings}")


def _check_held(cards: list[int], hand: int) -> None:
    """Raise if ``hand`` (packed) lacks any of ``cards``."""
    for card, count in Counter(cards).items():
        if (hand >> (2 * card)) & 3 < count:
            raise IllegalActionError(f"{card_name(card)} x{count} is not in the hand {format_cards(unpack(hand))}")

