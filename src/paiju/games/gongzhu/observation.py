"""What one Gongzhu seat may see: its own hand, every card played so far (in order, by whom), the trick in
progress, and the scoring cards each seat has collected — never another seat's hand.

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, gongzhu); ``from_json``
reads it back exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.core.errors import CardError, IllegalActionError
from paiju.core.obs_json import ObsReader, check_decision, entries, pair, seat_reader
from paiju.games.gongzhu.cards import CARD_INDEX, FULL_MASK, cards_of, parse_card, sort_cards
from paiju.games.gongzhu.rules import GongzhuRules

Play = tuple[int, str]
"""One card played: (seat, card name)."""
PHASES = ("play", "over")


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

    def to_json(self, trick: list[Any] | None = None, history: list[Any] | None = None) -> dict[str, Any]:
        """The protocol's gongzhu ``obs``; ``trick`` and ``history``: this observation's in that form already, or in
        tuples (``GongzhuState.observation_json``)."""
        return {
            "hand": list(self.hand),
            "leader": self.leader,
            "trick": [[seat, card] for seat, card in self.trick] if trick is None else trick,
            "history": [[seat, card] for seat, card in self.history] if history is None else history,
            "taken": [list(cards) for cards in self.taken],
        }

    def action_from_json(self, value: Any) -> str:
        """The card ``value`` names (``read_action``)."""
        return read_action(value)

    @classmethod
    def from_json(cls, obs: Any, seat: int, phase: str, rules: GongzhuRules) -> GongzhuObservation:
        """The observation ``obs`` (``to_json``'s form) of ``seat`` in ``phase`` under ``rules``; raises
        ``PaijuError`` naming the first bad field."""
        check_decision("gongzhu", seat, phase, 4, PHASES)
        reader = ObsReader("gongzhu", obs)

        def plays(value: Any) -> tuple[Play, ...]:
            return entries(value, lambda play: pair(play, seat_reader(4), parse_card))

        trick = reader.field("trick", plays)
        history = reader.field("history", plays)
        if len(trick) > 3:
            raise reader.error("trick", f"a trick in progress holds at most 3 cards, got {len(trick)}")
        if len(history) % 4:
            raise reader.error("history", f"completed tricks hold 4 cards each, got {len(history)} cards")
        return cls(seat=seat, phase=phase, hand=reader.field("hand", _cards),
                   leader=reader.field("leader", seat_reader(4)), trick=trick, history=history,
                   taken=reader.field("taken", lambda value: entries(value, _cards, 4)), rules=rules)


def read_action(value: Any) -> str:
    """The card named ``value`` (``parse_card``; case is ignored). Raises ``IllegalActionError``."""
    try:
        return parse_card(value)
    except CardError as error:
        raise IllegalActionError(str(error)) from None


def _cards(value: Any) -> tuple[str, ...]:
    """A list of distinct card names, in card order."""
    cards = entries(value, parse_card)
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears twice in {value!r:.80}")
    return sort_cards(cards)
