"""What one GuanDan seat may see: its own hand, the levels, this round's public plays, who has finished, the
tribute and return cards once they change hands, and the public standing of the game — never another
seat's hand, nor a tribute or return card before every gift of its phase is chosen (``tribute``).

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, guandan); ``from_json``
reads it back whole but for the standing's ``a_failures`` and ``team_scores``, which the protocol leaves out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from paiju.core.errors import CardError, IllegalActionError
from paiju.core.obs_json import ObsReader, check_decision, entries, integer, optional, pair, seat_reader
from paiju.games.guandan.cards import card_name, level_name, pack, parse_card, parse_cards, parse_level, unpack
from paiju.games.guandan.combos import Play, play_from_platform
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.tribute import BACK, TRIBUTE, Gift

PHASES = ("tribute", "back", "play", "over")

Gifted = tuple[int, int, int]
"""A card that changed hands: (giver, receiver, card index)."""


@lru_cache(maxsize=1 << 16)
def frozen_form(action: Any) -> tuple[str, str, str | tuple[str, ...]]:
    """``action.to_platform()`` (a ``Play`` or a ``Gift``) as tuples, which JSON writes as the same arrays; cached,
    immutable, so shared freely."""
    kind, rank, cards = action.to_platform()
    return kind, rank, cards if isinstance(cards, str) else tuple(cards)


def platform_form(action: Any) -> list[Any]:
    """``action.to_platform()`` (a ``Play`` or a ``Gift``), from a cache: records and observations write the
    same plays over and over."""
    kind, rank, cards = frozen_form(action)
    return [kind, rank, cards if isinstance(cards, str) else list(cards)]


@dataclass(frozen=True, slots=True)
class GuanDanObservation:
    """One seat's view of a GuanDan game, during the current round (after the game: the last round).

    ``hand`` is packed (``cards.pack``); ``level`` the level this round is played at; ``self_level`` /
    ``oppo_level`` the seat's team's and the other team's levels at the start of the round; ``round_number``
    the round (from 0); ``history`` this round's plays in order, passes included; ``greater`` the play to
    beat and its player (``None`` when the seat to move leads); ``cards_left`` each seat's number of cards;
    ``finished`` the seats that emptied their hand this round, in order; ``tribute`` / ``back`` this round's
    tribute and return cards (empty until all of a phase's gifts are chosen: a sealed gift is in no
    observation, its giver's included); ``anti_tribute`` the payers whose two big jokers cancelled the
    tribute; ``previous_order`` the previous round's finishing order (four seats; ``()`` in the first round).

    Public fields beyond the protocol's ``obs``: ``to_move`` (the seat to act, ``None`` when the game is
    over); ``a_failures`` and ``team_scores`` (per team — team 0 is seats 0 and 2 —: failed rounds at A, and
    the sum of round results so far).
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

    def to_json(self, history: list[Any] | None = None) -> dict[str, Any]:
        """The protocol's guandan ``obs``: levels as rank letters, plays in platform form, gifts as the platform
        announces them (``[giver, receiver, card name]``); ``previous_order`` is ``null`` in the first round
        and ``anti_tribute`` ``null`` when no anti-tribute cancelled this round's tribute. ``history``: this
        observation's history in that form already, or in tuples (``GuanDanState.observation_json``)."""
        greater = self.greater
        return {
            "hand": [card_name(card) for card in unpack(self.hand)],
            "level": level_name(self.level),
            "self_level": level_name(self.self_level),
            "oppo_level": level_name(self.oppo_level),
            "history": [[seat, platform_form(play)] for seat, play in self.history] if history is None else history,
            "greater": None if greater is None else [greater[0], platform_form(greater[1])],
            "cards_left": list(self.cards_left),
            "finished": list(self.finished),
            "round": self.round_number,
            "previous_order": list(self.previous_order) or None,
            "tribute": [[giver, receiver, card_name(card)] for giver, receiver, card in self.tribute],
            "back": [[giver, receiver, card_name(card)] for giver, receiver, card in self.back],
            "anti_tribute": list(self.anti_tribute) or None,
        }

    def action_from_json(self, value: Any) -> Play | Gift:
        """The play or gift ``value`` names (``read_action``)."""
        return read_action(value, self.level)

    @classmethod
    def from_json(cls, obs: Any, seat: int, phase: str, rules: GuanDanRules) -> GuanDanObservation:
        """The observation ``obs`` (``to_json``'s form) of ``seat`` in ``phase`` under ``rules``; plays are read at
        the round's level.

        The protocol leaves out the standing's ``a_failures`` and ``team_scores``: read back, they are
        ``(0, 0)``, and ``to_move`` is ``seat`` (``None`` once the game is over). Raises ``PaijuError`` naming the
        first bad field.
        """
        check_decision("guandan", seat, phase, 4, PHASES)
        reader = ObsReader("guandan", obs)
        seat_of = seat_reader(4)
        hand = reader.field("hand", _cards)
        level = reader.field("level", parse_level)

        def play(value: Any) -> tuple[int, Play]:
            return pair(value, seat_of, lambda form: play_from_platform(form, None, level))

        def gifts(value: Any) -> tuple[Gifted, ...]:
            return entries(value, lambda gift: _gifted(gift, seat_of))

        def seats(value: Any) -> tuple[int, ...]:
            return () if value is None else entries(value, seat_of)

        cards_left = reader.field("cards_left", lambda value: entries(value, integer, 4))
        if cards_left[seat] != len(hand):
            raise reader.error("cards_left", f"seat {seat} holds {len(hand)} cards, not {cards_left[seat]}")
        return cls(seat=seat, phase=phase, hand=pack(hand), level=level,
                   self_level=reader.field("self_level", parse_level),
                   oppo_level=reader.field("oppo_level", parse_level), round_number=reader.field("round", integer),
                   history=reader.field("history", lambda value: entries(value, play)),
                   greater=reader.field("greater", optional(play)), cards_left=cards_left,  # type: ignore[arg-type]
                   finished=reader.field("finished", lambda value: entries(value, seat_of)),
                   tribute=reader.field("tribute", gifts), back=reader.field("back", gifts),
                   anti_tribute=reader.field("anti_tribute", seats),
                   rules=rules, to_move=None if phase == "over" else seat,
                   previous_order=reader.field("previous_order", _order), a_failures=(0, 0), team_scores=(0, 0))


