"""Properties over seeded random games (hypothesis draws the seeds and rulesets)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
from paiju.games.doudizhu import DouDizhuRules, format_cards
from paiju.games.doudizhu.cards import FULL_DECK

GAME = paiju.load_game("doudizhu")
RULESETS = st.builds(DouDizhuRules, mode=st.sampled_from(["research", "full"]), rocket_as_kickers=st.booleans(),
                     bomb_as_kickers=st.booleans(), no_four_with_two=st.booleans())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), RULESETS)
def test_random_games_keep_every_invariant(seed, rules):
    rng = random.Random(seed)
    state = GAME.new_state(seed, rules)
    for _ in range(500):
        if state.is_terminal():
            break
        assert state.invariant_errors() == []
        legal = state.legal_actions()
        seat = state.current_player
        for other in range(3):
            observed = state.observation(other).to_json()
            assert observed["hand"] == format_cards(state.hands[other])
            assert observed["cards_left"] == [sum(h) for h in state.hands]
            hidden = {"hands", "deal", "deals"}
            assert not hidden & set(observed)
            if state.landlord is None:
                assert observed["public"] is None
        action = legal[rng.randrange(len(legal))]
        state.apply(action, seat=seat)
        if state.phase == "play" and not getattr(action, "is_pass", True):
            assert action.packed and state.history[-1][1] is action
    assert state.is_terminal(), "a random game ends within 500 actions"
    total = [sum(h[r] for h in state.hands) + sum(m.counts[r] for _, m in state.history) for r in range(15)]
    assert tuple(total) == FULL_DECK
    assert sum(state.payoffs()) == 0
