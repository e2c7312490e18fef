"""DouDizhu plays ("moves"): categories, their meaning, and how one play beats another.

A ``Move`` is a multiset of cards together with its interpretation: category, main rank and length.
Comparison rule: a non-bomb beats another only if it has the same category and length and a higher
main rank — for kicker categories the rank of the trio / plane / four part, never of a kicker that
happens to form a trio. Any bomb beats any non-bomb, a higher bomb beats a lower one, the rocket beats
everything.

癞子 plays (``wild``) add what each wild card stands for (``stands_for``) and the bomb's tier
(``SOFT`` < ``HARD`` < ``WILD``): bombs compare by tier, then rank. Every classic play is ``HARD`` and
stands for itself.

Some multisets have several interpretations (``333444555666`` is a 4-trio plane, or a 3-trio plane with
three solo kickers). When leading, a play takes its *canonical* interpretation: the first category in
``LEAD_PREFERENCE``, then the highest main rank. When following, it takes the highest-ranked
interpretation of the category and length being followed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum

from paiju.games.doudizhu.cards import NUM_RANKS, RANKS, format_cards, pack, parse_cards, unpack
from paiju.games.doudizhu.rules import DouDizhuRules

HIGHEST_CHAIN_RANK = 11  # chains run from 3 up to A; never the 2 or the jokers


class Category(IntEnum):
    """Play categories of the standard ruleset (DouZero / RLCard action space)."""

    PASS = 0
    SOLO = 1
    PAIR = 2
    TRIO = 3
    TRIO_SOLO = 4
    TRIO_PAIR = 5
    SOLO_CHAIN = 6
    PAIR_CHAIN = 7
    PLANE = 8
    PLANE_SOLOS = 9
    PLANE_PAIRS = 10
    FOUR_TWO_SOLOS = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14

    @property
    def label(self) -> str:
        """The category's name as players say it (``trio+pair``, ``solo chain``)."""
        return _LABELS[self]


_LABELS = {
    Category.PASS: "pass", Category.SOLO: "solo", Category.PAIR: "pair", Category.TRIO: "trio",
    Category.TRIO_SOLO: "trio+solo", Category.TRIO_PAIR: "trio+pair", Category.SOLO_CHAIN: "solo chain",
    Category.PAIR_CHAIN: "pair chain", Category.PLANE: "plane", Category.PLANE_SOLOS: "plane+solos",
    Category.PLANE_PAIRS: "plane+pairs", Category.FOUR_TWO_SOLOS: "four+two solos",
    Category.FOUR_TWO_PAIRS: "four+two pairs", Category.BOMB: "bomb", Category.ROCKET: "rocket",
}

# Chain-like categories: (copies per rank, minimum length, maximum length by the 20-card hand limit).
CHAIN_SHAPES = {
    Category.SOLO_CHAIN: (1, 5, 12),
    Category.PAIR_CHAIN: (2, 3, 10),
    Category.PLANE: (3, 2, 6),
}
# Planes with kickers: n trios + n solos (at most 5 trios in 20 cards) or n pairs (at most 4).
PLANE_KICKER_SHAPES = {Category.PLANE_SOLOS: (1, 5), Category.PLANE_PAIRS: (2, 4)}

LEAD_PREFERENCE = (
    Category.ROCKET, Category.BOMB, Category.SOLO, Category.PAIR, Category.TRIO, Category.SOLO_CHAIN,
    Category.PAIR_CHAIN, Category.PLANE, Category.TRIO_SOLO, Category.TRIO_PAIR, Category.FOUR_TWO_SOLOS,
    Category.FOUR_TWO_PAIRS, Category.PLANE_SOLOS, Category.PLANE_PAIRS,
)
_PREFERENCE_ORDER = {category: i for i, category in enumerate(LEAD_PREFERENCE)}

SOFT, HARD, WILD = 0, 1, 2
"""Bomb tiers (癞子): four cards made with a wild card, four natural cards, the four cards of a wild rank."""
TIER_LABELS = ("soft bomb", "bomb", "wild bomb")


