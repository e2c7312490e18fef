"""Worlds sampled from one seat's observation are consistent with it, in every game (``Game.determinize``), and
belief weights come from replaying them."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents import make_agent
from paiju.agents.search.worlds import Belief, Worlds, log_likelihood
from paiju.core.registry import load_game

VARIANTS = [
    ("doudizhu", {"mode": "research"}),
    ("doudizhu", {"mode": "full"}),
    ("guandan", {"rounds": 3}),  # rounds 2 and 3 open with tribute and return (or anti-tribute)
    ("gongzhu", {}),
]


def mid_game(name: str, rules_json: dict, seed: int, fraction: float):
    """The position ``fraction`` of the way through a random game (random play; at least one action in)."""
    game = load_game(name)
    rules = game.rules_from_json(rules_json)
    rng = random.Random(seed)
    state = game.new_state(seed, rules)
    actions = []
    while not state.is_terminal():
        legal = state.legal_actions()
        actions.append(legal[rng.randrange(len(legal))])
        state.apply(actions[-1])
    stop = max(1, int(fraction * len(actions))) - 1
    state = game.new_state(seed, rules)
    for action in actions[:stop]:
        state.apply(action)
    return game, state


@pytest.mark.parametrize(("name", "rules_json"), VARIANTS, ids=[f"{n}-{r}" for n, r in VARIANTS])
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10**6), fraction=st.floats(0.0, 1.0), draw=st.integers(0, 10**6))
def test_every_world_shows_each_seat_its_observation(name, rules_json, seed, fraction, draw):
    game, state = mid_game(name, rules_json, seed, fraction)
    for seat in range(game.num_players):
        observation = state.observation(seat)
        world = game.determinize(observation, random.Random(draw))
        assert world.observation(seat).to_json() == observation.to_json()
        assert world.current_player == state.current_player
        assert world.deal_number == state.deal_number
        if seat == state.current_player:
            assert world.legal_actions() == state.legal_actions()
        assert world.invariant_errors() == []


def test_worlds_differ_in_hidden_cards_only():
    game, state = mid_game("doudizhu", {"mode": "research"}, 7, 0.3)
    worlds = Worlds(game, state.observation(1), 6, random.Random(0))
    hands = {tuple(worlds[i].state.perfect_view()["hands"]) for i in range(len(worlds))}
    assert len(hands) > 1
    assert all(world_hands[1] == state.perfect_view()["hands"][1] for world_hands in hands)


def test_belief_prefers_worlds_that_explain_the_opponents_plays():
    """The true deal explains the rules players' plays better than most worlds drawn at random."""
    game = load_game("doudizhu")
    state = game.new_state(3)
    rules_agents = [make_agent("rules", "doudizhu", seat) for seat in range(3)]
    for _ in range(12):
        seat = state.current_player
        state.apply(rules_agents[seat].act(state.observation(seat), state.legal_actions()))
    observer = state.current_player
    belief = Belief(rules_agents, temperature=5.0, decisions=8)
    truth = log_likelihood(game, state, observer, belief)
    sampled = [log_likelihood(game, game.determinize(state.observation(observer), random.Random(i)), observer, belief)
               for i in range(12)]
    assert truth > sorted(sampled)[len(sampled) // 2]
    weighted = Worlds(game, state.observation(observer), 4, random.Random(0), belief)
    assert max(weighted[i].weight for i in range(4)) == 1.0


@pytest.mark.parametrize("seed", range(4))
def test_guandan_worlds_through_tribute_and_return(seed):
    """Every position of GuanDan's gift phases (sealed and shown gifts) and the first plays after them."""
    game = load_game("guandan")
    state = game.new_state(seed, game.rules_from_json({"rounds": 3}))
    rng = random.Random(seed)
    checked = 0
    plays_since_gifts = 9
    while not state.is_terminal():
        if state.phase in ("tribute", "back"):
            plays_since_gifts = 0
        if plays_since_gifts < 3:
            for seat in range(4):
                observation = state.observation(seat)
                world = game.determinize(observation, rng)
                assert world.observation(seat).to_json() == observation.to_json()
                assert world.current_player == state.current_player
            checked += 1
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        plays_since_gifts += 1
    assert checked > 0
