"""Properties over random games (hypothesis draws the seeds, the deals, the seats and the moments)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.registry import register_game
from paiju.games.gongzhu import CARD_NAMES, SCORING_CARDS, Gongzhu, GongzhuDeal, GongzhuRules

GAME = register_game(Gongzhu())
SEEDS = st.integers(0, 2**32)


def suit_block_deal(seed: int) -> GongzhuDeal:
    """A deal of whole runs of suits (each seat holds one or two suits), so that voids show at once."""
    rng = random.Random(seed)
    suits = [list(CARD_NAMES[13 * s: 13 * s + 13]) for s in range(4)]
    rng.shuffle(suits)
    deck = [card for suit in suits for card in rng.sample(suit, 13)]
    offset = rng.randrange(13)
    deck = deck[offset:] + deck[:offset]
    return GongzhuDeal.from_hands([deck[13 * seat: 13 * seat + 13] for seat in range(4)])


def random_play(state, rng: random.Random, steps: int = 52):
    """Play ``steps`` random legal cards (fewer if the game ends); return the states passed through."""
    states = []
    for _ in range(steps):
        if state.is_terminal():
            break
        states.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], seat=state.current_player)
    return states


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(0, 3))
def test_random_games_conserve_cards_and_follow_suit(seed, leader):
    state = GAME.new_state(seed, GongzhuRules(first_leader=leader))
    rng = random.Random(seed)
    for before in random_play(state, rng):
        assert before.invariant_errors() == []
        seat = before.current_player
        hand = before.hand(seat)
        led = before.observation(seat).led_suit
        following = [card for card in hand if card[0] == led]
        assert before.legal_actions() == (following or list(hand))
    assert state.is_terminal() and state.invariant_errors() == []
    taken = [card for cards in state.result()["taken"] for card in cards]
    assert sorted(taken) == sorted(SCORING_CARDS)
    assert sum(state.payoffs()) == 0 and state.payoffs()[0] == state.payoffs()[2] == -state.payoffs()[1]


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_every_trick_goes_to_the_highest_card_of_the_led_suit(seed):
    state = GAME.new_state(seed)
    random_play(state, random.Random(seed))
    plays = state.to_record()["actions"]
    leader = 0
    for number in range(13):
        trick = plays[4 * number: 4 * number + 4]
        assert [seat for seat, _ in trick] == [(leader + k) % 4 for k in range(4)]
        led = trick[0][1][0]
        winner = max((seat for seat, card in trick if card[0] == led),
                     key=lambda s: CARD_NAMES.index(dict(trick)[s]))
        assert state.winners[number] == winner
        leader = winner


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.booleans(), st.integers(0, 51), st.integers(0, 3))
def test_determinize_respects_voids_and_keeps_the_observation(seed, blocks, moment, seat):
    state = GAME.from_deal(suit_block_deal(seed)) if blocks else GAME.new_state(seed)
    random_play(state, random.Random(seed), steps=moment)
    observation = state.observation(seat)
    for draw in range(5):
        sampled = GAME.determinize(observation, random.Random(draw))
        assert sampled.invariant_errors() == []
        assert sampled.observation(seat) == observation
        assert sampled.hand(seat) == state.hand(seat)
        for other, suits in enumerate(observation.voids):
            assert not [card for card in sampled.hand(other) if card[0] in suits]
            assert len(sampled.hand(other)) == len(state.hand(other))
        random_play(sampled, random.Random(draw))
        assert sampled.is_terminal() and sampled.invariant_errors() == []


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.integers(0, 52), st.integers(0, 3))
def test_records_round_trip_at_any_moment(seed, moment, shift):
    state = GAME.rotated_state(seed, None, shift)
    random_play(state, random.Random(seed), steps=moment)
    record = json.loads(json.dumps(state.to_record()))
    replayed = GAME.from_record(record)
    assert replayed.to_record() == record
    assert [replayed.observation(s) for s in range(4)] == [state.observation(s) for s in range(4)]


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_same_seed_same_game(seed):
    first, second = GAME.new_state(seed), GAME.new_state(seed)
    random_play(first, random.Random(seed))
    random_play(second, random.Random(seed))
    assert first.to_record() == second.to_record()
