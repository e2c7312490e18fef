"""Tribute (进贡) and return (还贡) before each round after the first (spec "A round", DanZero §III).

- **Who pays**: the previous round's 4th player pays the 1st — even when they are partners (1st and 4th of
  one team; the spec's rule taken literally). When the losing team finished 3rd and 4th (the 1st player's
  partner was 2nd: double-down), both pay; the higher tribute goes to the 1st player and the other to the
  2nd. Equal tributes: the payer who comes first in turn order after the 1st player pays the 1st.
- **Anti-tribute** (抗贡): when the payer, or the two payers together, were dealt both big jokers (``HR``),
  nobody pays; ``anti_tribute`` lists the payers holding a big joker.
- **Tribute card**: the payer's highest single card (single-card order at the new round's level: big joker,
  small joker, level card, A, K, ...) other than a wild card; when several different cards tie (``SA`` and
  ``DA``; the spade and club level cards), each is a legal choice.
- **Return card**: each receiver gives back to its payer one card of face rank 10 or lower (2 .. 10), any
  suit; the rank is the card's face, so a level card or a wild card of rank 10 or lower may be returned (the
  spec says "a card of rank at most 10"). A receiver holding no such card (possible in principle) returns
  one of its lowest cards in the single-card order.
- **Order of decisions**: payers decide in turn order from the 1st player (the 1st player's next seat
  first), then the receivers return, the 1st player first. Within a phase the choices are sealed: a gift
  stays in its giver's hand and out of every observation until the phase's last gift is chosen, then all of
  them change hands at once and become public (the competition platform broadcasts the tribute and return
  results to every seat), so the second payer never sees the first payer's card before choosing.
- **Who leads**: the payer of the (higher) tribute; with anti-tribute, the previous 1st player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.core.errors import CardError, IllegalActionError
from paiju.games.guandan.cards import BIG_JOKER, card_name, card_rank, parse_card, unpack, wild_card
from paiju.games.guandan.combos import power

TRIBUTE, BACK = "tribute", "back"
HIGHEST_BACK_RANK = 8
"""Rank index of the 10: a return card's face rank is at most this."""


@dataclass(frozen=True, slots=True)
class Gift:
    """A tribute or return card: ``kind`` (``"tribute"`` or ``"back"``) and ``card`` (a card index)."""

    kind: str
    card: int

    def __post_init__(self) -> None:
        if self.kind not in (TRIBUTE, BACK):
            raise IllegalActionError(f"a gift is a 'tribute' or a 'back', got kind {self.kind!r}")
        if isinstance(self.card, bool) or not isinstance(self.card, int) or not 0 <= self.card <= BIG_JOKER:
            raise IllegalActionError(f"a gift's card is a card index 0..53, got {self.card!r}")

    def to_platform(self) -> list[Any]:
        """The platform form: ``["tribute", "tribute", ["D2"]]`` / ``["back", "back", ["S5"]]``."""
        return [self.kind, self.kind, [card_name(self.card)]]

    @classmethod
    def from_platform(cls, value: Any) -> Gift:
        """Parse the platform form (raises ``IllegalActionError``)."""
        if (not isinstance(value, list | tuple) or len(value) != 3 or value[0] not in (TRIBUTE, BACK)
                or value[1] != value[0] or not isinstance(value[2], list | tuple) or len(value[2]) != 1):
            raise IllegalActionError(f'a gift is ["tribute", "tribute", [card]] or ["back", "back", [card]], '
                                     f"got {value!r}")
        try:
            return cls(value[0], parse_card(value[2][0]))
        except CardError as error:
            raise IllegalActionError(str(error)) from None

    def __str__(self) -> str:
        return f"{self.kind} {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class TributeRoles:
    """Who pays and who receives: ``payers`` in the order they decide, ``receivers`` the 1st player (and the
    2nd, in a double-down)."""

    payers: tuple[int, ...]
    receivers: tuple[int, ...]

    @classmethod
    def from_order(cls, order: tuple[int, ...]) -> TributeRoles:
        """The roles after a round that finished in ``order`` (four seats)."""
        first = order[0]
        if order[1] == first ^ 2:
            payers = sorted(order[2:], key=lambda seat: (seat - first) % 4)
            return cls(payers=tuple(payers), receivers=(first, order[1]))
        return cls(payers=(order[3],), receivers=(first,))


def card_power(card: int, level: int) -> int:
    """A card's place in the single-card order at ``level`` (``combos.power`` of its rank)."""
    return power(card_rank(card), level)


def anti_tribute(hands: list[int], payers: tuple[int, ...]) -> tuple[int, ...]:
    """The payers holding a big joker when they hold both between them (no tribute then), else ``()``."""
    shift = 2 * BIG_JOKER
    held = [(hands[payer] >> shift) & 3 for payer in payers]
    if sum(held) < 2:
        return ()
    return tuple(payer for payer, count in zip(payers, held, strict=True) if count)


def tribute_cards(hand: int, level: int) -> list[int]:
    """The legal tribute cards of ``hand`` (packed): its different cards of the highest single-card order
    other than the wild card, in card order."""
    wild = wild_card(level)
    cards = sorted({card for card in unpack(hand) if card != wild})
    best = max(card_power(card, level) for card in cards)
    return [card for card in cards if card_power(card, level) == best]


def back_cards(hand: int, level: int) -> list[int]:
    """The legal return cards of ``hand`` (packed): its different cards of face rank 10 or lower, in card
    order; with none, its different cards of the lowest single-card order."""
    cards = sorted(set(unpack(hand)))
    low = [card for card in cards if card_rank(card) <= HIGHEST_BACK_RANK]
    if low:
        return low
    lowest = min(card_power(card, level) for card in cards)
    return [card for card in cards if card_power(card, level) == lowest]


def assign_tributes(roles: TributeRoles, paid: list[tuple[int, int]], level: int) -> tuple[list[tuple[int, int, int]],
                                                                                           int]:
    """The tributes as (payer, receiver, card), in the payers' order, and the seat that leads the round.

    ``paid`` holds each payer's (seat, card) in ``roles.payers`` order. One payer pays the 1st player; of two,
    the higher card goes to the 1st player, the lower to the 2nd, and equal cards by the payers' order.
    """
    if len(paid) == 1:
        payer, card = paid[0]
        return [(payer, roles.receivers[0], card)], payer
    (early, early_card), (late, late_card) = paid
    top = late if card_power(late_card, level) > card_power(early_card, level) else early
    receiver = {top: roles.receivers[0], (early if top == late else late): roles.receivers[1]}
    return [(early, receiver[early], early_card), (late, receiver[late], late_card)], top
