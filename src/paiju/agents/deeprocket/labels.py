"""DeepRocket's DouDizhu action labels: 309 policy labels for the main part, 28 kicker labels for the rest.

Source: DeepRocket, Table 3 (policy network outputs) and the kicker network's 28 outputs. The labels are
PerfectDou's 621 abstract actions (``abstract_actions``) with trio+solo (182) and trio+pair (156) collapsed
to their trio rank (13 each), listed in Table 3's order:

| labels    | category (count)                                                   |
| --------- | ------------------------------------------------------------------ |
| 0-14      | solo (15), ranks 3..R                                              |
| 15-50     | solo chain (36): length 5..12, then lowest rank                    |
| 51-63     | pair (13), ranks 3..2                                              |
| 64-115    | pair chain (52): length 3..10, then lowest rank                    |
| 116-128   | trio (13)                                                          |
| 129-173   | plane (45): length 2..6, then lowest rank                          |
| 174-186   | trio+solo (13): trio rank, 1 solo kicker                           |
| 187-224   | plane+solos (38): length 2..5, then lowest rank; L solo kickers    |
| 225-237   | trio+pair (13): trio rank, 1 pair kicker                           |
| 238-267   | plane+pairs (30): length 2..4, then lowest rank; L pair kickers    |
| 268-280   | four+two solos (13): 2 solo kickers                                |
| 281-293   | four+two pairs (13): 2 pair kickers                                |
| 294-306   | bomb (13)                                                          |
| 307       | rocket                                                             |
| 308       | pass                                                               |

Kicker labels (the kicker network's outputs): 0-14 one solo card of rank 3..R (label = rank), 15-27 one
pair of rank 3..2 (label = 15 + rank). A play's kickers are its cards minus the main part, cut into units
(solo cards or pairs) and listed in ascending label order; kickers may repeat (``333444`` + ``55`` is
solos 5, 5; with ``bomb_as_kickers`` a four of kickers is four solos or two pairs). The kicker network
picks them one at a time, lowest first (``kicker_choices``).

A ``Move``'s interpretation (category, main rank, length) fixes its label, as in ``abstract_actions``:
with ``bomb_as_kickers``, ``33334444`` played as ``4444`` + pairs ``33 33`` has the label of four+two pairs
4444 and kickers (33, 33); played as ``3333`` + ``44 44`` it has 3333's label and kickers (44, 44).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from paiju.core.errors import IllegalActionError
from paiju.games.doudizhu import abstract_actions as _aa
from paiju.games.doudizhu.cards import NUM_RANKS, RANKS, format_cards
from paiju.games.doudizhu.moves import CHAIN_SHAPES, Category, Move

LABEL_COUNT = 309
KICKER_COUNT = 28
PASS_LABEL = 308
ROCKET_LABEL = 307
PAIR_KICKER_OFFSET = NUM_RANKS
"""Kicker label of a pair of rank r: ``PAIR_KICKER_OFFSET + r`` (solo kicker of rank r: ``r``)."""

_ORDER = (
    Category.SOLO, Category.SOLO_CHAIN, Category.PAIR, Category.PAIR_CHAIN, Category.TRIO, Category.PLANE,
    Category.TRIO_SOLO, Category.PLANE_SOLOS, Category.TRIO_PAIR, Category.PLANE_PAIRS, Category.FOUR_TWO_SOLOS,
    Category.FOUR_TWO_PAIRS, Category.BOMB, Category.ROCKET, Category.PASS,
)
"""Table 3's category order."""
LABEL_CATEGORIES: tuple[str, ...] = tuple(category.label for category in _ORDER)
_CATEGORY_INDEX = {category: i for i, category in enumerate(_ORDER)}

# Kicker kind of each kicked category and the kicker units per length of the main part (fours: 2).
_SOLO_KICKED = {Category.TRIO_SOLO, Category.PLANE_SOLOS, Category.FOUR_TWO_SOLOS}
_PAIR_KICKED = {Category.TRIO_PAIR, Category.PLANE_PAIRS, Category.FOUR_TWO_PAIRS}
_FOURS = {Category.FOUR_TWO_SOLOS, Category.FOUR_TWO_PAIRS}
# Copies per rank of the main part, for the label's text.
_COPIES = {
    Category.SOLO: 1, Category.PAIR: 2, Category.TRIO: 3, Category.TRIO_SOLO: 3, Category.TRIO_PAIR: 3,
    Category.PLANE_SOLOS: 3, Category.PLANE_PAIRS: 3, Category.FOUR_TWO_SOLOS: 4, Category.FOUR_TWO_PAIRS: 4,
    Category.BOMB: 4, **{category: shape[0] for category, shape in CHAIN_SHAPES.items()},
}

