"""The compiled modules' copies of Python constants (enum values, ranks, limits, tables) equal the Python values.

A ``cdef enum`` or ``cdef`` constant of a ``.pyx``/``.pxd`` is not visible from Python, so each engine module
that restates Python constants returns their compiled values from ``mirrored_constants()``; they are compared
here, name by name, with the Python modules' values (a module that is not built is skipped, unless
``PAIJU_NATIVE=1`` asks for the compiled path).
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

import pytest

from paiju.agents.rules import counting, guandan_plan
from paiju.agents.rules import doudizhu as doudizhu_rules
from paiju.agents.rules import guandan as guandan_rules
from paiju.games.doudizhu import cards as doudizhu_cards
from paiju.games.doudizhu import moves
from paiju.games.doudizhu.moves import Category
from paiju.games.gongzhu import cards as gongzhu_cards
from paiju.games.guandan import cards as guandan_cards
from paiju.games.guandan import combos, legal
from paiju.games.guandan.combos import ComboType

DOUDIZHU_CATEGORIES = {("PASS_CATEGORY" if category is Category.PASS else category.name): category.value
                       for category in Category}
GUANDAN_TYPES = {combo.name: combo.value for combo in ComboType if combo is not ComboType.PASS}
DOUDIZHU_CHAINS = [moves.CHAIN_SHAPES[Category(Category.SOLO_CHAIN + kind)] for kind in range(3)]
"""(copies per rank, shortest, longest) of the chain kinds the compiled modules number 0, 1, 2."""
CHAINS_BY_COPIES = {copies: (shortest, longest) for copies, shortest, longest in moves.CHAIN_SHAPES.values()}

EXPECTED: dict[str, dict[str, Any]] = {
    "paiju.games.doudizhu._movegen_fast": {  # with ``_constants.pxd``, which it cimports whole
        "NUM_RANKS": doudizhu_cards.NUM_RANKS,
        "TWO": doudizhu_cards.TWO,
        "SMALL_JOKER": doudizhu_cards.SMALL_JOKER,
        "BIG_JOKER": doudizhu_cards.BIG_JOKER,
        "TOP_CHAIN": moves.HIGHEST_CHAIN_RANK,
        **DOUDIZHU_CATEGORIES,
        "CHAIN_RANKS": (1 << (moves.HIGHEST_CHAIN_RANK + 1)) - 1,
        "CHAIN_MIN": [shortest for _, shortest, _ in DOUDIZHU_CHAINS],
        "CHAIN_MAX": [longest for _, _, longest in DOUDIZHU_CHAINS],
    },
    "paiju.games.doudizhu._min_steps_fast": {
        "NUM_RANKS": doudizhu_cards.NUM_RANKS,
        "SMALL_JOKER": doudizhu_cards.SMALL_JOKER,
        "BIG_JOKER": doudizhu_cards.BIG_JOKER,
        "TOP_CHAIN": moves.HIGHEST_CHAIN_RANK,
        "MIN_LENGTH": [0] + [CHAINS_BY_COPIES[copies][0] for copies in (1, 2, 3)],
        "MAX_LENGTH": [0] + [CHAINS_BY_COPIES[copies][1] for copies in (1, 2, 3)],
        "PLANE_SOLOS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_SOLOS][1],
        "PLANE_PAIRS_MOST": moves.PLANE_KICKER_SHAPES[Category.PLANE_PAIRS][1],
    },
    "paiju.games.guandan._legal_fast": {
        "NUM_RANKS": guandan_cards.NUM_RANKS,
        "JOKER_BYTE": guandan_cards.JOKER_BYTE,
        "SMALL_JOKER": guandan_cards.SMALL_JOKER,
        "BIG_JOKER": guandan_cards.BIG_JOKER,
        **{name: value for name, value in GUANDAN_TYPES.items() if name not in ("THREE_WITH_TWO", "STRAIGHT_FLUSH")},
        "FULL_HOUSE": ComboType.THREE_WITH_TWO,
        "FLUSH": ComboType.STRAIGHT_FLUSH,
        "FLUSH_TIER": combos.STRAIGHT_FLUSH_TIER,
        "MAX_BOMB": combos.MAX_BOMB,
        "COUNT": legal._COUNT,
    },
    "paiju.games.guandan._state_fast": {"CARD_BITS": combos._CARD_BITS},
    "paiju.games.gongzhu._state_fast": {"SUIT_BITS": gongzhu_cards.SUIT_BITS},
    "paiju.games.gongzhu._sampling_fast": {"SUIT_BITS": gongzhu_cards.SUIT_BITS},
}

KICKERS = [counting._KICKERS.get(Category(category), (0, 0, 0)) for category in range(len(Category))]
EXPECTED.update({
    "paiju.agents.rules._doudizhu_fast": {
        "FINISH": doudizhu_rules.FINISH,
        "SURE_WIN": doudizhu_rules.SURE_WIN,
        "MAIN_COPIES": [main for main, _, _ in KICKERS],
        "KICKER_UNITS": [units for _, units, _ in KICKERS],
        "UNIT_CARDS": [cards for _, _, cards in KICKERS],
    },
    "paiju.agents.rules._guandan_plan_fast": {
        "NUM_RANKS": guandan_cards.NUM_RANKS,
        **GUANDAN_TYPES,
        "ACE": combos.ACE,
        "SMALL_JOKER_RANK": combos.SMALL_JOKER_RANK,
        "BIG_JOKER_RANK": combos.BIG_JOKER_RANK,
        "MAX_CANDIDATES": sum(len(guandan_plan.WINDOW_RANKS[combos.CHAIN_SHAPES[kind][0]])
                              for kind in guandan_plan._PLAIN_CHAINS),
        "FINISH": guandan_rules.FINISH,
        "LOW_BITS": combos._LOW_BITS & ((1 << 64) - 1),
        "HIGH_CARD_BITS": guandan_plan.CARD_BITS >> 64,
        "CHAIN_KINDS": list(guandan_plan._PLAIN_CHAINS),
        "CHAIN_WIDTH": [combos.CHAIN_SHAPES[kind][0] for kind in guandan_plan._PLAIN_CHAINS],
        "CHAIN_COPIES": [combos.CHAIN_SHAPES[kind][1] for kind in guandan_plan._PLAIN_CHAINS],
    },
})


def compiled_module(name: str) -> ModuleType:
    """The compiled module ``name``; the test is skipped where it is not built (an error under PAIJU_NATIVE=1)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("PAIJU_NATIVE", "").strip() == "1":
            raise
        pytest.skip(f"{name} is not built here (installed without a C compiler)")


def differences(found: dict[str, Any], expected: dict[str, Any], side: str = "compiled") -> list[str]:
    """One line per name whose ``side`` value is not the Python one, or that only one side lists."""
    return [f"{name}: {side} {found.get(name, '(missing)')!r}, Python {expected.get(name, '(missing)')!r}"
            for name in sorted(found.keys() | expected.keys()) if found.get(name, ...) != expected.get(name, ...)]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_compiled_constants_equal_the_python_ones(name: str) -> None:
    module = compiled_module(name)
    assert hasattr(module, "mirrored_constants"), f"{name} is built from older sources: reinstall (make setup)"
    assert not differences(module.mirrored_constants(), EXPECTED[name])
