"""What one DouDizhu seat may see: its own hand, the bids, the public cards once a landlord is known,
every play so far, and how many cards each seat holds — never another seat's hand.

``to_json`` gives the external protocol's ``obs`` object (``shared/specs/protocol.md``, doudizhu); ``from_json``
reads it back, exactly: what the JSON leaves out (the play to beat, the first bidder) follows from the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.core.errors import IllegalActionError, PaijuError
from paiju.core.obs_json import ObsReader, check_decision, entries, integer, optional, pair, seat_reader
from paiju.games.doudizhu.cards import format_cards, parse_cards
from paiju.games.doudizhu.moves import Move, parse_move
from paiju.games.doudizhu.rules import DouDizhuRules

POSITIONS = ("landlord", "down", "up")
BID_PHASE, PLAY_PHASE = "bid", "play"
PHASES = (BID_PHASE, PLAY_PHASE, "over")


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
    voided: int = 0
    """Deals passed by all so far, under a ``DouDizhuRules.redeal_limit`` (where it matters; 0 and absent from the
    JSON otherwise, so the protocol's obs of the classic rules are unchanged)."""
    wild: tuple[int, ...] = ()
    """The wild ranks (癞子, once there is a landlord; JSON ``"wild"``, rank letters, only under 癞子 rules)."""

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

    def to_json(self, bids: list[Any] | None = None, history: list[Any] | None = None) -> dict[str, Any]:
        """The protocol's doudizhu ``obs``; ``bids`` and ``history``: this observation's in that form already, or in
        tuples (``DouDizhuState.observation_json``)."""
        return {
            "hand": format_cards(self.hand),
            "position": self.position,
            "landlord": self.landlord,
            "public": None if self.public is None else format_cards(self.public),
            "bids": [[seat, bid] for seat, bid in self.bids] if bids is None else bids,
            "history": [[seat, move.notation] for seat, move in self.history] if history is None else history,
            "cards_left": list(self.cards_left),
            "multiplier": self.multiplier,
        } | ({"voided": self.voided} if self.rules.redeal_limit is not None else {}) | (
            {"wild": format_cards([int(r in self.wild) for r in range(15)])} if self.rules.laizi else {})

    def action_from_json(self, value: Any) -> int | Move:
        """The bid or play ``value`` names (``read_action``)."""
        return read_action(value, self.phase, self.rules, self.follow, self.wild)

    @classmethod
    def from_json(cls, obs: Any, seat: int, phase: str, rules: DouDizhuRules) -> DouDizhuObservation:
        """The observation ``obs`` (``to_json``'s form) of ``seat`` in ``phase`` under ``rules``.

        ``follow`` and ``follow_seat`` come from replaying ``history``, each play read as the state read it
        (``parse_move`` against the play it had to beat). The first bidder is the first seat in ``bids``; with
        no bids, the landlord (research mode), or else ``seat`` (bidding has not begun: the seat to act bids
        first). Raises ``PaijuError`` naming the first bad field.
        """
        check_decision("doudizhu", seat, phase, 3, PHASES)
        reader = ObsReader("doudizhu", obs)
        seat_of = seat_reader(3)
        hand = reader.field("hand", _cards)
        landlord = reader.field("landlord", optional(seat_of))
        public = reader.field("public", optional(_cards))
        wild = reader.field("wild", lambda value: _wild(value, rules)) if rules.laizi else ()
        if rules.laizi and bool(wild) != (landlord is not None):
            raise reader.error("wild", f"the {rules.wild_ranks} wild rank(s) are shown exactly when there is a "
                                       f"landlord")
        bids = reader.field("bids", lambda value: entries(value, lambda bid: pair(bid, seat_of, _bid)))
        history, follow, follow_seat = reader.field("history", lambda value: _replay(value, rules, wild))
        cards_left = reader.field("cards_left", lambda value: entries(value, integer, 3))
        multiplier = reader.field("multiplier", lambda value: integer(value, 1))
        voided = reader.field("voided", integer) if "voided" in obs else 0
        if reader.field("position", lambda value: value) != position_of(seat, landlord):
            raise reader.error("position", f"seat {seat} is the {position_of(seat, landlord)} player when the "
                                           f"landlord is {landlord}, got {obs['position']!r}")
        if (public is None) != (landlord is None):
            raise reader.error("public", "the public cards are shown exactly when there is a landlord")
        if cards_left[seat] != sum(hand):
            raise reader.error("cards_left", f"seat {seat} holds {sum(hand)} cards, not {cards_left[seat]}")
        first_bidder = bids[0][0] if bids else seat if landlord is None else landlord
        return cls(seat=seat, phase=phase, hand=hand, landlord=landlord, public=public, first_bidder=first_bidder,
                   bids=bids, history=history, cards_left=cards_left, multiplier=multiplier,  # type: ignore[arg-type]
                   follow=follow, follow_seat=follow_seat, rules=rules, voided=voided, wild=wild)


def read_action(value: Any, phase: str, rules: DouDizhuRules, follow: Move | None,
                wild: tuple[int, ...] = ()) -> int | Move:
    """The action ``value`` names in ``phase``: a bid (an integer), or a play (``read_play``). Raises
    ``IllegalActionError``."""
    if phase == BID_PHASE:
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalActionError(f"a bid is an integer 0-3, got {value!r}")
        return value
    if phase != PLAY_PHASE:
        raise IllegalActionError(f"nobody acts in phase {phase!r}")
    return read_play(value, rules, follow, wild)


def read_play(value: Any, rules: DouDizhuRules, follow: Move | None, wild: tuple[int, ...] = ()) -> Move:
    """The play written ``value`` (rank letters, ``""`` for pass; 癞子: ``cards=stands for``), read against
    ``follow``, the play to beat (``parse_move``). Raises ``IllegalActionError``."""
    if not isinstance(value, str):
        raise IllegalActionError(f"a play is a string of rank letters ('' for pass), got {value!r}")
    try:
        return parse_move(value, rules, follow, wild)
    except ValueError as error:
        raise IllegalActionError(str(error)) from None


def _cards(value: Any) -> tuple[int, ...]:
    return tuple(parse_cards(value))


def _wild(value: Any, rules: DouDizhuRules) -> tuple[int, ...]:
    """Wild ranks written as rank letters (``""`` before there is a landlord)."""
    counts = parse_cards(value)
    if any(n > 1 for n in counts) or any(counts[13:]) or sum(counts) not in (0, rules.wild_ranks):
        raise ValueError(f"{rules.wild_ranks} distinct ranks 3..2 (or \"\" before there is a landlord), got {value!r}")
    return tuple(r for r, n in enumerate(counts) if n)


def _bid(value: Any) -> int:
    return integer(value, 0, 3)


def _replay(value: Any, rules: DouDizhuRules,
            wild: tuple[int, ...]) -> tuple[tuple[tuple[int, Move], ...], Move | None, int | None]:
    """The plays of a ``history`` field, each read against the play it had to beat, with the play to beat after
    them and its player (None when the next seat leads: nobody has played, or both others passed)."""
    history = []
    follow: Move | None = None
    follow_seat: int | None = None
    passes = 0
    for index, (seat, text) in enumerate(entries(value, lambda play: pair(play, seat_reader(3), lambda x: x))):
        try:
            move = read_play(text, rules, follow, wild)
        except PaijuError as error:
            raise ValueError(f"entry {index}: {error}") from None
        if not move.is_pass:
            passes, follow, follow_seat = 0, move, seat
        elif follow is None:
            raise ValueError(f"entry {index}: seat {seat} passes while leading")
        else:
            passes += 1
            if passes == 2:  # both others passed: the last player leads anew
                follow, follow_seat = None, None
        history.append((seat, move))
    return tuple(history), follow, follow_seat
