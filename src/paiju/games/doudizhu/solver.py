"""An exact DouDizhu endgame solver for perfect information: who wins with best play, and a winning play.

The game is won by the first player to empty their hand; the two peasants are one side, so they win when
either of them goes out first. With every hand visible this is a finite two-sided game of perfect information,
and ``solve`` decides it: the side of the seat to move wins iff some legal play wins — a play that empties the
mover's hand, or one after which the next seat's side wins (next seat a partner) or loses (next seat an
opponent). The value is win/loss only; the score's doublings (a bomb or the rocket doubles it) are not
optimised, so a winning play may be a bomb where a quieter play also wins.

Method — depth-first proof-number search (df-pn: Nagai 2002, with the 1 + ε threshold of Pawlewicz & Lew
2007) over this AND/OR tree, negamax style: each position holds a *win cost* and a *loss cost*, estimates of
how many positions it takes to prove that the side to move wins or loses (0 once proven; ``INFINITE`` for the
impossible). A position's win cost is the least over its plays of the cost of proving that play wins, and its
loss cost the sum over its plays of the cost of proving it loses; each play's costs are its child's, swapped
when the child's mover is an opponent. The search always descends into the play that looks cheapest to prove
a win, within thresholds that send it back up once a sibling looks cheaper.

- **moves** come from the engine's generator (``movegen.legal_moves``), so the rules are exactly the game's:
  passing when following, bombs, the rocket, the ruleset's options;
- **transposition table**: the costs of every position searched, keyed by the hands (packed, ``cards.pack``),
  the seat to move and the play to beat with its maker. No position repeats within a game (every three plays
  at least one card leaves a hand), so a proven value never depends on the path to it;
- **quick wins**: a play that empties the hand proves a position at once; leading, so does a hand whose
  minimum-steps decomposition (``min_steps.decompose``) has at most one play an opponent can beat (the mover
  plays the unbeatable plays, then the last; the partner passes throughout);
- **move ordering** by minimum steps (``min_steps``, PerfectDou appendix E.1): a position not yet searched
  starts with a win cost of the square of its side's fewest steps to go out (the peasants': the fewer of the
  two) and a loss cost of the square of the other side's, so the plays that leave the mover's side the fewest
  steps are tried first;
- **a limit** on positions expanded and on seconds: past it the answer is "unknown", never a guess. The
  costs in the table are proofs or estimates, never wrong claims, so nothing found before the limit is wrong.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from paiju.games.doudizhu.cards import NUM_RANKS, pack, unpack
from paiju.games.doudizhu.min_steps import decompose, min_steps
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import PASS, Move
from paiju.games.doudizhu.solver_position import Position

Side = Literal["landlord", "peasants"]

DEFAULT_NODE_LIMIT = 1_000_000
"""Positions expanded before ``solve`` answers unknown (about 10-20 seconds of one CPU core)."""
INFINITE = 1 << 60
"""The cost of proving what is false."""
EPSILON = 0.25
"""df-pn's 1 + ε: a play is searched until its win cost exceeds the next best's by a quarter."""
_CLOCK_EVERY = 1024
"""Positions expanded between two readings of the clock."""

_Key = tuple[int, int, int, int, Move | None, int | None]
"""A search position: the three packed hands by seat, the seat to move, the play to beat and its maker."""
_Costs = tuple[int, int]
"""(win cost, loss cost) of a position for the side to move."""
_PROVEN_WIN: _Costs = (0, INFINITE)
_PROVEN_LOSS: _Costs = (INFINITE, 0)


@dataclass(frozen=True, slots=True)
class Solution:
    """The outcome of ``solve``: who wins with best play (None: unknown within the limit), and a winning play
    for the side to move when that side wins."""

    winner: Side | None
    """``landlord`` or ``peasants``; None when the limit stopped the search first."""
    mover_side: Side
    """The side of the seat to move."""
    move: Move | None
    """A winning play (possibly a pass) when the side to move wins; otherwise None."""
    nodes: int
    """Positions expanded (a position the search comes back to counts again)."""
    seconds: float
    """Wall-clock time of the search."""

    @property
    def solved(self) -> bool:
        return self.winner is not None

    @property
    def mover_wins(self) -> bool | None:
        """Whether the side to move wins; None when unknown."""
        return None if self.winner is None else self.winner == self.mover_side

    def __str__(self) -> str:
        searched = f"{self.nodes} nodes, {self.seconds:.3f} s"
        if self.winner is None:
            return f"unknown: not solved within the limit ({searched})"
        verdict = "the landlord wins" if self.winner == "landlord" else "the peasants win"
        if self.move is None:
            loser = "the landlord, to move, loses" if self.mover_side == "landlord" else "the peasants, to move, lose"
            return f"{verdict} with best play; {loser} ({searched})"
        play = "pass" if self.move.is_pass else f"{self.move.cards} ({self.move.category.label})"
        return f"{verdict} with best play; winning move: {play} ({searched})"


class _LimitReached(Exception):
    """The node or time limit ran out before the root was proven."""


def solve(position: Position, limit: int | None = DEFAULT_NODE_LIMIT, seconds: float | None = None) -> Solution:
    """Decide ``position`` with best play on both sides, within ``limit`` expanded positions and ``seconds``
    (None: no bound); past either, the winner is unknown (None)."""
    search = _Search(position, limit, seconds)
    mover = search.side(position.to_move)
    start = time.perf_counter()
    try:
        move = search.winning_move()
    except _LimitReached:
        return Solution(None, mover, None, search.nodes, time.perf_counter() - start)
    other: Side = "peasants" if mover == "landlord" else "landlord"
    return Solution(mover if move is not None else other, mover, move, search.nodes, time.perf_counter() - start)


@dataclass(frozen=True, slots=True)
class _Expansion:
    """A position's plays: one that wins at once (``finish``), or every play with the position after it."""

    finish: Move | None
    children: list[tuple[Move, _Key]]
    partner_next: bool
    """Whether the next seat is on the mover's side (a child's costs then count as they are, else swapped)."""


