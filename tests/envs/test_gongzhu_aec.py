"""The Gongzhu PettingZoo AEC environment: PettingZoo's API and seed tests, masks, rewards, privacy, refusals."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import paiju
from paiju.core.errors import IllegalActionError
from paiju.envs.gongzhu_aec import OBSERVATION_SIZE, OFFSETS, env, observation_vector, raw_env
from paiju.games.gongzhu import CARD_NAMES, GongzhuRules

GAME = paiju.load_game("gongzhu")


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test():
    api_test(env(), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(env, num_cycles=200)


def test_masks_follow_the_legal_cards_and_rewards_are_team_results():
    table = raw_env(rules=GongzhuRules(first_leader=2))
    table.reset(seed=3)
    assert table.agent_selection == "player_2"
    rng = np.random.default_rng(0)
    while not all(table.terminations.values()):
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        legal = table.game_state.legal_actions()
        assert sorted(CARD_NAMES[i] for i in np.flatnonzero(mask)) == sorted(legal)
        for other in table.possible_agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        table.step(int(rng.choice(np.flatnonzero(mask))))
    payoffs = table.game_state.payoffs()
    assert [table._cumulative_rewards[a] for a in table.possible_agents] == payoffs
    assert payoffs[0] == payoffs[2] == -payoffs[1]


def test_observation_holds_only_the_seats_own_hand():
    table = raw_env()
    table.reset(seed=8)
    state = table.game_state
    for seat, agent in enumerate(table.possible_agents):
        vector = table.observe(agent)["observation"]
        assert vector.shape == (OBSERVATION_SIZE,)
        hand = {CARD_NAMES[i] for i in np.flatnonzero(vector[OFFSETS["hand"]:OFFSETS["hand"] + 52])}
        assert hand == set(state.observation(seat).hand)
        redrawn = GAME.determinize(state.observation(seat), random.Random(seat))
        assert np.array_equal(observation_vector(redrawn.observation(seat)), vector)


def test_an_illegal_index_is_refused_and_changes_nothing():
    table = raw_env()
    table.reset(seed=1)
    before = table.game_state.to_record()
    held = set(table.game_state.legal_actions())
    illegal = next(i for i, card in enumerate(CARD_NAMES) if card not in held)
    with pytest.raises(IllegalActionError, match=f"{CARD_NAMES[illegal]}.*not legal"):
        table.step(illegal)
    with pytest.raises(IllegalActionError, match="outside"):
        table.step(52)
    assert table.game_state.to_record() == before


def test_infos_name_the_acting_agents_legal_cards_and_the_trick():
    table = raw_env()
    table.reset(seed=5)
    for _ in range(6):
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        assert table.infos[agent]["legal_actions"] == {int(i): CARD_NAMES[i] for i in np.flatnonzero(mask)}
        state = table.game_state
        for seat, other in enumerate(table.possible_agents):
            obs = state.observation(seat)
            assert table.infos[other]["trick"] == [[f"player_{s}", card] for s, card in obs.trick]
            assert table.infos[other]["leader"] == f"player_{obs.leader}"
            assert table.infos[other]["phase"] == obs.phase
            assert ("legal_actions" in table.infos[other]) == (other == agent)
        table.step(int(np.flatnonzero(mask)[0]))
    assert len(table.infos["player_0"]["trick"]) == 2
