"""The 癞子 DouDizhu PettingZoo environment: PettingZoo's tests, the index read as what plays stand for, masks."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from paiju.core.errors import PaijuError
from paiju.envs.doudizhu_laizi_aec import (
    LAIZI_OBSERVATION_SIZE,
    STANDS_OFFSET,
    TIER_OFFSET,
    WILD_OFFSET,
    env,
    raw_env,
    substitutions,
)
from paiju.games.doudizhu import DouDizhuRules
from paiju.games.doudizhu.action_space import ACTION_COUNT, action_at

RULES = [DouDizhuRules(laizi=True), DouDizhuRules(laizi=True, mode="full", wild_ranks=2)]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_api_test(rules):
    api_test(env(rules=rules), num_cycles=100)


@pytest.mark.parametrize("rules", RULES)
def test_pettingzoo_seed_test(rules):
    seed_test(lambda: env(rules=rules), num_cycles=100)


@pytest.mark.parametrize("rules", RULES)
def test_each_index_plays_its_cards_with_the_fewest_wild_cards(rules):
    table = raw_env(rules)
    rng = np.random.default_rng(0)
    for episode in range(6):
        table.reset(seed=episode)
        while not table.game_state.is_terminal():
            agent = table.agent_selection
            mask = table.observe(agent)["action_mask"]
            legal = table.game_state.legal_actions()
            indices = np.flatnonzero(mask)
            for index in indices:
                chosen = table.legal_action(int(index))
                if isinstance(chosen, int):
                    continue
                meant = action_at(int(index))
                assert chosen.effective_counts == meant.counts, "an index plays cards standing for its play"
                rivals = [m for m in legal if not isinstance(m, int) and m.effective_counts == meant.counts]
                assert substitutions(chosen) == min(substitutions(m) for m in rivals)
            table.step(int(rng.choice(indices)))
        assert sum(table.rewards.values()) == 0


def test_observation_shows_the_wild_rank_and_what_the_play_to_beat_stands_for():
    table = raw_env()
    table.reset(seed=4)
    state = table.game_state
    vector = table.observe(table.agent_selection)["observation"]
    assert vector.shape == (LAIZI_OBSERVATION_SIZE,)
    assert list(np.flatnonzero(vector[WILD_OFFSET:WILD_OFFSET + 15])) == list(state.wild)
    while True:  # play until someone plays a substituted card, then look at the next seat's view
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        substituted = [int(i) for i in np.flatnonzero(mask) if not isinstance(table.legal_action(int(i)), int)
                       and table.legal_action(int(i)).stands_for]
        if substituted:
            move = table.legal_action(substituted[0])
            table.step(substituted[0])
            view = table.observe(table.agent_selection)["observation"]
            assert list(view[STANDS_OFFSET:STANDS_OFFSET + 15]) == list(move.effective_counts)
            assert view[TIER_OFFSET:TIER_OFFSET + 3].sum() == int(move.is_bomb and move.category != 14)
            break
        table.step(int(np.flatnonzero(mask)[-1]))
        assert not table.game_state.is_terminal()


def test_the_classic_and_the_laizi_environments_refuse_each_others_rules():
    with pytest.raises(PaijuError, match="doudizhu_aec"):
        raw_env(DouDizhuRules())
    from paiju.envs.doudizhu_aec import raw_env as classic_env

    with pytest.raises(PaijuError, match="doudizhu_laizi_aec"):
        classic_env(DouDizhuRules(laizi=True))
    assert raw_env().action_space("player_0").n == ACTION_COUNT