class _Search:
    """One solve: the position's landlord and rules, the transposition table, memoised hand facts, budgets."""

    def __init__(self, position: Position, limit: int | None, seconds: float | None) -> None:
        self.rules = position.rules
        self.landlord = position.landlord
        hands = tuple(pack(hand) for hand in position.hands)
        self.root: _Key = (*hands, position.to_move, position.follow, position.follow_seat)  # type: ignore[assignment]
        self.table: dict[_Key, _Costs] = {}
        self.steps: dict[int, int] = {}
        self.plans: dict[int, list[Move]] = {}
        self.nodes = 0
        self.limit = limit
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    def side(self, seat: int) -> Side:
        return "landlord" if seat == self.landlord else "peasants"

    def winning_move(self) -> Move | None:
        """Prove the root; then a play that wins for the side to move, or None if it loses."""
        self._search(self.root, INFINITE, INFINITE)
        if self.table[self.root] != _PROVEN_WIN:
            return None
        expansion = self._expand(self.root)
        if expansion.finish is not None:
            return expansion.finish
        proven_win = _PROVEN_WIN if expansion.partner_next else _PROVEN_LOSS
        return next(move for move, child in expansion.children if self.table.get(child) == proven_win)

    def _search(self, key: _Key, win_threshold: int, loss_threshold: int) -> None:
        """df-pn's MID: search ``key`` until it is proven or its win cost reaches ``win_threshold`` or its loss
        cost ``loss_threshold``, and store its costs. Unproven costs stay below ``INFINITE``."""
        self._count()
        expansion = self._expand(key)
        table = self.table
        if expansion.finish is not None:
            table[key] = _PROVEN_WIN
            return
        partner_next = expansion.partner_next
        estimates: dict[_Key, _Costs] = {}
        while True:
            best_win = second_win = INFINITE
            best_loss = loss = 0
            best = key
            for _, child in expansion.children:
                costs = table.get(child) or estimates.get(child)
                if costs is None:
                    costs = estimates[child] = self._estimate(child)
                win, child_loss = costs if partner_next else (costs[1], costs[0])
                loss += child_loss
                if win < best_win:
                    best, best_win, second_win, best_loss = child, win, best_win, child_loss
                elif win < second_win:
                    second_win = win
            if best_win == 0 or best_win == INFINITE:
                table[key] = _PROVEN_WIN if best_win == 0 else _PROVEN_LOSS
                return
            loss = min(loss, INFINITE - 1)
            if best_win >= win_threshold or loss >= loss_threshold:
                table[key] = (best_win, loss)
                return
            child_win = min(win_threshold, int(second_win * (1 + EPSILON)) + 1)
            child_loss = min(INFINITE, loss_threshold - loss + best_loss)
            if partner_next:
                self._search(best, child_win, child_loss)
            else:
                self._search(best, child_loss, child_win)

    def _expand(self, key: _Key) -> _Expansion:
        """The plays of ``key``: a finishing play or sure win if there is one, else every legal play."""
        *hands, mover, follow, follow_seat = key
        hand = hands[mover]
        moves = legal_moves(hand.to_bytes(NUM_RANKS, "little"), follow, self.rules)
        nxt = (mover + 1) % 3
        partner_next = (nxt == self.landlord) == (mover == self.landlord)
        finish = next((move for move in moves if move.packed == hand), None)
        if finish is None and follow is None:
            finish = self._sure_win(hands, mover)
        if finish is not None:
            return _Expansion(finish, [], partner_next)
        children: list[tuple[Move, _Key]] = []
        for move in moves:
            if move is PASS:
                child = (*hands, nxt, None, None) if nxt == follow_seat else (*hands, nxt, follow, follow_seat)
            else:
                after = list(hands)
                after[mover] -= move.packed
                child = (*after, nxt, move, mover)
            children.append((move, child))  # type: ignore[arg-type]
        return _Expansion(None, children, partner_next)

    def _estimate(self, key: _Key) -> _Costs:
        """Costs of a position not yet searched: the squares of each side's fewest minimum steps to go out."""
        *hands, mover, _, _ = key
        landlord = self._steps(hands[self.landlord])
        peasants = min(self._steps(hands[(self.landlord + 1) % 3]), self._steps(hands[(self.landlord + 2) % 3]))
        own, other = (landlord, peasants) if mover == self.landlord else (peasants, landlord)
        return own * own, other * other

    def _sure_win(self, hands: list[int], mover: int) -> Move | None:
        """Leading: the first play of a plan whose plays, all but at most one, no opponent can beat."""
        plan = self.plans.get(hands[mover])
        if plan is None:
            plan = self.plans[hands[mover]] = decompose(unpack(hands[mover]), self.rules)
        opponents = [hands[s].to_bytes(NUM_RANKS, "little") for s in range(3)
                     if (s == self.landlord) != (mover == self.landlord)]
        beatable = [play for play in plan if any(len(legal_moves(o, play, self.rules)) > 1 for o in opponents)]
        if len(beatable) > 1:
            return None
        return next(play for play in plan if play not in beatable)

    def _steps(self, packed: int) -> int:
        steps = self.steps.get(packed)
        if steps is None:
            steps = self.steps[packed] = min_steps(unpack(packed), self.rules)
        return steps

    def _count(self) -> None:
        self.nodes += 1
        if self.limit is not None and self.nodes > self.limit:
            raise _LimitReached
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _LimitReached