@dataclass(frozen=True, slots=True, eq=False)
class Move:
    """One play: its cards (sorted rank letters, ``""`` for pass) and their interpretation.

    ``rank`` is the main part's rank index (lowest rank for chains and planes); ``length`` the number
    of ranks in the main part (1 for non-chains). 癞子 plays: ``cards`` are the cards played,
    ``stands_for`` what they stand for when a wild card stands for another rank (else ``""``), and
    ``tier`` the bomb's tier (``HARD`` for everything but 癞子 bombs).

    Moves are interned: build them with ``make_move`` / ``move_from_packed`` (or ``parse_move``), never
    with ``Move(...)``; there is then exactly one object per distinct play, so equality is identity —
    fast to compare and to look up in a legal list. Unpickling re-interns.
    """

    cards: str
    category: Category
    rank: int
    length: int
    counts: tuple[int, ...]
    packed: int
    stands_for: str = ""
    tier: int = HARD

    @property
    def is_pass(self) -> bool:
        return self.category is Category.PASS

    @property
    def is_bomb(self) -> bool:
        """Bomb or rocket: the plays that double the score."""
        return self.category >= Category.BOMB

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def notation(self) -> str:
        """The play as text: its cards, then ``=`` and what they stand for when a wild card stands for another
        rank (``5558=5555``: with wild rank 8, the soft bomb of fives)."""
        return f"{self.cards}={self.stands_for}" if self.stands_for else self.cards

    @property
    def key(self) -> tuple[object, ...]:
        """What makes two plays the same play: cards, reading, and (癞子) substitution and bomb tier."""
        return (self.packed, self.category, self.rank, self.length, self.stands_for, self.tier)

    @property
    def effective_counts(self) -> tuple[int, ...]:
        """The counts of the cards this play stands for (its own cards unless a wild card substitutes)."""
        return tuple(parse_cards(self.stands_for)) if self.stands_for else self.counts

    @property
    def label(self) -> str:
        """The category as players say it, with a 癞子 bomb's tier (``soft bomb``)."""
        return TIER_LABELS[self.tier] if self.category is Category.BOMB else self.category.label

    def __reduce__(self) -> tuple[object, tuple[int, Category, int, int, str, int]]:
        return (move_from_packed, (self.packed, self.category, self.rank, self.length, self.stands_for, self.tier))

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        if self.is_pass:
            return "Move(pass)"
        return f"Move({self.notation!r}, {self.label}, rank {RANKS[self.rank]}, length {self.length})"

    def beats(self, other: Move) -> bool:
        """Whether this play may follow ``other`` (a pass beats nothing and is beaten by anything)."""
        if other.is_pass:
            return not self.is_pass
        if self.category is Category.ROCKET:
            return True
        if self.category is Category.BOMB:
            return other.category < Category.BOMB or (
                other.category is Category.BOMB and (self.tier, self.rank) > (other.tier, other.rank))
        return self.category is other.category and self.length == other.length and self.rank > other.rank


_INTERNED: dict[tuple[object, ...], Move] = {}
_SUBSTITUTED: dict[tuple[object, ...], Move] = {}
"""Interned 癞子 plays whose wild cards stand for other ranks: unbounded in number, so forgotten now and then."""
SUBSTITUTED_LIMIT = 200_000
"""How many such plays stay interned before ``forget_substituted`` (a few hundred MB at most)."""
_FORGET_HOOKS: list[Callable[[], None]] = []


def on_forget(hook: Callable[[], None]) -> None:
    """Have ``hook`` drop a cache of 癞子 plays whenever ``forget_substituted`` runs."""
    _FORGET_HOOKS.append(hook)


def forget_substituted(limit: int | None = None) -> None:
    """Forget the interned plays whose wild cards stand for other ranks once more than ``limit`` (by default
    ``SUBSTITUTED_LIMIT``) are held, and
    every cache of them (``on_forget``). A play met again is a new object, equal to a forgotten one by its
    cards, reading, substitution and tier (``Move.key``), not by identity; ``DouDizhuState.apply`` accepts it."""
    if len(_SUBSTITUTED) > (SUBSTITUTED_LIMIT if limit is None else limit):
        _SUBSTITUTED.clear()
        for hook in _FORGET_HOOKS:
            hook()


def move_from_packed(packed: int, category: Category, rank: int, length: int = 1, stands_for: str = "",
                     tier: int = HARD) -> Move:
    """The interned ``Move`` with these packed counts (``cards.pack``) and interpretation (a 癞子 play: and what
    it stands for, and its bomb tier)."""
    key: tuple[object, ...] = (packed, int(category), rank, length)  # plain values: a key the collector need not track
    if stands_for or tier != HARD:
        key += (stands_for, tier)
    table = _SUBSTITUTED if stands_for else _INTERNED
    move = table.get(key)
    if move is None:
        counts = tuple(unpack(packed))
        category = category if type(category) is Category else Category(category)
        move = table[key] = Move(format_cards(counts), category, rank, length, counts, packed, stands_for, tier)
    return move


def make_move(counts: tuple[int, ...], category: Category, rank: int, length: int = 1) -> Move:
    """The interned ``Move`` for these counts and interpretation."""
    return move_from_packed(pack(counts), category, rank, length)


PASS = make_move((0,) * NUM_RANKS, Category.PASS, -1, 0)


