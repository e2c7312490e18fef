"""The ``advice`` GuanDan features: ``plus`` and the rule player's judgement of each action."""

import numpy as np
import torch
from tests.agents.dmc.test_danzero_features import HAND, POSITION, observe

from paiju.agents.dmc import advice_features as A
from paiju.agents.dmc import danzero_features as F
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.rules.guandan import GuanDanRulesAgent, play_values
from paiju.games.guandan import GuanDan, legal_plays


def rule_bot_decisions(seeds: range, most: int = 300):
    """(observation, legal, rules choice) of play decisions with a choice, from rule-bot games."""
    game, found = GuanDan(), []
    for seed in seeds:
        agents = [GuanDanRulesAgent(seed * 4 + seat) for seat in range(4)]
        state = game.new_state(seed)
        while not state.is_terminal() and len(found) < most:
            seat, legal = state.current_player, state.legal_actions()
            observation = state.observation(seat)
            action = agents[seat].act(observation, legal)
            if observation.phase == "play" and len(legal) > 1:
                found.append((observation, legal, action))
            state.apply(action)
    return found


def test_sizes_and_layout():
    assert (A.STATE_SIZE, A.ACTION_SIZE, A.INPUT_SIZE) == (516, 183, 699)
    observation = observe(HAND, **POSITION)
    legal = legal_plays(observation.hand, observation.level, observation.greater[1])
    state, actions = A.encode(observation, legal)
    plus_state, plus_actions = F.encode_plus(observation, legal)
    assert np.array_equal(state, plus_state) and np.array_equal(actions[:, :F.PLUS_ACTION_SIZE], plus_actions)
    assert actions.shape == (len(legal), A.ACTION_SIZE) and set(np.unique(actions[:, F.PLUS_ACTION_SIZE:])) <= {0, 1}


def test_the_rule_players_choice_is_flagged_and_gaps_follow_its_scores():
    decisions = rule_bot_decisions(range(3))
    assert len(decisions) >= 100
    for observation, legal, chosen in decisions:
        block = A.advice(observation, legal)
        values = np.array(play_values(observation, legal))
        assert block[legal.index(chosen), 0] == 1.0
        assert np.array_equal(block[:, 0] == 1.0, values == values.max())
        gap = values.max() - values
        for column, threshold in enumerate(A.GAPS, start=1):
            assert np.array_equal(block[:, column] == 1.0, gap >= threshold)
        # a thermometer: each threshold's flags are a subset of the previous one's
        assert (np.diff(block[:, 1:], axis=1) <= 0).all()


def test_play_values_are_in_legal_order():
    observation, legal, _ = rule_bot_decisions(range(1), most=40)[-1]
    values = play_values(observation, legal)
    reversed_values = play_values(observation, legal[::-1])
    assert values == reversed_values[::-1]


def test_adapter_networks_read_the_advice_rows():
    adapter = adapter_for("guandan", "advice")
    observation, legal, _ = rule_bot_decisions(range(1), most=10)[-1]
    decision = adapter.encode(observation, legal)
    assert decision.x.shape == (len(legal), A.INPUT_SIZE)
    network = adapter.network("player", ModelConfig(hidden=(16,)))
    with torch.inference_mode():
        assert network.score(torch.from_numpy(decision.state), torch.from_numpy(decision.actions)).shape == \
            (len(legal),)