_Main = tuple[Category, int, int]
"""(category, main rank, length): what a label fixes of a play."""


@cache
def _table() -> tuple[tuple[_Main, ...], tuple[int, ...]]:
    """The 309 labels' main parts in Table 3 order, and the label of each of the 621 abstract actions."""
    abstract_keys = _aa._table()[0]
    mains = list(dict.fromkeys(key[:3] for key in abstract_keys))
    mains.sort(key=lambda main: _CATEGORY_INDEX[main[0]])  # stable: the abstract listing's order within a category
    if len(mains) != LABEL_COUNT:
        raise AssertionError(f"the DeepRocket label table has {len(mains)} entries, expected {LABEL_COUNT}")
    index = {main: label for label, main in enumerate(mains)}
    return tuple(mains), tuple(index[key[:3]] for key in abstract_keys)


_KICKERS_OF_MOVE: dict[Move, tuple[int, ...]] = {}
"""Memo of ``kicker_labels``: moves are interned."""


def _check_label(label: int) -> int:
    if isinstance(label, bool) or not isinstance(label, int | np.integer) or not 0 <= label < LABEL_COUNT:
        raise IllegalActionError(f"a DeepRocket label is an integer 0..{LABEL_COUNT - 1}, got {label!r}")
    return int(label)


def _check_kicker(kicker: int) -> int:
    if isinstance(kicker, bool) or not isinstance(kicker, int | np.integer) or not 0 <= kicker < KICKER_COUNT:
        raise IllegalActionError(f"a DeepRocket kicker label is an integer 0..{KICKER_COUNT - 1}, got {kicker!r}")
    return int(kicker)


def _check_move(move: Move) -> Move:
    if not isinstance(move, Move):
        raise IllegalActionError(f"a DeepRocket label is computed from a Move, got {move!r}")
    return move


def main_label(move: Move) -> int:
    """The label (0..308) of a play: its category, main rank and length (the kicker kind goes with the
    category); a trio+solo / trio+pair is labelled by its trio alone."""
    return _table()[1][_aa.abstract_index(_check_move(move))]


def label_category(label: int) -> int:
    """Index into ``LABEL_CATEGORIES`` of the label's category."""
    return _CATEGORY_INDEX[_table()[0][_check_label(label)][0]]


def category_of_move(move: Move) -> int:
    """Index into ``LABEL_CATEGORIES`` of a play's category."""
    return _CATEGORY_INDEX[_check_move(move).category]


def kicker_kind(label: int) -> str | None:
    """``"solo"`` or ``"pair"`` for the kicked categories, ``None`` for the others."""
    category = _table()[0][_check_label(label)][0]
    if category in _SOLO_KICKED:
        return "solo"
    return "pair" if category in _PAIR_KICKED else None


def kicker_count(label: int) -> int:
    """Kicker units (solo cards or pairs) the label needs: 1 for trio+solo / trio+pair, the length L for a
    plane with kickers, 2 for a four with two, 0 otherwise."""
    category, _, length = _table()[0][_check_label(label)]
    if category in _FOURS:
        return 2
    return length if category in _SOLO_KICKED or category in _PAIR_KICKED else 0


def kicker_labels(move: Move) -> tuple[int, ...]:
    """The play's kicker units as kicker labels in ascending order (empty for unkicked categories)."""
    kickers = _KICKERS_OF_MOVE.get(_check_move(move))
    if kickers is None:
        category = move.category
        if category in (Category.TRIO_SOLO, Category.TRIO_PAIR):
            units = [(r, 1) for r, n in enumerate(move.counts) if n and r != move.rank]
        else:
            units = list(_aa._kicker_units(move))
        offset = PAIR_KICKER_OFFSET if category in _PAIR_KICKED else 0
        kickers = tuple(offset + r for r, n in units for _ in range(n))
        _KICKERS_OF_MOVE[move] = kickers
    return kickers


