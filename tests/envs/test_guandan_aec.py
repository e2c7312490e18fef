"""The GuanDan PettingZoo AEC environment: PettingZoo's API and seed tests, list-position actions and masks,
rewards, the action bound, privacy, refusals."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import paiju
from paiju.core.errors import IllegalActionError, PaijuError
from paiju.envs import guandan_aec
from paiju.envs.guandan_aec import DEFAULT_RULES, MAX_ACTIONS, env, legal_action, raw_env
from paiju.games.guandan import GuanDanRules, Play, pack, parse_cards, wild_card
from paiju.games.guandan.features import STATE_SIZE, encode_state
from paiju.games.guandan.legal import legal_plays

GAME = paiju.load_game("guandan")
TRIBUTE_RULES = GuanDanRules(rounds=3, start_level="Q", a_attempts=1)
"""Three rounds from level Q: rounds 2 and 3 open with tribute (seed 0 pays tribute in both)."""


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test():
    api_test(env(), num_cycles=60)


def test_pettingzoo_seed_test():
    seed_test(env, num_cycles=60)


def test_default_episode_is_one_round_and_rules_json_is_accepted():
    table = raw_env()
    table.reset(seed=4)
    assert table.rules == DEFAULT_RULES == GuanDanRules(rounds=1)
    assert table.game_state.to_record() == GAME.new_state(4, GuanDanRules(rounds=1)).to_record()
    table.reset(seed=4, options={"rules": TRIBUTE_RULES.to_json()})
    assert table.rules == TRIBUTE_RULES
    with pytest.raises(PaijuError, match="GuanDanRules"):
        raw_env(rules="rounds=1")


def test_masks_mark_the_legal_list_and_rewards_are_the_payoffs_through_tribute():
    table = raw_env(rules=TRIBUTE_RULES)
    table.reset(seed=0)
    rng = random.Random(0)
    phases = set()
    while not all(table.terminations.values()):
        agent = table.agent_selection
        state = table.game_state
        legal = state.legal_actions()
        phases.add(state.phase)
        observed = table.observe(agent)
        mask = observed["action_mask"]
        assert observed["observation"].dtype == np.float32
        assert table.observation_space(agent).contains(observed)
        assert np.array_equal(np.flatnonzero(mask), np.arange(len(legal)))
        for other in table.possible_agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        index = rng.randrange(len(legal))
        assert legal_action(table, index) == legal[index]
        before = state.clone()
        before.apply(legal[index])
        table.step(index)
        assert table.game_state.to_record() == before.to_record()
    assert {"tribute", "back", "play"} <= phases
    payoffs = table.game_state.payoffs()
    assert [table._cumulative_rewards[a] for a in table.possible_agents] == payoffs
    assert payoffs[0] == payoffs[2] == -payoffs[1] != 0


def test_observation_is_the_seats_features_and_unchanged_when_hidden_cards_are_redrawn():
    table = raw_env(rules=TRIBUTE_RULES)
    table.reset(seed=2)
    rng = random.Random(2)
    checked = set()
    redrawn_hands_differ = 0
    for step in range(400):
        state = table.game_state
        if step % 37 == 0 or state.phase not in checked:
            checked.add(state.phase)
            for seat, agent in enumerate(table.possible_agents):
                vector = table.observe(agent)["observation"]
                assert vector.shape == (STATE_SIZE,)
                assert np.array_equal(vector, encode_state(state.observation(seat)))
                redrawn = GAME.determinize(state.observation(seat), random.Random(step * 4 + seat))
                redrawn_hands_differ += redrawn.hands != state.hands
                assert np.array_equal(encode_state(redrawn.observation(seat)), vector)
        table.step(rng.randrange(len(state.legal_actions())))
    assert {"tribute", "back", "play"} <= checked
    assert redrawn_hands_differ > 20


def test_an_illegal_index_is_refused_and_changes_nothing():
    table = raw_env()
    table.reset(seed=1)
    before = table.game_state.to_record()
    count = len(table.game_state.legal_actions())
    with pytest.raises(IllegalActionError, match=f"position {count} of the legal list.*not legal"):
        table.step(count)
    with pytest.raises(IllegalActionError, match="outside"):
        table.step(MAX_ACTIONS)
    with pytest.raises(IllegalActionError, match="action index"):
        table.step("PASS")
    with pytest.raises(PaijuError, match="not legal now"):
        legal_action(table, count)
    assert table.game_state.to_record() == before


def test_the_richest_measured_hand_fits_the_action_bound():
    level = parse_cards(["H3"])[0] // 4
    hand = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 42]
    plays = legal_plays(pack([*hand, wild_card(level), wild_card(level)]), level, None)
    assert all(isinstance(play, Play) for play in plays[:5])
    assert 17_000 < len(plays) <= MAX_ACTIONS


def test_a_legal_list_beyond_the_bound_is_a_clear_error(monkeypatch):
    table = raw_env()
    monkeypatch.setattr(guandan_aec, "MAX_ACTIONS", 3)
    with pytest.raises(PaijuError, match=r"4 legal actions, more than .*MAX_ACTIONS = 3"):
        table.indices([0, 1, 2, 3])
