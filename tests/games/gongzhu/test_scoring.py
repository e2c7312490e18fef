"""Scoring: the spec's check values, all hearts, the transformer (C10), teams."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.core.errors import CardError
from paiju.games.gongzhu import CARD_NAMES, SCORING_CARDS, player_score, seat_results, team_scores
from paiju.games.gongzhu.cards import mask_of
from paiju.games.gongzhu.scoring import mask_score

HEARTS = [f"H{rank}" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def test_scoring_cards_are_the_hearts_the_pig_the_sheep_and_the_transformer():
    assert set(SCORING_CARDS) == {*HEARTS, "SQ", "DJ", "C10"}


@pytest.mark.parametrize(("cards", "score"), [
    (SCORING_CARDS, 400),  # spec check: all 16 scoring cards
    (["SQ", "C10"], -200),  # spec check
    (["DJ", "C10"], 200),  # spec check
    (["C10", "H2"], 0),  # spec check: a zero-point heart still makes C10 double
    (["C10"], 50),
    ([], 0),
    (["SQ"], -100),
    (["DJ"], 100),
    (["SQ", "DJ"], 0),
    (["SQ", "DJ", "C10"], 0),
    (["H2", "H3", "H4"], 0),
    (["H5"], -10), (["H10"], -10), (["HJ"], -20), (["HQ"], -30), (["HK"], -40), (["HA"], -50),
    (["HA", "HK", "HQ", "HJ"], -140),
    (HEARTS, 200),  # all hearts
    (HEARTS[1:], -200),  # twelve hearts are scored as usual
    ([*HEARTS, "SQ"], 100),
    ([*HEARTS, "DJ"], 300),
    ([*HEARTS, "C10"], 400),
    ([*HEARTS, "SQ", "C10"], 200),
    ([*HEARTS[3:], "C10"], -400),
    (["SQ", "HA", "C10", "S2", "CA", "DQ"], -300),  # non-scoring cards count for nothing
    (["C10", "S2", "CA"], 50),
])
def test_player_score(cards, score):
    assert player_score(cards) == score


def test_each_heart_scores_the_spec_value():
    values = [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50]
    assert [player_score([heart]) for heart in HEARTS] == values
    assert sum(values) == -200


def test_player_score_refuses_bad_or_repeated_cards():
    with pytest.raises(CardError, match="counted twice"):
        player_score(["SQ", "sq"])
    with pytest.raises(CardError, match="unknown card 'S1'"):
        player_score(["S1"])


def reference_score(cards: set[str]) -> int:
    """The spec's rule written out plainly, card by card."""
    points = dict(zip(HEARTS, [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50], strict=True))
    hearts = [card for card in cards if card in points]
    total = 200 if len(hearts) == 13 else sum(points[card] for card in hearts)
    total += -100 * ("SQ" in cards) + 100 * ("DJ" in cards)
    if "C10" in cards:
        others = [card for card in cards if card in points or card in ("SQ", "DJ")]
        return 2 * total if others else 50
    return total


@given(st.sets(st.sampled_from(CARD_NAMES)))
def test_mask_score_matches_the_rule_written_out(cards):
    assert mask_score(mask_of(cards)) == player_score(cards) == reference_score(cards)


@given(st.sets(st.sampled_from(SCORING_CARDS)) | st.just(set(HEARTS)) | st.just(set(HEARTS) | {"C10", "SQ"}))
def test_scoring_card_subsets_match_the_rule_written_out(cards):
    assert player_score(cards) == reference_score(cards)


def test_teams_are_opposite_seats_and_results_sum_to_zero():
    scores = [400, -100, -50, 0]
    assert team_scores(scores) == (350, -100)
    assert seat_results(scores) == [450, -450, 450, -450]
    assert sum(seat_results([50, -480, 0, -10])) == 0
