"""The GuanDan PettingZoo AEC environment: PettingZoo's API and seed tests, fixed-index actions and masks,
rewards, infos, privacy, refusals."""

import copy
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import paiju
from paiju.agents.dmc.danzero_features import STATE_SIZE, encode_state
from paiju.core.errors import IllegalActionError, PaijuError
from paiju.envs.guandan_aec import DEFAULT_RULES, env, legal_action, raw_env
from paiju.games.guandan import GuanDanRules
from paiju.games.guandan.action_space import ACTION_COUNT, choices, describe, index_of, indices_of, key_of
from paiju.games.guandan.cards import level_name

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


def public_info(obs) -> dict:
    return {"round": obs.round_number, "level": level_name(obs.level), "phase": obs.phase,
            "levels": {"self": level_name(obs.self_level), "oppo": level_name(obs.oppo_level)}}


def test_masks_mark_the_indices_of_the_legal_actions_and_rewards_are_the_payoffs_through_tribute():
    table = raw_env(rules=TRIBUTE_RULES)
    table.reset(seed=0)
    rng = random.Random(0)
    phases = set()
    while not all(table.terminations.values()):
        agent = table.agent_selection
        state = table.game_state
        level = state.standing.level
        legal = state.legal_actions()
        phases.add(state.phase)
        observed = table.observe(agent)
        mask = observed["action_mask"]
        assert observed["observation"].dtype == np.float32
        assert table.observation_space(agent).contains(observed)
        assert set(np.flatnonzero(mask).tolist()) == set(indices_of(legal, level))
        assert table.infos[agent]["legal_actions"] == {int(i): describe(int(i)) for i in np.flatnonzero(mask)}
        for seat, other in enumerate(table.possible_agents):
            assert {k: v for k, v in table.infos[other].items() if k != "legal_actions"} == public_info(
                state.observation(seat))
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
                assert "legal_actions" not in table.infos[other]
        index = int(rng.choice(np.flatnonzero(mask)))
        chosen = legal_action(table, index)
        assert chosen in legal and index_of(chosen, level) == index
        assert chosen == choices(legal, indices_of(legal, level), state.hands[state.current_player], level)[index]
        before = state.clone()
        before.apply(chosen)
        table.step(index)
        assert table.game_state.to_record() == before.to_record()
    assert {"tribute", "back", "play"} <= phases
    payoffs = table.game_state.payoffs()
    assert [table._cumulative_rewards[a] for a in table.possible_agents] == payoffs
    assert payoffs[0] == payoffs[2] == -payoffs[1] != 0
    assert all("legal_actions" not in info and info["phase"] == "over" for info in table.infos.values())


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
            acting = state.current_player
            redrawn = GAME.determinize(state.observation(acting), random.Random(step))
            assert redrawn.hands[acting] == state.hands[acting]
            indices = indices_of(redrawn.legal_actions(), redrawn.standing.level)
            same = {index: describe(index) for index in sorted(set(indices))}
            assert table.infos[table.possible_agents[acting]]["legal_actions"] == same
        table.step(int(rng.choice(np.flatnonzero(table.observe(table.agent_selection)["action_mask"]))))
    assert {"tribute", "back", "play"} <= checked
    assert redrawn_hands_differ > 20


def test_an_illegal_index_is_refused_and_changes_nothing():
    table = raw_env()
    table.reset(seed=1)
    agent = table.agent_selection
    before = table.game_state.to_record()
    infos = copy.deepcopy(table.infos)
    mask = table.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[3])
    with pytest.raises(IllegalActionError, match=rf"chose action {illegal} \({describe(illegal)}\).*not legal"):
        table.step(illegal)
    with pytest.raises(IllegalActionError, match="outside"):
        table.step(ACTION_COUNT)
    with pytest.raises(IllegalActionError, match="action index"):
        table.step("PASS")
    with pytest.raises(PaijuError, match="not legal now"):
        legal_action(table, illegal)
    assert table.game_state.to_record() == before
    assert table.infos == infos and table.agent_selection == agent
    assert np.array_equal(table.observe(agent)["action_mask"], mask)


def test_many_concrete_plays_share_one_index():
    table = raw_env()
    table.reset(seed=3)
    state = table.game_state
    legal = state.legal_actions()
    level = state.standing.level
    mask = table.observe(table.agent_selection)["action_mask"]
    assert 0 < mask.sum() < len(legal)
    assert len({key_of(action, level) for action in legal}) == mask.sum()
