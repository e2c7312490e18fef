"""A Gongzhu deal: four hands of 13 cards, drawn from a seeded generator or given, and rotated for duplicates."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.core.errors import CardError
from paiju.games.gongzhu.cards import CARD_INDEX, cards_of, mask_of, parse_card, sort_cards
from paiju.games.gongzhu.sampling import shuffled_hands

HAND_SIZE = 13


@dataclass(frozen=True, slots=True)
class GongzhuDeal:
    """Four 13-card hands (``hands[seat]``, card names in card order) that together make one deck."""

    hands: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]

    @classmethod
    def draw(cls, rng: random.Random) -> GongzhuDeal:
        """Shuffle one deck with ``rng`` and give cards 13k..13k+12 of it to seat k."""
        hands = shuffled_hands(rng, 4, HAND_SIZE)  # one deck by construction: nothing to check
        return cls(tuple(cards_of(mask) for mask in hands))  # type: ignore[arg-type]

    @classmethod
    def from_masks(cls, hands: Sequence[int]) -> GongzhuDeal:
        """A deal from four card masks (see ``cards``), checked to be one deck in four hands of 13."""
        deal = cls(tuple(cards_of(mask) for mask in hands))  # type: ignore[arg-type]
        deal.validate()
        return deal

    @classmethod
    def from_hands(cls, hands: Sequence[Sequence[str]]) -> GongzhuDeal:
        """A deal from four lists of card names (any case, any order), checked to be one deck in four hands."""
        if isinstance(hands, str) or len(hands) != 4 or any(isinstance(hand, str) for hand in hands):
            raise CardError(f"a deal is four lists of card names, one per seat, got {hands!r:.80}")
        deal = cls(tuple(sort_cards(parse_card(card) for card in hand) for hand in hands))  # type: ignore[arg-type]
        deal.validate()
        return deal

    def validate(self) -> None:
        """Raises ``CardError`` unless the hands are four hands of 13 distinct cards (so one whole deck)."""
        sizes = [len(hand) for hand in self.hands]
        if len(self.hands) != 4 or sizes != [HAND_SIZE] * 4:
            raise CardError(f"a deal is four hands of 13 cards, got sizes {sizes}")
        seen: dict[str, int] = {}
        for seat, hand in enumerate(self.hands):
            for card in hand:
                if card not in CARD_INDEX:
                    raise CardError(f"seat {seat}'s hand holds {card!r}, which is not a canonical card name")
                if card in seen:
                    raise CardError(f"{card} is dealt to both seat {seen[card]} and seat {seat}")
                seen[card] = seat

    def masks(self) -> list[int]:
        """Each seat's hand as a card mask."""
        return [mask_of(hand) for hand in self.hands]

    def rotated(self, shift: int) -> GongzhuDeal:
        """The same hands moved ``shift`` seats on: seat ``(s + shift) % 4`` gets the hand seat ``s`` held.

        Duplicate play deals each deck twice, the second time ``rotated(1)``, so that each team holds each
        pair of partner hands once.
        """
        if shift % 4 == 0:
            return self
        return GongzhuDeal(tuple(self.hands[(seat - shift) % 4] for seat in range(4)))  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [list(hand) for hand in self.hands]}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> GongzhuDeal:
        if not isinstance(value, dict) or "hands" not in value:
            raise CardError(f"a Gongzhu deal is {{\"hands\": [[...], [...], [...], [...]]}}, got {value!r:.80}")
        return cls.from_hands(value["hands"])
