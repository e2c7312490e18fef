"""DanZero's 513 state and 54 action features: sizes, offsets, a hand-checked position, invariants."""


import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents.dmc import danzero_features as F
from paiju.agents.random_agent import RandomAgent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.core.registry import load_game, register_game
from paiju.games.guandan import PASS, GuanDan, legal_plays, pack, parse_cards, parse_level, unpack
from paiju.games.guandan.cards import DECK, parse_card
from paiju.games.guandan.combos import play_from_platform
from paiju.games.guandan.observation import GuanDanObservation
from paiju.games.guandan.rules import GuanDanRules
from paiju.games.guandan.tribute import Gift

SEVEN = parse_level("7")


def observe(hand: str, *, seat: int = 1, level: int = SEVEN, history=(), greater=None,
            cards_left=(27, 27, 27, 27), finished=(), self_level: int = SEVEN,
            oppo_level: int = parse_level("5")) -> GuanDanObservation:
    return GuanDanObservation(
        seat=seat, phase="play", hand=pack(parse_cards(hand)), level=level, self_level=self_level,
        oppo_level=oppo_level, round_number=0, history=tuple(history), greater=greater,
        cards_left=tuple(cards_left), finished=tuple(finished), tribute=(), back=(), anti_tribute=(),
        rules=GuanDanRules(), to_move=seat, previous_order=(), a_failures=(0, 0), team_scores=(0, 0))


def play(kind: str, rank: str, cards: str, level: int = SEVEN):
    return play_from_platform([kind, rank, cards.split()], None, level)


def vector(cards: str) -> np.ndarray:
    counts = np.zeros(54, dtype=np.float32)
    for card in parse_cards(cards):
        counts[card] += 1
    return counts


# Seat 1 at level 7 (its team at 7, the other at 5). Seat 0 led a pair of aces, seat 2 beat it with the
# level pair, everyone passed; seat 2 led a 3, seat 3 (the partner) played a K, seat 0 an A: seat 1 to beat it.
HAND = "H7 S3 S4 S5 S6 C9 C9 D9 SB HR"
HISTORY = ((0, play("Pair", "A", "SA DA")), (1, PASS), (2, play("Pair", "7", "S7 D7")), (3, PASS), (0, PASS),
           (1, PASS), (2, play("Single", "3", "D3")), (3, play("Single", "K", "DK")), (0, play("Single", "A", "CA")))
POSITION = dict(history=HISTORY, greater=HISTORY[-1], cards_left=(24, 10, 24, 26))


def test_layout_offsets_and_sizes():
    assert (F.HAND, F.WILD_FLAGS, F.UNSEEN, F.GREATER, F.PARTNER_LAST, F.PLAYED, F.CARDS_LEFT, F.LEVELS) == \
        (0, 54, 66, 120, 174, 228, 390, 474)
    assert F.STATE_SIZE == 513 and F.ACTION_SIZE == 54 and F.INPUT_SIZE == 567
    state = F.encode_state(observe(HAND, **POSITION))
    assert state.shape == (513,) and state.dtype == np.float32


def test_hand_checked_position():
    state = F.encode_state(observe(HAND, **POSITION))
    assert np.array_equal(state[0:54], vector(HAND))
    # One wild card (H7); spades 3-6 + the wild make a straight flush; three 9s; 3-6 + the wild a straight;
    # trips of 9 + a single + the wild a full house; no plate or tube within one wild card.
    assert state[54:66].tolist() == [1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1]
    played = "SA DA S7 D7 D3 DK CA"
    assert np.array_equal(state[66:120], 2 - vector(HAND) - vector(played))
    assert np.array_equal(state[120:174], vector("CA"))
    assert np.array_equal(state[174:228], vector("DK"))
    assert np.array_equal(state[228:282], vector("S7 D7 D3"))  # next: seat 2
    assert np.array_equal(state[282:336], vector("DK"))  # partner: seat 3
    assert np.array_equal(state[336:390], vector("SA DA CA"))  # previous: seat 0
    assert np.flatnonzero(state[390:474]).tolist() == [24, 28 + 26, 56 + 24]
    assert np.flatnonzero(state[474:513]).tolist() == [SEVEN, 13 + parse_level("5"), 26 + SEVEN]
    assert np.count_nonzero(state) == np.count_nonzero(state[:390]) + 6


def test_leading_and_a_finished_partner():
    state = F.encode_state(observe(HAND, history=HISTORY[:2], cards_left=(25, 10, 27, 0), finished=(3,)))
    assert not state[120:174].any()
    assert (state[174:228] == -1).all()
    assert state[390 + 28] == 1  # the partner holds no cards


def test_plus_adds_who_played_the_play_to_beat():
    assert (F.PLUS_STATE_SIZE, F.PLUS_ACTION_SIZE, F.PLUS_INPUT_SIZE) == (516, 174, 690)
    observation = observe(HAND, **POSITION)
    state, _ = F.encode_plus(observation, [PASS])
    assert np.array_equal(state[:513], F.encode_state(observation))
    assert state[513:].tolist() == [0, 0, 1]  # the ace is the previous player's (seat 0)
    by_partner = dict(POSITION, history=HISTORY[:-1], greater=HISTORY[-2])
    assert F.encode_plus(observe(HAND, **by_partner), [PASS])[0][513:].tolist() == [0, 1, 0]
    assert not F.encode_plus(observe(HAND, history=HISTORY[:2]), [PASS])[0][513:].any()