def interpretations(counts: tuple[int, ...], rules: DouDizhuRules) -> list[Move]:
    """Every way the multiset ``counts`` is a valid play, canonical first (see ``LEAD_PREFERENCE``)."""
    found: list[Move] = []
    size = sum(counts)
    if size == 0:
        return [PASS]
    present = [r for r in range(NUM_RANKS) if counts[r]]
    by_count = {c: [r for r in present if counts[r] == c] for c in (1, 2, 3, 4)}

    def add(category: Category, rank: int, length: int = 1) -> None:
        found.append(make_move(counts, category, rank, length))

    if len(present) == 1:
        rank = present[0]
        add((Category.SOLO, Category.PAIR, Category.TRIO, Category.BOMB)[size - 1], rank)
    if size == 2 and counts[13] and counts[14]:
        add(Category.ROCKET, 13)
    if size == 4 and len(by_count[3]) == 1 and len(by_count[1]) == 1:
        add(Category.TRIO_SOLO, by_count[3][0])
    if size == 5 and len(by_count[3]) == 1 and len(by_count[2]) == 1:
        add(Category.TRIO_PAIR, by_count[3][0])
    for category, (copies, min_length, _) in CHAIN_SHAPES.items():
        length = len(present)
        if (length >= min_length and all(counts[r] == copies for r in present)
                and present[-1] <= HIGHEST_CHAIN_RANK and present[-1] - present[0] == length - 1):
            add(category, present[0], length)
    if not rules.no_four_with_two:
        for four in by_count[4]:
            kickers = list(counts)
            kickers[four] = 0
            if size == 6 and _solo_kickers_ok(kickers, rules):
                add(Category.FOUR_TWO_SOLOS, four)
            if size == 8 and _pair_kickers_ok(kickers, 2, rules):
                add(Category.FOUR_TWO_PAIRS, four)
    for category, (copies, max_length) in PLANE_KICKER_SHAPES.items():
        length, remainder = divmod(size, 3 + copies)
        if remainder or not 2 <= length <= max_length:
            continue
        for low in range(HIGHEST_CHAIN_RANK - length + 1, -1, -1):
            window = range(low, low + length)
            if any(counts[r] != 3 for r in window):
                continue
            kickers = list(counts)
            for r in window:
                kickers[r] = 0
            if copies == 1:
                ok = _solo_kickers_ok(kickers, rules) and not extends_plane(kickers, low, length)
            else:
                ok = _pair_kickers_ok(kickers, length, rules)
            if ok:
                add(category, low, length)
    found.sort(key=lambda m: (_PREFERENCE_ORDER[m.category], -m.rank))
    return found


def extends_plane(kickers: list[int] | tuple[int, ...], low: int, length: int) -> bool:
    """Whether solo kickers hold three cards of a rank next to the plane ``low .. low+length-1``.

    Such kickers would lengthen the plane (``333444555`` + ``666``), so the standard ruleset does not
    allow them as kickers; this is what makes DouZero's and RLCard's 27,472-play action space.
    """
    return any(kickers[r] == 3 for r in (low - 1, low + length) if 0 <= r <= HIGHEST_CHAIN_RANK)


def _solo_kickers_ok(kickers: list[int], rules: DouDizhuRules) -> bool:
    """Solo kickers may share a rank, but are never both jokers or four equal cards (unless the options)."""
    if kickers[13] and kickers[14] and not rules.rocket_as_kickers:
        return False
    return rules.bomb_as_kickers or max(kickers) < 4


def _pair_kickers_ok(kickers: list[int], pairs: int, rules: DouDizhuRules) -> bool:
    """Pair kickers: ``pairs`` pairs of distinct ranks, no jokers (four equal cards = two pairs as an option)."""
    if kickers[13] or kickers[14]:
        return False
    allowed = (2, 4) if rules.bomb_as_kickers else (2,)
    return all(n in allowed for n in kickers if n) and sum(kickers) == 2 * pairs


def parse_move(text: str, rules: DouDizhuRules, follow: Move | None = None, wild: tuple[int, ...] = ()) -> Move:
    """The play written ``text`` (``""`` or ``"pass"`` for pass), interpreted to lead or to follow ``follow``;
    under 癞子 rules with wild ranks ``wild``, ``wild.parse_play``.

    Raises ``IllegalActionError`` if the cards form no play (or, following, none that beats ``follow``).
    """
    from paiju.core.errors import IllegalActionError

    if text.strip().lower() in ("", "pass"):
        return PASS
    if rules.laizi:
        from paiju.games.doudizhu.wild import parse_play

        return parse_play(text, wild, rules, follow)
    if "=" in text:
        raise IllegalActionError(f"{text!r}: a play stands for other cards ('=') only under the 癞子 rules "
                                 f"(\"laizi\": true)")
    counts = tuple(parse_cards(text.strip()))
    options = interpretations(counts, rules)
    if not options:
        raise IllegalActionError(f"{format_cards(counts)!r} is not a DouDizhu combination")
    if follow is None or follow.is_pass:
        return options[0]
    beating = [m for m in options if m.beats(follow)]
    if not beating:
        raise IllegalActionError(f"{options[0].cards!r} ({options[0].category.label}) does not beat "
                                 f"{follow.cards!r} ({follow.category.label})")
    return max(beating, key=lambda m: (m.category is follow.category, m.rank))
