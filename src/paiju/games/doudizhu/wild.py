"""癞子 (wild-card) DouDizhu plays: the legal plays of a hand and the text of a play (``shared/specs/doudizhu.md``,
section 癞子; ``DouDizhuRules.laizi``).

The four cards of each wild rank are wild cards. A play is the cards played (P) and the cards they stand for
(E): a wild card stands for its own rank or for any rank 3..2, never a joker; other cards stand for themselves.
E must be a classic combination (``moves.interpretations``) whose *main part* holds every substituted card
(all of a solo, pair, trio, bomb, chain or plane; the trio, four or trios of a play with kickers): a wild card
used as a kicker stands for its own rank. Cards that are all wild stand for their own ranks (one wild card is a
solo of its rank, four are the wild bomb). Chains keep 3..A, so a wild card never stands for a 2 in a chain.

Bombs have tiers (``moves.SOFT`` < ``HARD`` < ``WILD``, compared before rank): four cards made with a
substituted wild card, four natural cards, the four cards of a wild rank.

Which plays are distinct: one (P, E) pair takes one reading, as in the classic game (leading, the canonical
reading; following, a reading that beats the play to beat, same category first, then the highest rank); the
legal list holds each (P, category, rank, length) once, standing for the smallest E (by ``cards.pack``) that
gives it. So ``5558`` with wild rank 8 is two plays: the trio of fives with the 8 (``5558``) and the soft bomb
of fives (``5558=5555``).

Plays are built from the hand: for each main part (its ranks and copies), every way of taking natural cards and
filling the rest with wild cards, then the kickers from what is left (wild cards as their own rank).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from paiju.core.errors import IllegalActionError
from paiju.games.doudizhu.cards import (
    BIG_JOKER,
    NUM_RANKS,
    SMALL_JOKER,
    TWO,
    UNIT,
    format_cards,
    pack,
    parse_cards,
    unpack,
)
from paiju.games.doudizhu.movegen import _pair_kickers, _solo_kickers
from paiju.games.doudizhu.moves import (
    _PREFERENCE_ORDER,
    CHAIN_SHAPES,
    HARD,
    HIGHEST_CHAIN_RANK,
    PASS,
    PLANE_KICKER_SHAPES,
    SOFT,
    WILD,
    Category,
    Move,
    interpretations,
    move_from_packed,
    on_forget,
)
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.native import fast

Counts = tuple[int, ...]
Reading = tuple[Category, int, int]
"""A reading of a play: category, main rank, length."""

_SIMPLE = ((Category.SOLO, 1), (Category.PAIR, 2), (Category.TRIO, 3), (Category.BOMB, 4))
_KICKED = {Category.TRIO_SOLO: (Category.TRIO, 1), Category.TRIO_PAIR: (Category.TRIO, 2),
           Category.FOUR_TWO_SOLOS: (Category.BOMB, 2), Category.FOUR_TWO_PAIRS: (Category.BOMB, 2),
           Category.PLANE_SOLOS: (Category.PLANE, 0), Category.PLANE_PAIRS: (Category.PLANE, 0)}
"""Kicker categories: the category of their main part, and their number of kickers (planes: one per trio)."""


def legal_moves(hand: Sequence[int], follow: Move | None, wild: Sequence[int], rules: DouDizhuRules) -> list[Move]:
    """Every distinct legal 癞子 play of ``hand`` with wild ranks ``wild``: leading when ``follow`` is ``None`` or
    a pass, else following it (pass first, then plays of its category by rank, then bombs by tier and rank, then
    the rocket)."""
    leading = follow is None or follow.is_pass
    categories = None if leading else _categories_following(follow)  # type: ignore[arg-type]
    moves = list(_plays(hand, None if leading else follow, wild, rules, categories).values())
    moves.sort(key=_order)
    return moves if leading else [PASS, *moves]


def _order(move: Move) -> tuple[int, ...]:
    bomb = move.category is Category.BOMB or move.category is Category.ROCKET
    return (bomb, move.category, move.tier, move.rank, move.length, move.packed)


def _categories_following(follow: Move) -> set[Category]:
    """The categories that may beat ``follow``: its own (unless a bomb or the rocket), bombs, the rocket."""
    if follow.category is Category.ROCKET:
        return set()
    if follow.category is Category.BOMB:
        return {Category.BOMB, Category.ROCKET}
    return {follow.category, Category.BOMB, Category.ROCKET}


def _plays(hand: Sequence[int], follow: Move | None, wild: Sequence[int], rules: DouDizhuRules,
           categories: set[Category] | None, whole: bool = False) -> dict[tuple[int, Reading], Move]:
    """The plays of ``hand`` by (packed P, reading); ``whole``: only plays of the entire hand (reading a text)."""
    by_pair: dict[tuple[int, int], list[Reading]] = {}
    everything = pack(hand)
    for played, stands, reading in _candidates(hand, wild, rules, categories):
        if whole and played != everything:
            continue
        readings = by_pair.get((played, stands))
        if readings is None:
            by_pair[played, stands] = [reading]
        else:
            readings.append(reading)
    wild_mask = _mask(wild)
    best: dict[tuple[int, Reading], tuple[int, int]] = {}
    for (played, stands), readings in by_pair.items():
        reading = _in_context(readings, played, stands, wild_mask, follow)
        if reading is None:
            continue
        key = (played, reading)
        if key not in best or stands < best[key][1]:
            best[key] = (played, stands)
    return {key: _move(played, stands, key[1], wild_mask) for key, (played, stands) in best.items()}


def _mask(wild: Sequence[int]) -> int:
    """The packed bytes of the wild ranks: ``played & ~mask == 0`` exactly when every card played is wild."""
    return sum(0xFF << (8 * w) for w in wild)


def _tier(category: Category, played: int, stands: int, wild_mask: int) -> int:
    if category is not Category.BOMB:
        return HARD
    return WILD if not played & ~wild_mask else HARD if played == stands else SOFT


_MOVES: dict[tuple[int, int, int, int, int], Move] = {}
"""``_move``'s plays by cards, substitution (or bomb tier) and reading; keys of plain ints, which the garbage collector
need not track."""
on_forget(_MOVES.clear)


def _move(played: int, stands: int, reading: Reading, wild_mask: int) -> Move:
    """The interned play of packed cards ``played`` standing for ``stands`` in ``reading``."""
    tier = _tier(reading[0], played, stands, wild_mask)
    category, rank, length = reading
    key = (played, stands if stands != played else -tier, int(category), rank, length)
    move = _MOVES.get(key)
    if move is None:
        stands_for = "" if played == stands else format_cards(unpack(stands))
        move = _MOVES[key] = move_from_packed(played, *reading, stands_for, tier)  # type: ignore[arg-type]
    return move


def _beats(reading: Reading, tier: int, follow: Move) -> bool:
    """``Move.beats`` for a reading not yet made a move."""
    category, rank, length = reading
    if category is Category.ROCKET:
        return True
    if category is Category.BOMB:
        return follow.category < Category.BOMB or (
            follow.category is Category.BOMB and (tier, rank) > (follow.tier, follow.rank))
    return category is follow.category and length == follow.length and rank > follow.rank


def _in_context(readings: list[Reading], played: int, stands: int, wild_mask: int,
                follow: Move | None) -> Reading | None:
    """The reading one (P, E) takes: leading, the canonical one; following, the best that beats ``follow``."""
    if follow is None:
        return readings[0] if len(readings) == 1 else min(readings, key=lambda r: (_PREFERENCE_ORDER[r[0]], -r[1]))
    beating = [r for r in readings if _beats(r, _tier(r[0], played, stands, wild_mask), follow)]
    if not beating:
        return None
    return max(beating, key=lambda r: (r[0] is follow.category, r[1]))


def _candidates(hand: Sequence[int], wild: Sequence[int], rules: DouDizhuRules,
                categories: set[Category] | None) -> Iterator[tuple[int, int, Reading]]:
    """Every (P, E, reading) of the hand, P and E packed, whose substituted cards lie in the reading's main part."""
    naturals = [0 if r in wild else n for r, n in enumerate(hand)]
    held_wild = [hand[w] for w in wild]
    not_wild = ~_mask(wild)

    def wanted(category: Category) -> bool:
        return categories is None or category in categories

    if wanted(Category.ROCKET) and hand[SMALL_JOKER] and hand[BIG_JOKER]:
        rocket = UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]
        yield rocket, rocket, (Category.ROCKET, SMALL_JOKER, 1)
    mains: dict[Category, list[tuple[int, int, int, int]]] = {}
    for category, copies in _SIMPLE:
        if wanted(category) or any(wanted(k) and main is category for k, (main, _) in _KICKED.items()):
            top = BIG_JOKER if category is Category.SOLO else TWO
            mains[category] = [(p, e, rank, 1) for rank in range(top + 1)
                               for p, e in _fills(naturals, held_wild, wild, [rank], copies)]
    for category, (copies, min_length, max_length) in CHAIN_SHAPES.items():
        if wanted(category) or (category is Category.PLANE and (
                wanted(Category.PLANE_SOLOS) or wanted(Category.PLANE_PAIRS))):
            mains[category] = [(p, e, low, length) for length in range(min_length, max_length + 1)
                               for low in range(HIGHEST_CHAIN_RANK - length + 2)
                               for p, e in _fills(naturals, held_wild, wild, range(low, low + length), copies)]
    for category in (*(c for c, _ in _SIMPLE), *CHAIN_SHAPES):
        if wanted(category):
            for played, stands, rank, length in mains[category]:
                if played == stands or played & not_wild:  # cards all wild stand for their own ranks
                    yield played, stands, (category, rank, length)
    for category, (main, kickers) in _KICKED.items():
        if not wanted(category) or (main is Category.BOMB and rules.no_four_with_two):
            continue
        for played, stands, rank, length in mains[main]:
            if category in PLANE_KICKER_SHAPES and length > PLANE_KICKER_SHAPES[category][1]:
                continue
            for kicker in _kicker_sets(hand, played, category, rank, length, kickers or length, rules):
                if played == stands or (played + kicker) & not_wild:
                    yield played + kicker, stands + kicker, (category, rank, length)


