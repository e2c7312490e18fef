"""What one Gongzhu seat may see: its own hand, every card played so far (in order, by whom), the trick in
progress, and the scoring cards each seat has collected — never another seat's hand.

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, gongzhu).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, cards_of
from paiju.games.gongzhu.rules import GongzhuRules

Play = tuple[int, str]
"""One card played: (seat, card name)."""


@dataclass(frozen=True, slots=True)
class GongzhuObservation:
    """One seat's view of a Gongzhu game.

    ``leader`` leads the trick in progress (or the next one); ``trick`` holds its plays so far; ``history``
    holds the plays of the completed tricks, four per trick; ``taken[s]``: the scoring cards seat ``s`` has
    collected, in card order.
    """

    seat: int
    phase: str
    hand: tuple[str, ...]
    leader: int
    trick: tuple[Play, ...]
    history: tuple[Play, ...]
    taken: tuple[tuple[str, ...], ...]
    rules: GongzhuRules

    @property
    def led_suit(self) -> str | None:
        """The suit letter of the trick in progress, or None when the trick is empty."""
        return self.trick[0][1][0] if self.trick else None

    @property
    def played(self) -> frozenset[str]:
        """Every card played so far (completed tricks and the trick in progress)."""
        return frozenset(card for _, card in self.history + self.trick)

    @property
    def unseen(self) -> tuple[str, ...]:
        """The cards this seat cannot see (held by the other seats), in card order."""
        seen = 0
        for card in self.hand:
            seen |= 1 << CARD_INDEX[card]
        for _, card in self.history + self.trick:
            seen |= 1 << CARD_INDEX[card]
        return cards_of(FULL_MASK & ~seen)

    @property
    def cards_left(self) -> tuple[int, int, int, int]:
        """How many cards each seat holds."""
        left = [13, 13, 13, 13]
        for seat, _ in self.history + self.trick:
            left[seat] -= 1
        return tuple(left)  # type: ignore[return-value]

    @property
    def voids(self) -> tuple[frozenset[str], ...]:
        """Public knowledge, per seat: the suits it showed void in by not following a led suit."""
        voids: list[set[str]] = [set(), set(), set(), set()]
        plays = self.history + self.trick
        for start in range(0, len(plays), 4):
            led = plays[start][1][0]
            for seat, card in plays[start + 1: start + 4]:
                if card[0] != led:
                    voids[seat].add(led)
        return tuple(frozenset(suits) for suits in voids)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": list(self.hand),
            "leader": self.leader,
            "trick": [[seat, card] for seat, card in self.trick],
            "history": [[seat, card] for seat, card in self.history],
            "taken": [list(cards) for cards in self.taken],
        }
