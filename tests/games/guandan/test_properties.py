"""Properties over random games (hypothesis draws the seeds, the rules, the moments and the candidate plays)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.core.errors import IllegalActionError
from paiju.core.registry import register_game
from paiju.games.guandan import GuanDan, GuanDanRules, interpretations, unpack

GAME = register_game(GuanDan())
SEEDS = st.integers(0, 2**32)
RULES = st.sampled_from([GuanDanRules(rounds=1), GuanDanRules(rounds=3, start_level="Q", a_attempts=1),
                         GuanDanRules(start_level="K", strict_a=True), GuanDanRules(start_level="J", a_attempts=2)])


def random_moves(state, rng: random.Random, steps: int):
    """Apply up to ``steps`` random legal actions, yielding the state before each."""
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))], seat=state.current_player)


@settings(max_examples=12, deadline=None)
@given(SEEDS, RULES)
def test_random_games_conserve_cards_and_replay(seed, rules):
    state = GAME.new_state(seed, rules)
    rng = random.Random(seed)
    for step, before in enumerate(random_moves(state, rng, 20_000)):
        if step % 5 == 0:
            assert before.invariant_errors() == []
    assert state.is_terminal() and state.invariant_errors() == []
    payoffs = state.payoffs()
    assert sum(payoffs) == 0 and payoffs[0] == payoffs[2] == -payoffs[1]
    result = state.result()
    assert len(result["rounds"]) == len(state.deals)
    if rules.rounds is None:
        assert result["winner"] is not None and payoffs[0] == (1 if result["winner"] == 0 else -1)
    else:
        assert len(result["rounds"]) == rules.rounds or result["winner"] is not None
        assert payoffs[0] == result["team_scores"][0]
    if result["winner"] is not None:
        assert result["levels"][result["winner"]] == "A" and result["rounds"][-1]["level"] == "A"
    record = json.loads(json.dumps(state.to_record()))
    assert GAME.from_record(record).to_record() == record


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.integers(0, 400), st.randoms(use_true_random=False))
def test_a_play_is_accepted_exactly_when_it_is_legal(seed, steps, draw):
    state = GAME.new_state(seed, GuanDanRules(rounds=3))
    for _ in random_moves(state, random.Random(seed), steps):
        pass
    if state.is_terminal() or state.phase != "play":
        return
    legal = set(state.legal_actions())
    hand = unpack(state.hands[state.current_player])
    candidates = list(legal)
    for _ in range(30):
        cards = draw.sample(hand, min(len(hand), draw.choice((1, 2, 3, 4, 5, 6, 8))))
        candidates += interpretations(cards, state.level)
    before = state.to_record()
    for play in candidates:
        trial = state.clone()
        try:
            trial.apply(play)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert accepted == (play in legal), play
    assert state.to_record() == before


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.integers(0, 600), st.integers(0, 2**32))
def test_determinize_keeps_every_seats_observation(seed, steps, redraw):
    state = GAME.new_state(seed, GuanDanRules(rounds=4))
    for _ in random_moves(state, random.Random(seed), steps):
        pass
    for seat in range(4):
        observation = state.observation(seat)
        other = GAME.determinize(observation, random.Random(redraw))
        assert other.observation(seat) == observation and other.invariant_errors() == []
        assert other.current_player == state.current_player
        if not other.is_terminal():
            legal = other.legal_actions()
            other.apply(legal[0])


@settings(max_examples=10, deadline=None)
@given(SEEDS, st.integers(0, 300))
def test_clones_are_independent(seed, steps):
    state = GAME.new_state(seed, GuanDanRules(rounds=2))
    for _ in random_moves(state, random.Random(seed), steps):
        pass
    before = state.to_record()
    copy = state.clone()
    for _ in random_moves(copy, random.Random(seed + 1), 200):
        pass
    assert state.to_record() == before and copy.to_record()["actions"][:len(before["actions"])] == before["actions"]
