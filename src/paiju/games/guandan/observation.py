"""What one GuanDan seat may see: its own hand, the levels, this round's public plays, who has finished, the
tribute and return cards once they change hands, and the public standing of the game — never another
seat's hand, nor a tribute or return card before every gift of its phase is chosen (``tribute``).

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, guandan).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from paiju.games.guandan.cards import card_name, level_name, unpack
from paiju.games.guandan.combos import Play
from paiju.games.guandan.rules import GuanDanRules

Gifted = tuple[int, int, int]
"""A card that changed hands: (giver, receiver, card index)."""


@lru_cache(maxsize=1 << 16)
def _frozen_form(action: Any) -> tuple[str, str, str | tuple[str, ...]]:
    kind, rank, cards = action.to_platform()
    return kind, rank, cards if isinstance(cards, str) else tuple(cards)


def platform_form(action: Any) -> list[Any]:
    """``action.to_platform()`` (a ``Play`` or a ``Gift``), from a cache: records and observations write the
    same plays over and over."""
    kind, rank, cards = _frozen_form(action)
    return [kind, rank, cards if isinstance(cards, str) else list(cards)]


@dataclass(frozen=True, slots=True)
class GuanDanObservation:
    """One seat's view of a GuanDan game, during the current round (after the game: the last round).

    ``hand`` is packed (``cards.pack``); ``level`` the level this round is played at; ``self_level`` /
    ``oppo_level`` the seat's team's and the other team's levels at the start of the round; ``history``
    this round's plays in order, passes included; ``greater`` the play to beat and its player (``None``
    when the seat to move leads); ``cards_left`` each seat's number of cards; ``finished`` the seats that
    emptied their hand this round, in order; ``tribute`` / ``back`` this round's tribute and return cards
    (empty until all of a phase's gifts are chosen); ``anti_tribute`` the payers whose two big jokers
    cancelled the tribute.

    Public fields beyond the protocol's ``obs``: ``to_move`` (the seat to act, ``None`` when the game is
    over); ``previous_order`` (the previous round's finishing order, four seats; ``()`` in the first round);
    ``a_failures`` and ``team_scores`` (per team — team 0 is seats 0 and 2 —: failed rounds at A, and the
    sum of round results so far).
    """

    seat: int
    phase: str
    hand: int
    level: int
    self_level: int
    oppo_level: int
    round_number: int
    history: tuple[tuple[int, Play], ...]
    greater: tuple[int, Play] | None
    cards_left: tuple[int, int, int, int]
    finished: tuple[int, ...]
    tribute: tuple[Gifted, ...]
    back: tuple[Gifted, ...]
    anti_tribute: tuple[int, ...]
    rules: GuanDanRules
    to_move: int | None
    previous_order: tuple[int, ...]
    a_failures: tuple[int, int]
    team_scores: tuple[int, int]

    @property
    def partner(self) -> int:
        """The partner's seat (opposite)."""
        return (self.seat + 2) % 4

    @property
    def hand_cards(self) -> list[int]:
        """The hand's card indices, in card order."""
        return unpack(self.hand)

    def to_json(self) -> dict[str, Any]:
        """The protocol's guandan ``obs``: levels as rank letters, plays in platform form."""
        greater = self.greater
        return {
            "hand": [card_name(card) for card in unpack(self.hand)],
            "level": level_name(self.level),
            "self_level": level_name(self.self_level),
            "oppo_level": level_name(self.oppo_level),
            "history": [[seat, platform_form(play)] for seat, play in self.history],
            "greater": None if greater is None else [greater[0], platform_form(greater[1])],
            "cards_left": list(self.cards_left),
            "finished": list(self.finished),
        }
