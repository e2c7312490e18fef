"""ScrofaZero's 434 inputs: the exact layout on hand-built positions (hands, diffuse trick cards at both ends of the
deck, collected scoring cards), relative seats, a slow reference encoder, batches, the averaged input of §8.13."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents.scrofazero.features import (
    COLLECTED_START,
    INPUT_SIZE,
    TRICK_SLOTS,
    TRICK_START,
    encode_batch,
    encode_state,
    legal_masks,
)
from paiju.games.gongzhu import RANKS, SCORING_CARDS, Gongzhu
from paiju.games.gongzhu.cards import CARD_INDEX, cards_of

GAME = Gongzhu()
# Seat 0 leads SA (seat 1 must follow with SQ; seats 2, 3 are void in spades) and wins SQ + HA; then it leads D2,
# seat 1 (hearts only) throws H2, seat 2 follows DJ and seat 3 wins with DA: seat 3 collects H2 + DJ.
HANDS = [
    "S2 S3 S4 S5 S6 S7 S8 S9 S10 SJ SK SA D2",
    "SQ H2 H3 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK",
    "HA DJ C10 D3 D4 D5 D6 D7 D8 D9 D10 DQ DK",
    "DA C2 C3 C4 C5 C6 C7 C8 C9 CJ CQ CK CA",
]
PLAYS = ["SA", "SQ", "HA", "C2", "D2", "H2", "DJ", "DA"]


def built(plays: list[str]):
    state = GAME.from_deal([hand.split() for hand in HANDS])
    for card in plays:
        state.apply(card)
    return state


def hand_row(encoded: np.ndarray, row: int) -> set[str]:
    return {card for card, index in CARD_INDEX.items() if encoded[52 * row + index] == 1}


def trick_row(encoded: np.ndarray, row: int) -> list[int]:
    start = TRICK_START + TRICK_SLOTS * row
    return np.flatnonzero(encoded[start:start + TRICK_SLOTS]).tolist()


def collected_row(encoded: np.ndarray, row: int) -> set[str]:
    start = COLLECTED_START + 16 * row
    return {SCORING_CARDS[column] for column in np.flatnonzero(encoded[start:start + 16])}


def reference(state) -> np.ndarray:
    """The layout written out card by card from names, as the module docstring states it."""
    encoded = np.zeros(INPUT_SIZE, dtype=np.float32)
    me = state.to_move
    for row in range(4):
        for card in state.hand((me + row) % 4):
            encoded[52 * row + CARD_INDEX[card]] = 1
        for card in cards_of(state.taken[(me + row) % 4]):
            encoded[COLLECTED_START + 16 * row + SCORING_CARDS.index(card)] = 1
    for row, card in enumerate(reversed(state.trick)):
        for slot in (card, card + 1, card + 2):
            encoded[TRICK_START + TRICK_SLOTS * row + slot] = 1
    return encoded


def random_state(seed: int, moves: int):
    rng = random.Random(seed)
    state = GAME.new_state(seed)
    for _ in range(moves):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_sizes_add_up_to_the_papers_434():
    assert (INPUT_SIZE, TRICK_START, COLLECTED_START) == (434, 208, 370)
    assert tuple(SCORING_CARDS) == ("SQ", *(f"H{rank}" for rank in RANKS), "DJ", "C10")


def test_hands_start_with_the_player_to_move_then_follow_play_order():
    encoded = encode_state(built(["SA", "SQ"]))  # seat 2 to move
    assert [hand_row(encoded, row) for row in range(4)] == [
        set(HANDS[2].split()), set(HANDS[3].split()), set(HANDS[0].split()) - {"SA"},
        set(HANDS[1].split()) - {"SQ"}]
    assert encoded[52 * 0 + CARD_INDEX["HA"]] == 1 and encoded[52 * 2 + CARD_INDEX["S2"]] == 1
    assert encoded[52 * 3 + CARD_INDEX["HK"]] == 1 and encoded[52 * 1 + CARD_INDEX["CA"]] == 1


def test_trick_cards_are_diffused_most_recent_first_including_both_ends_of_the_deck():
    state = GAME.from_deal([["S2", *HANDS[0].split()[1:-1], "SQ"], ["CA", *HANDS[1].split()[1:]],
                            HANDS[2].split(), ["D2", *HANDS[3].split()[1:-1], "DA"]])
    state.apply("S2")  # seat 0 leads the lowest card (index 0)
    state.apply("CA")  # seat 1, void in spades, throws the highest card (index 51)
    encoded = encode_state(state)  # seat 2 to move
    assert trick_row(encoded, 0) == [51, 52, 53]  # seat 1's CA: slots 51..53, the right end
    assert trick_row(encoded, 1) == [0, 1, 2]  # seat 0's S2: slots 0..2, the left end
    assert trick_row(encoded, 2) == []
    state.apply("D7")  # seat 2, void in spades: index 31
    encoded = encode_state(state)  # seat 3 to move
    assert [trick_row(encoded, row) for row in range(3)] == [[31, 32, 33], [51, 52, 53], [0, 1, 2]]
    assert encoded[TRICK_START:COLLECTED_START].sum() == 9


def test_leading_a_trick_sees_an_empty_table():
    encoded = encode_state(built(PLAYS[:4]))
    assert not encoded[TRICK_START:COLLECTED_START].any()


def test_collected_scoring_cards_by_relative_seat():
    state = built(PLAYS)  # seat 3 won the second trick and leads
    assert state.to_move == 3
    encoded = encode_state(state)
    assert [collected_row(encoded, row) for row in range(4)] == [{"H2", "DJ"}, {"SQ", "HA"}, set(), set()]
    assert encoded[COLLECTED_START + SCORING_CARDS.index("SQ") + 16] == 1
    state.apply("C3")  # seat 0 to move: its own collection comes first
    assert [collected_row(encode_state(state), row) for row in range(4)] == [{"SQ", "HA"}, set(), set(),
                                                                              {"H2", "DJ"}]


def test_non_scoring_cards_taken_are_not_collected():
    encoded = encode_state(built(PLAYS[:4]))  # seat 0 won SA, SQ, HA, C2
    assert encoded[COLLECTED_START:].sum() == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 51))
def test_matches_the_reference_encoder(seed, moves):
    state = random_state(seed, moves)
    encoded = encode_state(state)
    assert encoded.dtype == np.float32 and encoded.shape == (INPUT_SIZE,)
    np.testing.assert_array_equal(encoded, reference(state))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 51), st.integers(1, 3))
def test_rotating_the_seats_does_not_change_the_inputs(seed, moves, shift):
    rng = random.Random(seed)
    state, rotated = GAME.new_state(seed), GAME.rotated_state(seed, shift=shift)
    for _ in range(moves):
        card = rng.choice(state.legal_actions())
        state.apply(card)
        rotated.apply(card)
    assert rotated.to_move == (state.to_move + shift) % 4
    np.testing.assert_array_equal(encode_state(state), encode_state(rotated))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 51)), min_size=1, max_size=12))
def test_a_batch_is_its_states_one_by_one_even_in_a_dirty_buffer(specs):
    states = [random_state(seed, moves) for seed, moves in specs]
    buffer = np.full((len(states) + 3, INPUT_SIZE), 7, dtype=np.float32)
    rows = encode_batch(states, buffer)
    assert rows.shape == (len(states), INPUT_SIZE) and np.shares_memory(rows, buffer)
    np.testing.assert_array_equal(rows, np.stack([encode_state(state) for state in states]))
    assert (buffer[len(states):] == 7).all()
    np.testing.assert_array_equal(encode_batch(states), rows)


def test_an_empty_batch():
    assert encode_batch([]).shape == (0, INPUT_SIZE)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 51))
def test_a_scenario_encodes_like_the_truth_on_what_its_seat_sees(seed, moves):
    state = random_state(seed, moves)
    scenario = GAME.determinize(state.observation(state.to_move), random.Random(seed))
    true, guessed = encode_state(state), encode_state(scenario)
    np.testing.assert_array_equal(true[:52], guessed[:52])
    np.testing.assert_array_equal(true[TRICK_START:], guessed[TRICK_START:])
    # §8.13: with the other hands averaged, the inputs depend only on what the seat to move can see
    averaged = encode_state(state, average_others=True)
    np.testing.assert_array_equal(averaged, encode_state(scenario, average_others=True))
    np.testing.assert_array_equal(averaged[:52], true[:52])
    np.testing.assert_array_equal(averaged[TRICK_START:], true[TRICK_START:])
    others = true[52:TRICK_START].reshape(3, 52).sum(axis=0) / 3
    np.testing.assert_array_equal(averaged[52:TRICK_START].reshape(3, 52), np.tile(others, (3, 1)))


def test_averaged_hands_put_a_third_on_every_unseen_card():
    encoded = encode_state(built([]), average_others=True)
    assert set(np.unique(encoded[52:TRICK_START]).tolist()) == {0.0, np.float32(1 / 3)}
    assert encoded[52 + CARD_INDEX["SQ"]] == encoded[104 + CARD_INDEX["SQ"]] == np.float32(1 / 3)
    assert encoded[52 + CARD_INDEX["S2"]] == 0  # seat 0's own card


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 52))
def test_legal_masks_are_the_legal_cards(seed, moves):
    state = random_state(seed, moves)
    mask = legal_masks([state])[0]
    assert mask.dtype == bool and mask.shape == (52,)
    assert {card for card, index in CARD_INDEX.items() if mask[index]} == set(state.legal_actions())


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="over"):
        encode_state(random_state(3, 52))
    with pytest.raises(ValueError, match="float32"):
        encode_batch([built([])], np.zeros((1, INPUT_SIZE), dtype=np.float64))
    with pytest.raises(ValueError, match="at least 2 rows"):
        encode_batch([built([]), built([])], np.zeros((1, INPUT_SIZE), dtype=np.float32))
