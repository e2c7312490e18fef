"""What one DouDizhu seat may see: its own hand, the bids, the public cards once a landlord is known,
every play so far, and how many cards each seat holds — never another seat's hand.

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, doudizhu).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.games.doudizhu.cards import format_cards
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.rules import DouDizhuRules

POSITIONS = ("landlord", "down", "up")


def position_of(seat: int, landlord: int | None) -> str | None:
    """``landlord``, ``down`` (plays right after the landlord) or ``up`` (right before); None while bidding."""
    if landlord is None:
        return None
    return POSITIONS[(seat - landlord) % 3]


@dataclass(frozen=True, slots=True)
class DouDizhuObservation:
    """One seat's view. ``follow`` is the play to beat (None when this seat leads)."""

    seat: int
    phase: str
    hand: tuple[int, ...]
    landlord: int | None
    public: tuple[int, ...] | None
    first_bidder: int
    bids: tuple[tuple[int, int], ...]
    history: tuple[tuple[int, Move], ...]
    cards_left: tuple[int, int, int]
    multiplier: int
    follow: Move | None
    follow_seat: int | None
    rules: DouDizhuRules

    @property
    def position(self) -> str | None:
        return position_of(self.seat, self.landlord)

    def played_by(self, seat: int) -> list[int]:
        """Counts of the cards ``seat`` has played so far."""
        counts = [0] * 15
        for player, move in self.history:
            if player == seat:
                for rank, n in enumerate(move.counts):
                    counts[rank] += n
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": format_cards(self.hand),
            "position": self.position,
            "landlord": self.landlord,
            "public": None if self.public is None else format_cards(self.public),
            "bids": [[seat, bid] for seat, bid in self.bids],
            "history": [[seat, move.cards] for seat, move in self.history],
            "cards_left": list(self.cards_left),
            "multiplier": self.multiplier,
        }