def read_action(value: Any, level: int) -> Play | Gift:
    """The action written ``value`` in platform form: a gift ``["tribute", "tribute", [card]]`` /
    ``["back", "back", [card]]``, or a play ``[type, rank, cards]`` read at ``level`` (whether it is legal is
    not checked). Raises ``IllegalActionError``."""
    if isinstance(value, list | tuple) and value and value[0] in (TRIBUTE, BACK):
        return Gift.from_platform(value)
    try:
        return play_from_platform(value, None, level)
    except CardError as error:
        raise IllegalActionError(str(error)) from None


def _gifted(value: Any, seat_of: Callable[[Any], int]) -> Gifted:
    """A gift as the platform announces it: ``[giver, receiver, card name]``."""
    if not isinstance(value, list) or len(value) != 3:
        raise ValueError(f"expected [giver, receiver, card], got {value!r:.80}")
    giver, receiver = seat_of(value[0]), seat_of(value[1])
    if giver == receiver:
        raise ValueError(f"seat {giver} cannot give a card to itself")
    return giver, receiver, parse_card(value[2])


def _order(value: Any) -> tuple[int, ...]:
    """A finishing order, the four seats once each, or ``null`` (the first round: ``()``)."""
    if value is None:
        return ()
    order = entries(value, seat_reader(4), 4)
    if sorted(order) != [0, 1, 2, 3]:
        raise ValueError(f"expected the four seats once each, got {value!r:.80}")
    return order


def _cards(value: Any) -> list[int]:
    """A hand: a list of card names."""
    if not isinstance(value, list):
        raise ValueError(f"expected a list of card names, got {value!r:.80}")
    return parse_cards(value)
