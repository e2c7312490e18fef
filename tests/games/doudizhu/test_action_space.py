"""The fixed DouDizhu action index: size, order, bijection, and coverage of every legal action."""

import random
import subprocess
import sys

import numpy as np
import pytest

import paiju
from paiju.core.errors import IllegalActionError
from paiju.games.doudizhu import PASS, Category, DouDizhuRules, Move, parse_move
from paiju.games.doudizhu.action_space import (
    ACTION_COUNT,
    BID_OFFSET,
    PLAY_COUNT,
    action_at,
    action_index,
    action_indices,
    action_mask,
    play_counts,
    plays,
)
from paiju.games.doudizhu.cards import RANK_INDEX
from paiju.games.doudizhu.moves import make_move


def test_sizes_are_the_standard_plays_pass_and_four_bids():
    assert PLAY_COUNT == 27_472
    assert ACTION_COUNT == 27_472 + 4
    assert len(plays()) == PLAY_COUNT
    assert len({move.packed for move in plays()}) == PLAY_COUNT
    assert play_counts().shape == (PLAY_COUNT, 15)


def test_order_is_pass_then_category_length_rank_cards():
    assert plays()[0] is PASS
    keys = [(m.category, m.length, m.rank, m.cards) for m in plays()[1:]]
    assert keys == sorted(keys)
    assert plays()[1].cards == "3" and plays()[1].category is Category.SOLO
    assert plays()[-1].category is Category.ROCKET
    assert [action_at(BID_OFFSET + b) for b in range(4)] == [0, 1, 2, 3]


def test_index_is_a_bijection():
    for index in range(ACTION_COUNT):
        assert action_index(action_at(index)) == index
    assert action_indices(list(plays())).tolist() == list(range(PLAY_COUNT))


def test_counts_table_matches_the_plays():
    rows = play_counts()
    for index in (0, 1, 500, 13_000, PLAY_COUNT - 1):
        assert tuple(rows[index]) == plays()[index].counts


def test_index_is_over_card_multisets_not_interpretations():
    plane = parse_move("444555666777", DouDizhuRules())
    assert plane.category is Category.PLANE and plane.length == 4
    as_kickers = make_move(plane.counts, Category.PLANE_SOLOS, RANK_INDEX["4"], 3)
    assert as_kickers != plane
    assert action_index(as_kickers) == action_index(plane)
    assert action_at(action_index(as_kickers)) is plane


@pytest.mark.parametrize("mode", ["research", "full"])
def test_every_legal_action_of_random_games_is_indexed(mode):
    game = paiju.load_game("doudizhu")
    rules = DouDizhuRules(mode=mode)
    decisions = 0
    for seed in range(60):
        state = game.new_state(seed, rules)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            indices = action_indices(legal)
            assert len(set(indices.tolist())) == len(legal)
            for action, index in zip(legal, indices.tolist(), strict=True):
                indexed = action_at(index)
                if isinstance(action, Move):
                    assert isinstance(indexed, Move) and indexed.packed == action.packed
                else:
                    assert indexed == action and index >= BID_OFFSET
            mask = action_mask(legal)
            assert mask.dtype == np.int8 and mask.sum() == len(legal) and mask[indices].all()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    assert decisions > 1000


def test_bad_actions_and_indices_are_named():
    with pytest.raises(IllegalActionError, match=r"0\.\.27475"):
        action_at(ACTION_COUNT)
    with pytest.raises(IllegalActionError, match=r"0\.\.27475"):
        action_at(-1)
    with pytest.raises(IllegalActionError, match="integer"):
        action_at(True)
    with pytest.raises(IllegalActionError, match=r"bid 0\.\.3"):
        action_index(4)
    with pytest.raises(IllegalActionError, match=r"bid 0\.\.3"):
        action_index("33")
    variant = parse_move("3333BR", DouDizhuRules(rocket_as_kickers=True))
    with pytest.raises(IllegalActionError, match="outside the standard action index"):
        action_index(variant)
    with pytest.raises(IllegalActionError, match="outside the standard action index"):
        action_indices([PASS, variant])


def test_index_is_built_on_first_use_not_on_import():
    probe = ("import paiju.games.doudizhu.action_space as a; "
             "print(a.plays.cache_info().currsize); a.action_at(5); print(a.plays.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1"]
