"""A perfect-information DouDizhu endgame position: every hand visible, as the exact solver (``solver``) reads it.

A position is the three hands, the landlord's seat, the seat to move, and the play to beat with the seat that
made it (none when the seat to move leads). Seats play 0, 1, 2 in turn as in ``state``; the peasants are
named by where they sit from the landlord (``observation.POSITIONS``): ``down`` plays right after the
landlord, ``up`` right before. Who passed since the play to beat follows from who made it: if the seat before
the mover made it, nobody passed; if the seat two before, one seat passed. After two passes the maker leads,
so the play to beat is never the mover's own.

Build one from a game in play (``position_from_state``: a dealt game, or a sampled world of a search) or from
card text (``position_from_text``, which the ``paiju solve doudizhu`` command uses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from paiju.core.errors import CardError, PaijuError
from paiju.games.doudizhu.cards import MAX_COPIES, NUM_RANKS, RANKS, format_cards, parse_cards
from paiju.games.doudizhu.moves import Move, parse_move
from paiju.games.doudizhu.observation import POSITIONS, position_of
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.state import DouDizhuState

Hands = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class PositionError(PaijuError, ValueError):
    """A position that cannot arise in DouDizhu: a game already over, a play to beat by the seat to move, ..."""


@dataclass(frozen=True, slots=True)
class Position:
    """Three visible hands (15 rank counts each, by seat), the landlord, the seat to move, and the play to
    beat (``follow``, by ``follow_seat``; both None when the seat to move leads)."""

    hands: Hands
    landlord: int
    to_move: int
    follow: Move | None = None
    follow_seat: int | None = None
    rules: DouDizhuRules = field(default_factory=DouDizhuRules)

    def __post_init__(self) -> None:
        _check_seat("landlord", self.landlord)
        _check_seat("to_move", self.to_move)
        if len(self.hands) != 3 or any(len(hand) != NUM_RANKS or min(hand) < 0 for hand in self.hands):
            raise PositionError(f"a position has three hands of {NUM_RANKS} rank counts, got {self.hands!r}")
        for seat, hand in enumerate(self.hands):
            if not any(hand):
                raise PositionError(f"{self.player(seat)}'s hand is empty: the game is already over")
        self._check_follow()
        self._check_deck()

    def role(self, seat: int) -> str:
        """``landlord``, ``down`` or ``up``."""
        return position_of(seat, self.landlord)  # type: ignore[return-value]

    def player(self, seat: int) -> str:
        """The seat as players say it: ``the landlord``, ``the down peasant``, ``the up peasant``."""
        role = self.role(seat)
        return "the landlord" if role == "landlord" else f"the {role} peasant"

    def seat_of(self, role: str) -> int:
        """The seat of ``landlord``, ``down`` or ``up``."""
        if role not in POSITIONS:
            raise PositionError(f"unknown player {role!r}; use one of {', '.join(POSITIONS)}")
        return (self.landlord + POSITIONS.index(role)) % 3

    @property
    def total_cards(self) -> int:
        return sum(sum(hand) for hand in self.hands)

    def __str__(self) -> str:
        hands = ", ".join(f"{role} {format_cards(self.hands[self.seat_of(role)])}" for role in POSITIONS)
        mover = self.player(self.to_move)
        if self.follow is None or self.follow_seat is None:
            return f"{hands}; {mover} to lead"
        return (f"{hands}; {mover} to beat {self.follow.cards} ({self.follow.category.label}) "
                f"played by {self.player(self.follow_seat)}")

    def _check_follow(self) -> None:
        if (self.follow is None) != (self.follow_seat is None):
            raise PositionError("give both the play to beat and who made it, or neither (the seat to move leads)")
        if self.follow is None or self.follow_seat is None:
            return
        _check_seat("follow_seat", self.follow_seat)
        if self.follow.is_pass:
            raise PositionError("the play to beat cannot be a pass; leave it out and the seat to move leads")
        if self.follow_seat == self.to_move:
            raise PositionError(f"the play to beat was made by {self.player(self.to_move)}, who is to move: after "
                                "two passes that player leads, so leave the play to beat out")

    def _check_deck(self) -> None:
        """Hands and the play to beat (already played) hold no more of a rank than one deck."""
        follow = self.follow.counts if self.follow is not None else (0,) * NUM_RANKS
        for rank in range(NUM_RANKS):
            held = sum(hand[rank] for hand in self.hands) + follow[rank]
            if held > MAX_COPIES[rank]:
                holders = [f"{self.role(s)} {format_cards(h)}" for s, h in enumerate(self.hands) if h[rank]]
                if follow[rank]:
                    holders.append(f"the play to beat {self.follow.cards}")  # type: ignore[union-attr]
                raise CardError(f"{held} cards of rank {RANKS[rank]} ({', '.join(holders)}); "
                                f"a deck has {MAX_COPIES[rank]}")


def position_from_state(state: DouDizhuState) -> Position:
    """The position of a game in its play phase, every hand visible (a dealt game or a sampled world)."""
    if state.phase != "play" or state.landlord is None or state.current_player is None:
        raise PositionError(f"only a game in its play phase has an endgame position; this one is in {state.phase!r}")
    follow = state.follow
    follow_seat = None
    if follow is not None:
        follow_seat = next(seat for seat, move in reversed(state.history) if not move.is_pass)
    hands = tuple(tuple(hand) for hand in state.hands)
    return Position(hands, state.landlord, state.current_player, follow, follow_seat,  # type: ignore[arg-type]
                    state.rules)


def position_from_text(landlord: str, down: str, up: str, to_move: str, last: str | None = None,
                       last_by: str | None = None, rules: DouDizhuRules | None = None) -> Position:
    """A position from card text (``"33KA2"``) per player; ``to_move`` and ``last_by`` name players (``landlord``,
    ``down``, ``up``). The landlord sits at seat 0. ``last`` is the play to beat, read as it would be led
    (``moves.parse_move``: a multiset with several readings takes the canonical one); leave it out to lead.
    """
    rules = rules or DouDizhuRules()
    hands = tuple(tuple(_hand(role, text)) for role, text in zip(POSITIONS, (landlord, down, up), strict=True))
    mover = _seat_named("the player to move (to_move)", to_move)
    if (last is None) != (last_by is None):
        raise PositionError("give both the play to beat (last) and who made it (last_by), or neither to lead")
    follow = follow_seat = None
    if last is not None and last_by is not None:
        if last.strip().lower() in ("", "pass"):
            raise PositionError("the play to beat (last) must be cards, not a pass; leave it out to lead")
        try:
            follow = parse_move(last, rules)
        except PaijuError as error:
            raise type(error)(f"play to beat (last): {error}") from None
        follow_seat = _seat_named("the maker of the play to beat (last_by)", last_by)
    return Position(hands, 0, mover, follow, follow_seat, rules)  # type: ignore[arg-type]


def _hand(role: str, text: str) -> list[int]:
    try:
        return parse_cards(text.strip())
    except CardError as error:
        raise CardError(f"{role}'s hand: {error}") from None


def _seat_named(what: str, role: str) -> int:
    """The seat of a player named in text, with the landlord at seat 0."""
    if role.strip().lower() not in POSITIONS:
        raise PositionError(f"{what} must be {', '.join(POSITIONS[:-1])} or {POSITIONS[-1]}, got {role!r}")
    return POSITIONS.index(role.strip().lower())


def _check_seat(what: str, seat: int) -> None:
    if isinstance(seat, bool) or seat not in (0, 1, 2):
        raise PositionError(f"{what} must be a seat 0-2, got {seat!r}")
