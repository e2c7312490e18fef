"""The DouDizhu PettingZoo AEC environment: PettingZoo's API and seed tests, masks, rewards, illegal actions."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import paiju
from paiju.core.errors import IllegalActionError, PaijuError
from paiju.envs.doudizhu_aec import OBSERVATION_SIZE, env, observation_vector, raw_env
from paiju.games.doudizhu import DouDizhuRules
from paiju.games.doudizhu.action_space import ACTION_COUNT, BID_OFFSET, action_at, action_indices

GAME = paiju.load_game("doudizhu")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("mode", ["research", "full"])
def test_pettingzoo_api_test(mode):
    api_test(env(rules=DouDizhuRules(mode=mode)), num_cycles=200)


@pytest.mark.parametrize("mode", ["research", "full"])
def test_pettingzoo_seed_test(mode):
    seed_test(lambda: env(rules=DouDizhuRules(mode=mode)), num_cycles=200)


def test_reset_with_a_seed_deals_that_game():
    table = raw_env()
    table.reset(seed=11)
    state = GAME.new_state(11)
    assert table.game_state.to_record() == state.to_record()
    assert table.agent_selection == "player_0"
    for seat, agent in enumerate(table.possible_agents):
        assert np.array_equal(table.observe(agent)["observation"], observation_vector(state.observation(seat)))


def test_reset_without_a_seed_continues_the_seeded_sequence():
    first, second = raw_env(), raw_env()
    first.reset(seed=5)
    second.reset(seed=5)
    first.reset()
    second.reset()
    assert first.game_state.to_record()["deals"] == second.game_state.to_record()["deals"]
    assert first.game_state.to_record()["deals"] != GAME.new_state(5).to_record()["deals"]


@pytest.mark.parametrize("mode", ["research", "full"])
def test_random_masked_play_ends_with_the_payoffs_as_rewards(mode):
    table = raw_env(rules=DouDizhuRules(mode=mode))
    rng = np.random.default_rng(1)
    for seed in range(5):
        table.reset(seed=seed)
        totals = dict.fromkeys(table.possible_agents, 0.0)
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            totals[agent] += reward
            mask = observation["action_mask"]
            assert observation["observation"].shape == (OBSERVATION_SIZE,)
            if terminated or truncated:
                assert not mask.any()
                table.step(None)
                continue
            legal = table.game_state.legal_actions()
            assert np.flatnonzero(mask).tolist() == sorted(action_indices(legal).tolist())
            for other in table.agents:
                if other != agent:
                    assert not table.observe(other)["action_mask"].any()
            table.step(int(rng.choice(np.flatnonzero(mask))))
        payoffs = table.game_state.payoffs()
        assert [totals[agent] for agent in table.possible_agents] == payoffs
        assert not table.agents


def test_full_mode_starts_with_the_bids():
    table = raw_env(rules={"mode": "full"})
    table.reset(seed=2)
    mask = table.observe(table.agent_selection)["action_mask"]
    assert np.flatnonzero(mask).tolist() == [BID_OFFSET + bid for bid in range(4)]
    observation = table.observe(table.agent_selection)["observation"]
    assert observation[0] == 1 and observation[3:6].sum() == 0  # bidding, no landlord yet


def test_an_illegal_action_raises_and_changes_nothing():
    table = raw_env()
    table.reset(seed=3)
    agent = table.agent_selection
    before = {name: table.observe(name) for name in table.possible_agents}
    record = table.game_state.to_record()
    illegal = int(np.flatnonzero(before[agent]["action_mask"] == 0)[1])
    with pytest.raises(IllegalActionError, match=rf"player_0 chose action {illegal} .*action_mask entry is 0"):
        table.step(illegal)
    with pytest.raises(IllegalActionError, match="bid 0"):
        table.step(BID_OFFSET)
    with pytest.raises(IllegalActionError, match="action index"):
        table.step("33")
    with pytest.raises(IllegalActionError, match="action index"):
        table.step(1.0)
    assert table.game_state.to_record() == record
    assert table.agent_selection == agent
    for name in table.possible_agents:
        after = table.observe(name)
        assert np.array_equal(after["observation"], before[name]["observation"])
        assert np.array_equal(after["action_mask"], before[name]["action_mask"])
    legal = int(np.flatnonzero(before[agent]["action_mask"])[0])
    table.step(np.int64(legal))
    assert table.game_state.to_record()["actions"] == [[0, action_at(legal).cards]]


def test_observation_holds_only_the_seats_own_view():
    table = raw_env()
    table.reset(seed=8)
    for agent in table.agent_iter(30):
        table.step(int(np.flatnonzero(table.observe(agent)["action_mask"])[0]))
    state = table.game_state
    for seat, agent in enumerate(table.possible_agents):
        observation = table.observe(agent)["observation"]
        assert observation[21:36].tolist() == list(state.observation(seat).hand)
        assert observation[51] == sum(state.observation(seat).hand)
        assert np.array_equal(observation, observation_vector(state.observation(seat)))


def test_options_switch_rules_and_variants_outside_the_index_are_refused():
    table = raw_env()
    table.reset(seed=1, options={"rules": {"mode": "full"}})
    assert table.game_state.phase == "bid"
    with pytest.raises(PaijuError, match="outside the fixed action index"):
        raw_env(rules=DouDizhuRules(rocket_as_kickers=True))
    with pytest.raises(PaijuError, match="unknown DouDizhu rule option"):
        table.reset(options={"rules": {"speed": True}})


def test_spaces_and_render():
    table = raw_env(render_mode="ansi")
    table.reset(seed=4)
    assert table.action_space("player_1").n == ACTION_COUNT
    assert table.observation_space("player_1")["observation"].shape == (OBSERVATION_SIZE,)
    assert table.observation_space("player_1").contains(table.observe("player_1"))
    text = table.render()
    assert "phase: play" in text
    assert all(hand in text for hand in table.game_state.perfect_view()["hands"])


def test_infos_name_the_acting_agents_legal_actions_and_the_public_state():
    table = raw_env(rules={"mode": "full"})
    table.reset(seed=2)
    for _ in range(12):
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        legal = table.infos[agent]["legal_actions"]
        assert sorted(legal) == np.flatnonzero(mask).tolist()
        assert all(legal[index] == table.describe_index(index) for index in legal)
        state = table.game_state
        for seat, other in enumerate(table.possible_agents):
            obs = state.observation(seat)
            landlord = None if obs.landlord is None else table.possible_agents[obs.landlord]
            assert {k: v for k, v in table.infos[other].items() if k != "legal_actions"} == {
                "phase": obs.phase, "landlord": landlord}
            assert ("legal_actions" in table.infos[other]) == (other == agent)
        table.step(int(np.flatnonzero(mask)[-1]))
    assert table.infos["player_0"]["phase"] == "play" and table.infos["player_0"]["landlord"] is not None
