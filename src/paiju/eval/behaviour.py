"""Behaviour statistics of finished DouDizhu games, in the style of PerfectDou's Table 8 (appendix D.2).

Definitions, read from a final state's play history (bids are not counted; after a void deal only the
deal that was played counts):

- **turn**: one entry of the play history, a pass included; **play**: a turn that is not a pass.
- **trick**: starts with a lead — the first play of the deal, or the first play after two consecutive
  passes — and ends with two consecutive passes or with the play that ends the game. Its **winner** is
  the player of its last play.
- **landlord control**: the number of tricks the landlord wins, i.e. plays of the landlord that both
  peasants could not or would not beat (PerfectDou: "the number of rounds that the landlord plays an
  action suppressing all other players").
- **bombs** of a position (landlord, down, up): bombs and rockets that position played; **rockets**
  counts the rocket alone. **held bombs**: the most bombs the position's hand can hold at once when play
  starts (the landlord's hand including the public cards): a rank held four times, plus one for holding both
  jokers, and under 癞子 the wild bomb and the soft bombs its wild cards can complete, the fewest wild cards
  needed first; so a position never plays more bombs than it held. The share of held bombs played is our
  reading of PerfectDou's "% Bomb".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.games.doudizhu import Category, DouDizhuState
from paiju.games.doudizhu.cards import BIG_JOKER, SMALL_JOKER, TWO
from paiju.games.doudizhu.observation import POSITIONS


@dataclass(frozen=True, slots=True)
class GameBehaviour:
    """The counts of one finished game; per-position tuples are ordered landlord, down, up."""

    turns: int
    plays: int
    tricks: int
    landlord_control: int
    bombs: tuple[int, ...]
    rockets: tuple[int, ...]
    held_bombs: tuple[int, ...]

    @classmethod
    def of(cls, state: DouDizhuState) -> GameBehaviour:
        """Count the play history of the finished ``state`` (see the module docstring)."""
        if not state.is_terminal() or state.landlord is None:
            raise ValueError("behaviour statistics need a finished game")
        landlord = state.landlord
        bombs, rockets = [0, 0, 0], [0, 0, 0]
        tricks = control = passes = plays = 0
        last_player: int | None = None
        for seat, move in state.history:
            if move.is_pass:
                passes += 1
                if passes == 2 and last_player == landlord:
                    control += 1
                continue
            if last_player is None or passes == 2:
                tricks += 1
            plays += 1
            passes = 0
            last_player = seat
            position = (seat - landlord) % 3
            if move.is_bomb:
                bombs[position] += 1
            if move.category is Category.ROCKET:
                rockets[position] += 1
        if last_player == landlord:  # the game's last trick ends with the landlord's last play
            control += 1
        return cls(turns=len(state.history), plays=plays, tricks=tricks, landlord_control=control,
                   bombs=tuple(bombs), rockets=tuple(rockets), held_bombs=_held_bombs(state))


@dataclass(frozen=True, slots=True)
class PositionBehaviour:
    """Bomb statistics of one position over many games."""

    bombs_per_game: float
    rockets_per_game: float
    bomb_game_rate: float
    """Share of games in which the position played at least one bomb or rocket."""
    held_bombs_played: float | None
    """Bombs played / bombs held at the start of play, over all games (None when none were held)."""

    def to_json(self) -> dict[str, Any]:
        return {"bombs_per_game": self.bombs_per_game, "rockets_per_game": self.rockets_per_game,
                "bomb_game_rate": self.bomb_game_rate, "held_bombs_played": self.held_bombs_played}


@dataclass(frozen=True, slots=True)
class BehaviourSummary:
    """Means per game over a set of games (PerfectDou Table 8 columns, defined in the module docstring)."""

    games: int
    turns: float
    plays: float
    tricks: float
    landlord_control: float
    positions: dict[str, PositionBehaviour]
    """Keyed by ``landlord``, ``down``, ``up``."""

    @classmethod
    def of(cls, games: Sequence[GameBehaviour]) -> BehaviourSummary:
        if not games:
            raise ValueError("a behaviour summary needs at least one game")
        n = len(games)
        positions = {}
        for index, position in enumerate(POSITIONS):
            played = sum(g.bombs[index] for g in games)
            held = sum(g.held_bombs[index] for g in games)
            positions[position] = PositionBehaviour(
                bombs_per_game=played / n,
                rockets_per_game=sum(g.rockets[index] for g in games) / n,
                bomb_game_rate=sum(1 for g in games if g.bombs[index]) / n,
                held_bombs_played=played / held if held else None)
        return cls(games=n, turns=sum(g.turns for g in games) / n, plays=sum(g.plays for g in games) / n,
                   tricks=sum(g.tricks for g in games) / n,
                   landlord_control=sum(g.landlord_control for g in games) / n, positions=positions)

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "turns": self.turns, "plays": self.plays, "tricks": self.tricks,
                "landlord_control": self.landlord_control,
                "positions": {name: p.to_json() for name, p in self.positions.items()}}


def _held_bombs(state: DouDizhuState) -> tuple[int, ...]:
    deal = state.deals[-1]
    landlord = state.landlord
    assert landlord is not None
    held = []
    for position in range(3):
        seat = (landlord + position) % 3
        hand = deal.hands[seat]
        if seat == landlord:
            hand = tuple(a + b for a, b in zip(hand, deal.public, strict=True))
        held.append(_most_bombs(hand, deal.wild) + (1 if hand[SMALL_JOKER] and hand[BIG_JOKER] else 0))
    return tuple(held)


def _most_bombs(hand: Sequence[int], wild: Sequence[int]) -> int:
    """The most four-card bombs ``hand`` holds at once: hard bombs, and with ``wild`` ranks (癞子) wild bombs and
    soft bombs (a natural rank topped up to four by wild cards), each way of keeping wild bombs tried."""
    natural = [hand[rank] for rank in range(TWO + 1) if rank not in wild]
    shortfalls = sorted(4 - count for count in natural if 0 < count < 4)
    wild_cards = sum(hand[rank] for rank in wild)
    best = 0
    for kept in range(sum(1 for rank in wild if hand[rank] == 4) + 1):
        spare, soft = wild_cards - 4 * kept, 0
        for shortfall in shortfalls:
            if shortfall > spare:
                break
            spare, soft = spare - shortfall, soft + 1
        best = max(best, kept + soft)
    return natural.count(4) + best
