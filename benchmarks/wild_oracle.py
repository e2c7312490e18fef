"""癞子 (wild-card) DouDizhu legal plays: the engine (``wild.legal_moves``) against the brute-force reference
(``wild_reference.legal_plays``) on positions from random play, counted and timed:
``python benchmarks/wild_oracle.py [--positions 100000] [--mode lead|follow|both] [--wild-ranks 1|2] [--workers 2]``.

- Positions: game ``g`` of a mode comes from ``random.Random(f"{seed}/{mode}/{g}")``: a research-mode 癞子 deal
  (``Deal.draw``: the cards, then the wild ranks; seat 0 takes the three public cards and leads), then uniformly
  random legal plays (the engine's), never one that would end the game. It gives 5 positions, after 5 distinct
  random numbers of plays (0-49): the hand of the seat to move; ``lead`` takes it leading, ``follow`` plays on
  until the seat to move has a play to beat and takes that. A game that ends first is dealt again from the same
  generator for the positions left.
- Compared: the set of (cards, category, rank, length, bomb tier) of the engine's plays with the reference's (a
  duplicate in the engine's list counts as a difference), and each play's ``stands_for``: it must be the
  smallest (by ``cards.pack``) of the substitutions that make that play in the reference.
- Timed: the engine's and the reference's calls on the positions (``time.perf_counter``); making the positions
  is not timed. The engine is ``wild.legal_moves`` as imported: compiled where built (``PAIJU_NATIVE=0``: the
  pure-Python path); the first line printed names it. The script measures and prints; it asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from paiju.games.doudizhu import RANKS, Category, DouDizhuRules, Move, format_cards
from paiju.games.doudizhu import wild as engine
from paiju.games.doudizhu.cards import unpack
from paiju.games.doudizhu.state import Deal
from paiju.games.doudizhu.wild_reference import Key, combinations, legal_plays

EXAMPLES = 5
"""Differences kept, per worker and mode, to print."""
PER_GAME = 5
"""Positions taken from one game."""
TURNS = 50
"""Positions are taken after 0 to ``TURNS - 1`` plays."""


@dataclass(frozen=True, slots=True)
class Position:
    """A hand to move, its wild ranks, and the play to beat (None when leading)."""

    hand: tuple[int, ...]
    wild: tuple[int, ...]
    follow: Move | None

    def __str__(self) -> str:
        follow = "lead" if self.follow is None else f"follow {self.follow.notation} ({self.follow.label})"
        return f"hand {format_cards(self.hand)}, wild {''.join(RANKS[r] for r in self.wild)}, {follow}"


@dataclass(slots=True)
class Tally:
    """Positions compared, the differences found (the first few), and the seconds each side took."""

    positions: int = 0
    differences: int = 0
    examples: list[str] = field(default_factory=list)
    engine_seconds: float = 0.0
    reference_seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.positions += other.positions
        self.differences += other.differences
        self.examples += other.examples[:max(0, EXAMPLES - len(self.examples))]
        self.engine_seconds += other.engine_seconds
        self.reference_seconds += other.reference_seconds


def positions(seed: int, mode: str, game: int, count: int, rules: DouDizhuRules) -> list[Position]:
    """The ``count`` positions of game ``game`` of ``mode`` (see the docstring)."""
    rng = random.Random(f"{seed}/{mode}/{game}")
    found: list[Position] = []
    while len(found) < count:
        deal = Deal.draw(rng, True, rules.wild_ranks)
        hands = [list(hand) for hand in deal.hands]
        hands[0] = [n + extra for n, extra in zip(hands[0], deal.public, strict=True)]
        seat, follow, passes = 0, None, 0
        stops = sorted(rng.sample(range(TURNS), count - len(found)))
        for turn in range(4 * TURNS):
            if turn >= stops[0] and (mode == "lead" or follow is not None):
                found.append(Position(tuple(hands[seat]), deal.wild, None if mode == "lead" else follow))
                stops.pop(0)
                if not stops:
                    break
            move = rng.choice(engine.legal_moves(hands[seat], follow, deal.wild, rules))
            if move.size == sum(hands[seat]):
                break  # the game would end: deal again for the positions left
            if move.is_pass:
                passes += 1
                follow = None if passes == 2 else follow
            else:
                hands[seat] = [n - m for n, m in zip(hands[seat], move.counts, strict=True)]
                follow, passes = move, 0
            seat = (seat + 1) % 3
    return found


def key(move: Move) -> Key:
    return (move.packed, move.category, move.rank, move.length, move.tier)


def compare(mode: str, games: range, positions_wanted: int, seed: int, wild_ranks: int) -> Tally:
    """The positions of games ``games`` of ``mode`` (the first ``positions_wanted`` of all games) through the
    engine and the reference."""
    rules = DouDizhuRules(laizi=True, wild_ranks=wild_ranks)
    combinations(rules)  # the reference's table of classic combinations, built once, not timed
    tally = Tally()
    for game in games:
        count = min(PER_GAME, positions_wanted - PER_GAME * game)
        for index, spot in enumerate(positions(seed, mode, game, count, rules)):
            start = time.perf_counter()
            moves = engine.legal_moves(spot.hand, spot.follow, spot.wild, rules)
            middle = time.perf_counter()
            expected = legal_plays(spot.hand, None if spot.follow is None else key(spot.follow), spot.wild, rules)
            tally.reference_seconds += time.perf_counter() - middle
            tally.engine_seconds += middle - start
            tally.positions += 1
            problem = difference(moves, expected)
            if problem:
                tally.differences += 1
                if len(tally.examples) < EXAMPLES:
                    tally.examples.append(f"game {game}, position {index}: {spot}: {problem}")
    return tally


def difference(moves: list[Move], expected: dict[Key, tuple[int, ...]]) -> str:
    """What differs between the engine's plays and the reference's (``""`` if nothing)."""
    found = {key(move): move for move in moves}
    if len(found) != len(moves):
        return "the engine lists a play twice"
    missing = [written(k, expected[k]) for k in expected if k not in found]
    extra = [found[k].notation + f" ({found[k].label})" for k in found if k not in expected]
    if missing or extra:
        return f"only the reference: {missing[:4]} ({len(missing)}); only the engine: {extra[:4]} ({len(extra)})"
    wrong = [f"{move.notation} (reference: {written(key(move), expected[key(move)])})" for move in moves
             if not move.is_pass and move.effective_counts != expected[key(move)]]
    return f"stands_for not the smallest: {wrong[:4]} ({len(wrong)})" if wrong else ""


def written(play: Key, stands_for: tuple[int, ...]) -> str:
    """A reference play as text: ``P`` or ``P=E``, then its reading."""
    cards = tuple(unpack(play[0]))
    text = format_cards(cards) if cards == stands_for else f"{format_cards(cards)}={format_cards(stands_for)}"
    return f"{text} ({Category(play[1]).label}, rank {RANKS[play[2]]}, length {play[3]}, tier {play[4]})"


def run(mode: str, positions_wanted: int, seed: int, wild_ranks: int, workers: int) -> tuple[Tally, float]:
    """The tally of ``positions_wanted`` positions of ``mode``, their games split among ``workers`` processes,
    and the wall time."""
    start = time.perf_counter()
    games = -(-positions_wanted // PER_GAME)
    if workers <= 1:
        return compare(mode, range(games), positions_wanted, seed, wild_ranks), time.perf_counter() - start
    chunks = [range(w, games, workers) for w in range(workers)]
    total = Tally()
    with ProcessPoolExecutor(workers) as pool:
        for tally in pool.map(compare, [mode] * workers, chunks, [positions_wanted] * workers, [seed] * workers,
                              [wild_ranks] * workers):
            total.add(tally)
    return total, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100_000, help="positions per mode (default 100000)")
    parser.add_argument("--mode", choices=("lead", "follow", "both"), default="both")
    parser.add_argument("--wild-ranks", type=int, choices=(1, 2), default=1, help="1, or 2 (天地癞子)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    modes = ("lead", "follow") if args.mode == "both" else (args.mode,)
    print(f"engine: {engine.legal_moves.__module__}.legal_moves; reference: wild_reference.legal_plays")
    for mode in modes:
        tally, wall = run(mode, args.positions, args.seed, args.wild_ranks, args.workers)
        print(f"{mode}, {args.wild_ranks} wild rank(s), seed {args.seed}: {tally.positions} positions, "
              f"{tally.differences} differences; engine {tally.engine_seconds:.1f} s "
              f"({1000 * tally.engine_seconds / max(1, tally.positions):.3f} ms/position), reference "
              f"{tally.reference_seconds:.1f} s ({1000 * tally.reference_seconds / max(1, tally.positions):.3f} "
              f"ms/position), {wall:.1f} s in all with {args.workers} worker(s)")
        for example in tally.examples:
            print(f"  {example}")


if __name__ == "__main__":
    main()
