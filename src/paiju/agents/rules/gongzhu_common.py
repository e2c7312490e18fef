"""What the Gongzhu heuristic players (``mr-if``, ``mr-greed``) share: one seat's view of the table as card
masks, the points each card carries into a trick, and who is winning a trick.

Cards are indices in card order (suit ``S H D C``, then rank ``2`` .. ``A``; ``paiju.games.gongzhu.cards``), so
within a suit a higher index is a higher card, and sets of cards are 52-bit masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.core.errors import AgentError
from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, SUIT_MASKS
from paiju.games.gongzhu.observation import GongzhuObservation
from paiju.games.gongzhu.scoring import HEART_POINTS
from paiju.native import fast

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
PIG = CARD_INDEX["SQ"]
SHEEP = CARD_INDEX["DJ"]
TRANSFORMER = CARD_INDEX["C10"]


def _points() -> tuple[int, ...]:
    """Each card's points in a trick: hearts by rank, SQ −100, DJ +100, every other card 0 (C10 multiplies)."""
    points = [0] * 52
    for rank, value in HEART_POINTS.items():
        points[CARD_INDEX["H" + rank]] = value
    points[PIG], points[SHEEP] = -100, 100
    return tuple(points)


POINTS = _points()
"""``POINTS[card]``: what the card adds to the points of the trick it is played to (spec "Rules")."""


def bit(card: int) -> int:
    """The mask of one card."""
    return 1 << card


def suit_of(card: int) -> int:
    """The suit (0-3, ``S H D C``) of a card index."""
    return card // 13


def highest(cards: int) -> int:
    """The highest card index of a non-empty mask (within one suit: the highest card)."""
    return cards.bit_length() - 1


def below(cards: int, card: int) -> int:
    """The cards of mask ``cards`` whose index is below ``card`` (within one suit: the lower ones)."""
    return cards & ((1 << card) - 1)


def indices(cards: int) -> list[int]:
    """The card indices of a mask, lowest first."""
    found = []
    while cards:
        low = cards & -cards
        found.append(low.bit_length() - 1)
        cards ^= low
    return found


def mask_of_names(names: Sequence[str]) -> int:
    """The mask of some card names."""
    mask = 0
    for name in names:
        mask |= 1 << CARD_INDEX[name]
    return mask


def legal_mask(agent: str, seat: int, legal: Sequence[str]) -> int:
    """The mask of the legal card names; ``AgentError`` when there are none or one is not a card name."""
    if not legal:
        raise AgentError(agent, seat, "no legal cards to choose from")
    unknown = [card for card in legal if card not in CARD_INDEX]
    if unknown:
        raise AgentError(agent, seat, f"legal actions must be card names such as 'SQ', got {unknown[0]!r}")
    return mask_of_names(legal)


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's view of a Gongzhu table as masks (``from_observation``); nothing another seat holds.

    ``trick``: the plays of the trick in progress, (seat, card index) in order; ``played``: every card played
    so far, the trick in progress included; ``taken[s]``: the scoring cards seat ``s`` has collected;
    ``voids[s]``: the suits (a 4-bit set, bit ``suit``) seat ``s`` has shown void in; ``tricks_done``: how
    many tricks are complete.
    """

    seat: int
    hand: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    played: int
    taken: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    cards_left: tuple[int, int, int, int]
    tricks_done: int

    @classmethod
    def from_observation(cls, observation: GongzhuObservation) -> TableView:
        return table_view(cls, observation)

    @property
    def led_suit(self) -> int | None:
        """The suit of the trick in progress, or None when this seat leads."""
        return suit_of(self.trick[0][1]) if self.trick else None

    @property
    def unseen(self) -> int:
        """The cards the other seats hold."""
        return FULL_MASK & ~self.hand & ~self.played

    @property
    def trick_cards(self) -> int:
        """The mask of the cards in the trick in progress."""
        mask = 0
        for _, card in self.trick:
            mask |= 1 << card
        return mask

    @property
    def is_last(self) -> bool:
        """Whether this seat plays the trick's fourth card."""
        return len(self.trick) == 3

    def winning(self) -> tuple[int, int]:
        """(seat, card) winning the trick in progress so far: the highest card of the led suit. Needs a play."""
        led = suit_of(self.trick[0][1])
        seat, best = self.trick[0]
        for player, card in self.trick[1:]:
            if card > best and suit_of(card) == led:
                seat, best = player, card
        return seat, best

    def in_suit(self, suit: int) -> int:
        """This hand's cards of ``suit``."""
        return self.hand & SUIT_MASKS[suit]


def table_view(cls: type[TableView], observation: GongzhuObservation) -> TableView:
    """``TableView.from_observation``: the view of ``observation`` as masks, counts and voids."""
    plays = [(seat, CARD_INDEX[card]) for seat, card in observation.history + observation.trick]
    played = 0
    voids = [0, 0, 0, 0]
    left = [13, 13, 13, 13]
    for start in range(0, len(plays), 4):
        led = suit_of(plays[start][1])
        for position, (seat, card) in enumerate(plays[start: start + 4]):
            played |= 1 << card
            left[seat] -= 1
            if position and suit_of(card) != led:
                voids[seat] |= 1 << led
    done = len(observation.history) // 4
    return cls(seat=observation.seat, hand=mask_of_names(observation.hand), leader=observation.leader,
               trick=tuple(plays[4 * done:]), played=played,
               taken=tuple(mask_of_names(cards) for cards in observation.taken),  # type: ignore[arg-type]
               voids=tuple(voids), cards_left=tuple(left), tricks_done=done)  # type: ignore[arg-type]


reference_table_view = table_view
table_view = fast("paiju.agents.rules._gongzhu_common_fast", "table_view", table_view)