def test_plus_adds_the_hand_each_action_leaves_by_rank():
    triple = play("Trips", "9", "C9 C9 D9")
    _, actions = F.encode_plus(observe(HAND, **POSITION), [PASS, triple])
    assert actions.shape == (2, 174)
    assert np.array_equal(actions[:, :54], F.encode_actions([PASS, triple]))
    left = actions[:, 54:].reshape(2, 15, 8)
    nine, seven, red_joker = 7, 5, 14
    assert left[0, nine].tolist() == [1, 1, 1, 0, 0, 0, 0, 0]  # passing keeps the three 9s
    assert not left[1, nine].any()
    assert left[1, seven].tolist() == [1, 0, 0, 0, 0, 0, 0, 0] and left[1, red_joker, 0] == 1
    assert left[1].sum() == 7  # ten cards less three: one of each rank left, each counted once


def test_partner_pass_is_zero():
    history = (*HISTORY[:3], (3, PASS))
    state = F.encode_state(observe(HAND, history=history, greater=history[2]))
    assert not state[174:228].any()


def test_no_wild_card_no_flags():
    assert F.wild_flags(pack(parse_cards("S3 S4 S5 S6 C9 C9 D9")), SEVEN) == [0.0] * 12


def test_wild_flags_each_combination():
    level = parse_level("2")

    def flags(cards: str) -> list[float]:
        return F.wild_flags(pack(parse_cards(cards)), level)

    assert flags("H2 S9 D9 C9 S9")[2:8] == [1, 1, 1, 0, 0, 0]  # four 9s: thermometer up to 4
    assert flags("H2 H2 S9 D9")[2:8] == [1, 0, 0, 0, 0, 0]
    assert flags("H2 S9 D9 C9 ST DT")[9] == 1  # 999 + TT + wild: a plate
    assert flags("H2 S9 D9 ST DT CJ")[10] == 1  # 99 TT J + wild: a tube
    assert flags("H2 S9 D9 ST DT CJ")[11] == 1  # 99 TT + wild: a full house
    assert flags("H2 SA S2 S3 S4")[1] == 1 and flags("H2 H3 S4 S5 S6")[1] == 0  # the wild card is no natural H2
    assert flags("H2 SA C3 S4 S5")[1] == 0 and flags("H2 SA S3 S4 S5")[1] == 1  # A-2-3-4-5, the ace low
    assert flags("H2 ST SJ SQ SK")[1] == 1 and flags("H2 ST SJ SQ SK")[8] == 1  # T-J-Q-K-A, the ace high
    assert flags("H2 S3 D5 C7 S9 DJ")[8] == 0  # three ranks in any five: out of reach


def test_action_features():
    pair = play("Pair", "A", "SA DA")
    encode = F.encode_actions([PASS, pair, Gift("back", parse_card("S5"))])
    assert encode.shape == (3, 54)
    assert not encode[0].any()
    assert np.array_equal(encode[1], vector("SA DA"))
    assert np.array_equal(encode[2], vector("S5"))


def test_encode_repeats_the_state_for_each_action():
    view = observe(HAND, **POSITION)
    legal = legal_plays(view.hand, SEVEN, view.greater[1])
    rows = F.encode(view, legal)
    assert rows.shape == (len(legal), 567) and rows.dtype == np.float32
    assert (rows[:, :513] == F.encode_state(view)).all()
    assert np.array_equal(rows[:, 513:], F.encode_actions(legal))
    joker = legal.index(play("Single", "R", "HR"))
    assert np.array_equal(rows[joker, 513:], vector("HR"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=27), st.integers(0, 12))
def test_card_vectors_count_every_card(cards, level):
    cards = [card for card in cards if cards.count(card) <= 2]
    packed = pack(cards)
    row = F.card_vectors([packed])[0]
    assert row.sum() == len(cards)
    assert [card for card in range(54) for _ in range(int(row[card]))] == unpack(packed)
    plays = legal_plays(packed, level)[:50]
    for action, encoded in zip(plays, F.encode_actions(plays), strict=True):
        assert encoded.sum() == action.size


def test_every_observation_of_a_game_encodes_consistently():
    try:
        game = load_game("guandan")
    except PaijuError:
        game = register_game(GuanDan())
    checked = []

    def check(state, seat, action):
        view = state.observation(seat)
        rows = F.encode(view, state.legal_actions())
        state_part = rows[0, :513]
        own = sum((play >> 8) & ((1 << 112) - 1) for player, play in view.history if player == seat)
        total = state_part[0:54] + state_part[66:120] + state_part[228:390].reshape(3, 54).sum(axis=0)
        assert np.array_equal(total + F.card_vectors([own])[0], np.full(54, 2.0))
        assert state_part[390:474].reshape(3, 28).sum(axis=1).tolist() == [1, 1, 1]
        assert state_part[474:513].reshape(3, 13).sum(axis=1).tolist() == [1, 1, 1]
        assert (state_part[120:174] > 0).any() == (view.greater is not None)
        checked.append(view.phase)

    play_game(game, [RandomAgent(seat) for seat in range(4)], seed=3, rules=GuanDanRules(rounds=2), on_action=check)
    assert "play" in checked and len(checked) > 100