def label_text(label: int) -> str:
    """The label for reports: the main part's cards with the kickers it needs (``333444+2 solos``,
    ``3333+2 pairs``, ``333+1 solo``), ``BR`` or ``pass``."""
    category, rank, length = _table()[0][_check_label(label)]
    if category is Category.PASS:
        return "pass"
    if category is Category.ROCKET:
        return "BR"
    counts = [0] * NUM_RANKS
    for r in range(rank, rank + length):
        counts[r] = _COPIES[category]
    text = format_cards(counts)
    units = kicker_count(label)
    if units:
        text += f"+{units} {kicker_kind(label)}{'s' if units > 1 else ''}"
    return text


def kicker_text(kicker: int) -> str:
    """A kicker label's cards: ``5`` for a solo 5, ``55`` for a pair of 5s."""
    kicker = _check_kicker(kicker)
    return RANKS[kicker] if kicker < PAIR_KICKER_OFFSET else RANKS[kicker - PAIR_KICKER_OFFSET] * 2


def group_by_label(legal: Sequence[Move]) -> dict[int, list[Move]]:
    """The legal plays by label, labels in order of first appearance, plays in ``legal``'s order."""
    groups: dict[int, list[Move]] = {}
    for move in legal:
        groups.setdefault(main_label(move), []).append(move)
    return groups


def _check_kickers(kickers: Sequence[int]) -> tuple[int, ...]:
    return tuple(_check_kicker(k) for k in kickers)


def kicker_choices(moves: Sequence[Move], chosen: Sequence[int]) -> list[int]:
    """The kicker labels that may come next, ascending, given the legal plays of one label and the kickers
    chosen so far in ascending order: each next kicker of a play whose kicker labels start with ``chosen``
    (so never below the last chosen). Empty when no play has more kickers after ``chosen``."""
    chosen = _check_kickers(chosen)
    if list(chosen) != sorted(chosen):
        raise IllegalActionError(f"chosen kickers are listed in ascending order, got {list(chosen)}")
    labels = {main_label(move) for move in moves}
    if len(labels) > 1:
        raise IllegalActionError(f"kicker choices are among the plays of one label, got labels {sorted(labels)}")
    depth = len(chosen)
    found: set[int] = set()
    for move in moves:
        kickers = kicker_labels(move)
        if len(kickers) > depth and kickers[:depth] == chosen:
            found.add(kickers[depth])
    return sorted(found)


def move_for(label: int, kickers: Sequence[int], legal: Sequence[Move]) -> Move:
    """The legal play with this label and these kicker labels (in any order).

    Raises ``IllegalActionError`` naming the label and kickers when the count of kickers is not the label's
    or no legal play has them.
    """
    label = _check_label(label)
    wanted = tuple(sorted(_check_kickers(kickers)))
    needed = kicker_count(label)
    if len(wanted) != needed:
        raise IllegalActionError(f"label {label} ({label_text(label)!r}) takes {needed} kicker(s), "
                                 f"got {len(wanted)}: {list(wanted)}")
    for move in legal:
        if main_label(move) == label and kicker_labels(move) == wanted:
            return move
    shown = " ".join(kicker_text(k) for k in wanted)
    raise IllegalActionError(f"label {label} ({label_text(label)!r}) with kickers {list(wanted)}"
                             f"{f' ({shown})' if shown else ''} is not a legal play")


def label_mask(legal: Sequence[Move]) -> np.ndarray:
    """Boolean mask [309] of the labels of the legal plays."""
    mask = np.zeros(LABEL_COUNT, dtype=bool)
    for move in legal:
        mask[main_label(move)] = True
    return mask


def kicker_mask(choices: Sequence[int]) -> np.ndarray:
    """Boolean mask [28] of the kicker labels in ``choices`` (as ``kicker_choices`` returns them)."""
    mask = np.zeros(KICKER_COUNT, dtype=bool)
    for kicker in choices:
        mask[_check_kicker(kicker)] = True
    return mask


__all__ = [
    "KICKER_COUNT",
    "LABEL_CATEGORIES",
    "LABEL_COUNT",
    "PAIR_KICKER_OFFSET",
    "PASS_LABEL",
    "ROCKET_LABEL",
    "category_of_move",
    "group_by_label",
    "kicker_choices",
    "kicker_count",
    "kicker_kind",
    "kicker_labels",
    "kicker_mask",
    "kicker_text",
    "label_category",
    "label_mask",
    "label_text",
    "main_label",
    "move_for",
]