def _fills(naturals: list[int], held_wild: list[int], wild: Sequence[int], ranks: Sequence[int],
           copies: int) -> Iterator[tuple[int, int]]:
    """Every way to make ``copies`` cards of each of ``ranks`` (packed P and E): some natural cards of each rank,
    the rest wild cards (jokers only natural)."""
    budget = sum(held_wild)
    stands = sum(copies * UNIT[rank] for rank in ranks)

    def natural_choices(index: int, missing: int) -> Iterator[tuple[int, int]]:
        if index == len(ranks):
            yield 0, missing
            return
        rank = ranks[index]
        most = min(copies, naturals[rank])
        least = copies if rank >= SMALL_JOKER else max(0, copies - (budget - missing))
        for used in range(most, least - 1, -1):
            for rest, total in natural_choices(index + 1, missing + copies - used):
                yield used * UNIT[rank] + rest, total

    for played, missing in natural_choices(0, 0):
        for split in _wild_splits(missing, held_wild):
            yield played + sum(n * UNIT[rank] for rank, n in zip(wild, split, strict=True)), stands


def _wild_splits(missing: int, held_wild: list[int]) -> Iterator[tuple[int, ...]]:
    """How ``missing`` wild cards can be taken from the wild ranks' cards held (one count per wild rank)."""
    if not held_wild:
        if missing == 0:
            yield ()
        return
    first, rest = held_wild[0], held_wild[1:]
    for n in range(min(first, missing), -1, -1):
        for tail in _wild_splits(missing - n, rest):
            yield (n, *tail)


