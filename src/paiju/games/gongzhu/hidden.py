"""What one seat cannot see, and the full states that a guess of it makes.

From a seat's ``GongzhuObservation``: the unseen cards (neither in its hand nor played) are held by the three
other seats, each holding as many as the observation says and none of a suit it showed void in. A guess of
their hands (``sampling.sample_hidden_hands`` draws one uniformly) makes a full state: the deal is the hands
plus each seat's played cards, and the public plays are replayed on it, so the observing seat's observation of
that state equals its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, SUIT_MASKS, SUITS, mask_of
from paiju.games.gongzhu.deal import GongzhuDeal
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.sampling import count_deals
from paiju.games.gongzhu.state import GongzhuState


@dataclass(frozen=True, slots=True)
class HiddenCards:
    """What ``seat`` cannot see: the ``unseen`` cards (a mask) are held by the ``others`` (the other seats in
    seat order), ``sizes[k]`` of them by ``others[k]``, who holds none of ``forbidden[k]`` (its void suits)."""

    seat: int
    others: tuple[int, int, int]
    unseen: int
    sizes: tuple[int, int, int]
    forbidden: tuple[int, int, int]

    @classmethod
    def of(cls, observation: GongzhuObservation) -> HiddenCards:
        seat = observation.seat
        others = tuple(other for other in range(4) if other != seat)
        played = mask_of(card for _, card in observation.history + observation.trick)
        left, voids = observation.cards_left, observation.voids
        return cls(seat, others, FULL_MASK & ~mask_of(observation.hand) & ~played,  # type: ignore[arg-type]
                   tuple(left[other] for other in others),  # type: ignore[arg-type]
                   tuple(sum(SUIT_MASKS[SUITS.index(suit)] for suit in voids[other]) for other in others))

    def deals(self) -> int:
        """How many deals of the unseen cards respect the sizes and the voids."""
        return count_deals(self.unseen, self.sizes, self.forbidden)


def state_with_hidden(observation: GongzhuObservation, hidden: Sequence[int]) -> GongzhuState:
    """The state where the other seats (in seat order) hold the masks ``hidden`` now, ``observation.seat``
    holds its hand, and the observed plays are replayed from the deal they make."""
    plays = observation.history + observation.trick
    current = [mask_of(observation.hand)] * 4
    others = [seat for seat in range(4) if seat != observation.seat]
    for seat, cards in zip(others, hidden, strict=True):
        current[seat] = cards
    for seat, card in plays:
        current[seat] |= 1 << CARD_INDEX[card]
    state = GongzhuState(observation.rules, GongzhuDeal.from_masks(current))
    for _, card in plays:
        state.play(CARD_INDEX[card])
    return state
