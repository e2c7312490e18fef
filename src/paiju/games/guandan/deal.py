"""GuanDan deals: four hands of 27 cards from the two decks, drawn round after round from one seeded generator.

A hand is a packed set (``cards.pack``). Every deal of a game comes from ``random.Random(seed)``: first the
leader of the first round (``randrange(4)``), then one shuffle of the 108 cards per round, cards ``27k ..
27k + 26`` going to seat ``k``. A game with ``rotation`` k draws the same deals and moves every hand k seats
on (seat ``(s + k) % 4`` gets what seat ``s`` would have got; the first leader moves with its hand), so that
duplicate play can give each team each pair of partner hands.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import CardError, PaijuError
from paiju.games.guandan.cards import COPIES, DECK, NUM_CARDS, card_name, format_cards, pack, parse_cards, unpack

HAND_SIZE = 27
FULL_DECK = pack(DECK)
"""Both decks as one packed set."""
_LOW = int("01" * NUM_CARDS, 2)
"""The low bit of every card's 2-bit field."""


def hand_size(hand: int) -> int:
    """Number of cards in a packed set."""
    return (hand & _LOW).bit_count() + 2 * ((hand >> 1) & _LOW).bit_count()


def holds(hand: int, cards: int) -> bool:
    """Whether the packed set ``hand`` contains the packed set ``cards`` (each card's 2-bit count at least as
    large), field by field in a few integer operations."""
    a0, a1 = hand & _LOW, (hand >> 1) & _LOW
    b0, b1 = cards & _LOW, (cards >> 1) & _LOW
    less = (b1 & ~a1) | (~(a1 ^ b1) & b0 & ~a0)
    return not less & _LOW


@dataclass(frozen=True, slots=True)
class Deal:
    """Four 27-card hands (``hands[seat]``, packed) that together make the two decks."""

    hands: tuple[int, int, int, int]

    @classmethod
    def draw(cls, rng: random.Random) -> Deal:
        """Shuffle the 108 cards with ``rng``; cards ``27k .. 27k + 26`` go to seat ``k``."""
        deck = list(DECK)
        rng.shuffle(deck)
        return cls(tuple(pack(deck[HAND_SIZE * seat: HAND_SIZE * (seat + 1)]) for seat in range(4)))  # type: ignore[arg-type]

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[str]]) -> Deal:
        """A deal from four lists of platform card names, checked to be the two decks in four hands of 27."""
        if isinstance(hands, str) or len(hands) != 4 or any(isinstance(hand, str) for hand in hands):
            raise CardError(f"a deal is four lists of card names, one per seat, got {hands!r:.80}")
        deal = cls(tuple(pack(parse_cards(hand)) for hand in hands))  # type: ignore[arg-type]
        deal.validate()
        return deal

    def validate(self) -> None:
        """Raises ``CardError`` unless the hands are four hands of 27 cards holding each card exactly twice."""
        sizes = [hand_size(hand) for hand in self.hands]
        if len(self.hands) != 4 or sizes != [HAND_SIZE] * 4:
            raise CardError(f"a GuanDan deal is four hands of 27 cards, got sizes {sizes}")
        counts = Counter(card for hand in self.hands for card in unpack(hand))
        wrong = [card for card in range(NUM_CARDS) if counts[card] != COPIES]
        if wrong:
            listing = ", ".join(f"{card_name(card)} x{counts[card]}" for card in wrong[:6])
            raise CardError(f"a GuanDan deal holds every card twice (two decks), got {listing}")

    def rotated(self, shift: int) -> Deal:
        """The hands moved ``shift`` seats on: seat ``(s + shift) % 4`` gets the hand seat ``s`` held."""
        return Deal(tuple(self.hands[(seat - shift) % 4] for seat in range(4)))  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [format_cards(unpack(hand)) for hand in self.hands]}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> Deal:
        if not isinstance(value, dict) or "hands" not in value:
            raise CardError(f"a GuanDan deal is {{\"hands\": [[...], [...], [...], [...]]}}, got {value!r:.80}")
        return cls.from_hands(value["hands"])


class DealSource:
    """The deals of one game in round order: the ``given`` ones (rounds ``first_round`` on), then those drawn
    from ``random.Random(seed)`` (the generator skips as many deals as were given), rotated by ``rotation``.

    Deal ``n`` never depends on play, so clones of a state share one source and draw from it lazily.
    """

    def __init__(self, seed: int | None, rotation: int = 0, given: Sequence[Deal] = (), first_round: int = 0) -> None:
        self.seed = seed
        self.rotation = rotation % 4
        self.first_round = first_round
        self._rng = random.Random(seed) if seed is not None else None
        self.first_leader = ((self._rng.randrange(4) if self._rng is not None else 0) + self.rotation) % 4
        """The seat that leads the first round: drawn before the first deal, moved with the rotation."""
        self._deals = list(given)
        self._drawn = 0

    def deal(self, round_number: int) -> Deal:
        """The deal of round ``round_number`` (raises ``PaijuError`` past the given deals without a seed)."""
        index = round_number - self.first_round
        while len(self._deals) <= index:
            if self._rng is None:
                raise PaijuError(f"no deal for round {round_number}: the game has no seed to draw more deals from")
            deal = Deal.draw(self._rng)
            self._drawn += 1
            if self._drawn > len(self._deals):
                self._deals.append(deal.rotated(self.rotation))
        return self._deals[index]