def _kicker_sets(hand: Sequence[int], played: int, category: Category, rank: int, length: int, count: int,
                 rules: DouDizhuRules) -> list[int]:
    """Packed kicker sets for a main part: from the cards left (wild cards as their own rank), never of a main
    rank; the classic kicker rules (``movegen``), on the cards as they stand."""
    main_ranks = range(rank, rank + length)
    pool = [0 if r in main_ranks else n - p for r, (n, p) in enumerate(zip(hand, unpack(played), strict=True))]
    if category is Category.TRIO_SOLO:
        return [UNIT[k] for k in range(NUM_RANKS) if pool[k]]
    if category is Category.TRIO_PAIR:
        return [2 * UNIT[k] for k in range(SMALL_JOKER) if pool[k] >= 2]
    if category is Category.PLANE_SOLOS:
        for r in (rank - 1, rank + length):
            if 0 <= r <= HIGHEST_CHAIN_RANK:
                pool[r] = min(pool[r], 2)
    if category in (Category.PLANE_SOLOS, Category.FOUR_TWO_SOLOS):
        return _solo_kickers(pool, count, rules)
    return _pair_kickers(pool, count, rules)


def parse_play(text: str, wild: Sequence[int], rules: DouDizhuRules, follow: Move | None = None) -> Move:
    """The 癞子 play written ``text``: its cards, then ``=`` and what they stand for when a wild card stands for
    another rank (``5558=5555``); ``""`` or ``pass`` is a pass. Read to lead, or to beat ``follow``.

    Raises ``IllegalActionError`` naming the card and the rule a text breaks.
    """
    text = text.strip()
    if text.lower() in ("", "pass"):
        return PASS
    cards_text, _, stands_text = text.partition("=")
    played = tuple(parse_cards(cards_text.strip()))
    stands = tuple(parse_cards(stands_text.strip())) if stands_text.strip() else played
    _check_substitution(played, stands, wild)
    follow = None if follow is None or follow.is_pass else follow
    readings = _readings(played, stands, wild, rules)
    reading = _in_context(readings, pack(played), pack(stands), _mask(wild), follow) if readings else None
    if reading is not None:
        return _plays(played, follow, wild, rules, {reading[0]}, whole=True)[pack(played), reading]
    written = _written(played, stands)
    classic = interpretations(stands, rules)
    if not classic:
        chain = " (chains run 3..A: a wild card never stands for a 2 in a chain)" if stands[TWO] else ""
        raise IllegalActionError(f"{written!r} is not a DouDizhu combination{chain}")
    if not readings:
        raise IllegalActionError(f"{written!r}: a wild card used as a kicker stands for its own rank; the "
                                 f"substituted cards must be in the {classic[0].category.label}'s main part")
    move = _move(pack(played), pack(stands), readings[0], _mask(wild))
    raise IllegalActionError(f"{written!r} ({move.label}) does not beat {follow.notation!r} "  # type: ignore[union-attr]
                             f"({follow.label})")  # type: ignore[union-attr]


