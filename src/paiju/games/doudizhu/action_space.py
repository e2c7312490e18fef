"""A fixed index over every DouDizhu action: pass, the 27,471 plays of the standard ruleset, the 4 bids.

The plays are the card multisets of ``legal_moves(FULL_DECK, None, DouDizhuRules())`` — the standard
ruleset's 14 categories, the same 27,472-play space (with pass) as DouZero and RLCard. The index is over
*card multisets*, not interpretations: ``444555666777`` is one index whether it is played as a 4-trio plane
or, following, as a 3-trio plane with kickers. ``action_at`` returns a play in its canonical (leading)
interpretation; to turn an index into the play legal in a position, look it up among that position's
legal actions (``action_indices``).

| index           | action                                                                          |
| --------------- | ------------------------------------------------------------------------------- |
| 0               | pass (``PASS``)                                                                 |
| 1 .. 27,471     | plays, sorted by (category, length, main rank, cards) of their canonical reading |
| 27,472 .. 27,475| bids 0 (no bid), 1, 2, 3 (full mode)                                             |

Categories follow ``Category`` (solo, pair, trio, trio+solo, trio+pair, solo chain, pair chain, plane,
plane+solos, plane+pairs, four+two solos, four+two pairs, bomb, rocket); so index 1 is the solo 3, index
27,471 the rocket. Plays that exist only under the variant options ``rocket_as_kickers`` or
``bomb_as_kickers`` are outside the index (``action_index`` names them); ``no_four_with_two`` only removes
plays, so its plays are all inside.

The index is built on first use (0.1–0.2 s measured on a 2-core machine) and cached for the process.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from paiju.core.errors import IllegalActionError
from paiju.games.doudizhu.cards import FULL_DECK
from paiju.games.doudizhu.movegen import legal_moves
from paiju.games.doudizhu.moves import PASS, Move
from paiju.games.doudizhu.rules import DouDizhuRules

PASS_INDEX = 0
PLAY_COUNT = 27_472
"""Pass and the 27,471 plays of the standard ruleset."""
BID_OFFSET = PLAY_COUNT
"""Index of bid 0; bid ``b`` is at ``BID_OFFSET + b``."""
BID_COUNT = 4
ACTION_COUNT = PLAY_COUNT + BID_COUNT

Action = Move | int


@cache
def plays() -> tuple[Move, ...]:
    """Every play of the index in index order: ``plays()[i]`` is the action at index ``i < PLAY_COUNT``."""
    moves = legal_moves(FULL_DECK, None, DouDizhuRules())
    moves.sort(key=lambda m: (m.category, m.length, m.rank, m.cards))
    ordered = (PASS, *moves)
    if len(ordered) != PLAY_COUNT:
        raise AssertionError(f"the standard ruleset has {len(ordered)} plays, expected {PLAY_COUNT}")
    return ordered


@cache
def _index_by_packed() -> dict[int, int]:
    return {move.packed: index for index, move in enumerate(plays())}


@cache
def play_counts() -> np.ndarray:
    """Card counts per rank of every play, ``[PLAY_COUNT, 15]`` int8, row ``i`` for index ``i``."""
    counts = np.array([move.counts for move in plays()], dtype=np.int8)
    counts.flags.writeable = False
    return counts


def action_index(action: Action) -> int:
    """The index of a play (``Move``, any interpretation of its cards) or of a bid (``int`` 0..3)."""
    if isinstance(action, Move):
        index = _index_by_packed().get(action.packed)
        if index is None:
            raise IllegalActionError(f"play {action.cards!r} ({action.category.label}) is outside the standard "
                                     "action index: it exists only under rocket_as_kickers or bomb_as_kickers")
        return index
    if isinstance(action, int | np.integer) and not isinstance(action, bool) and 0 <= action < BID_COUNT:
        return BID_OFFSET + int(action)
    raise IllegalActionError(f"a DouDizhu action is a Move or a bid 0..3, got {action!r}")


def action_at(index: int) -> Action:
    """The action at ``index``: a play in its canonical interpretation, or a bid ``int``."""
    if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < ACTION_COUNT:
        raise IllegalActionError(f"a DouDizhu action index is an integer 0..{ACTION_COUNT - 1}, got {index!r}")
    if index >= BID_OFFSET:
        return int(index) - BID_OFFSET
    return plays()[index]


def action_indices(actions: Sequence[Action]) -> np.ndarray:
    """Indices of ``actions`` (e.g. a position's legal actions), int64, in the same order."""
    by_packed = _index_by_packed()
    try:
        return np.fromiter((by_packed[a.packed] for a in actions), dtype=np.int64, count=len(actions))
    except (KeyError, AttributeError):  # bids, or a play outside the index: action_index names it
        return np.fromiter((action_index(a) for a in actions), dtype=np.int64, count=len(actions))


def action_mask(actions: Sequence[Action]) -> np.ndarray:
    """A ``[ACTION_COUNT]`` int8 mask, 1 at the index of each of ``actions``."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    mask[action_indices(actions)] = 1
    return mask


__all__ = [
    "ACTION_COUNT",
    "BID_COUNT",
    "BID_OFFSET",
    "PASS_INDEX",
    "PLAY_COUNT",
    "action_at",
    "action_index",
    "action_indices",
    "action_mask",
    "play_counts",
    "plays",
]