def _readings(played: Counts, stands: Counts, wild: Sequence[int], rules: DouDizhuRules) -> list[Reading]:
    """Every reading of the cards ``played`` standing for ``stands``."""
    whole, meant = pack(played), pack(stands)
    return [reading for p, e, reading in _candidates(played, wild, rules, None) if p == whole and e == meant]


def _written(played: Counts, stands: Counts) -> str:
    return format_cards(played) if played == stands else f"{format_cards(played)}={format_cards(stands)}"


def _check_substitution(played: Counts, stands: Counts, wild: Sequence[int]) -> None:
    """Refuse a text whose stated cards no substitution of its wild cards can give, naming the card and rule."""
    written = _written(played, stands)
    if sum(stands) != sum(played):
        raise IllegalActionError(f"{written!r}: {sum(played)} cards cannot stand for {sum(stands)}")
    if played == stands:
        return
    if not wild:
        raise IllegalActionError(f"{written!r}: no rank is wild here, so every card stands for itself")
    for joker in (SMALL_JOKER, BIG_JOKER):
        if stands[joker] != played[joker]:
            raise IllegalActionError(f"{written!r}: a wild card never stands for a joker")
    for rank in range(SMALL_JOKER):
        if rank not in wild and stands[rank] < played[rank]:
            raise IllegalActionError(f"{written!r}: {format_cards(_ranks([rank]))} is not a wild card (more "
                                     f"substitutions than wild cards); only {format_cards(_ranks(wild))} cards "
                                     f"stand for other ranks")
    if sum(played[w] for w in wild) == sum(played):
        raise IllegalActionError(f"{written!r}: wild cards played only with wild cards stand for their own rank")


def _ranks(ranks: Sequence[int]) -> list[int]:
    return [int(r in ranks) for r in range(NUM_RANKS)]


reference_legal_moves = legal_moves
legal_moves = fast("paiju.games.doudizhu._wild_fast", "legal_moves", legal_moves)
