"""癞子 DouDizhu for DMC: the features' extra blocks, and networks that play only the ruleset they learned."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paiju import load_game
from paiju.agents.dmc import laizi_features
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.agent import DMCAgent
from paiju.agents.dmc.douzero_features import CARD_ROW
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules

SMALL = ModelConfig(hidden=(16,), lstm=8, features="laizi")
LAIZI = DouDizhuRules(laizi=True)


def _decisions(games: int):
    game, rng = load_game("doudizhu"), random.Random(0)
    for seed in range(games):
        state = game.new_state(seed, LAIZI)
        while not state.is_terminal():
            yield state.observation(state.current_player), state.legal_actions()
            state.apply(rng.choice(state.legal_actions()))


def test_the_features_flag_the_wild_ranks_and_what_each_play_stands_for():
    seen_substitution = False
    for observation, legal in _decisions(3):
        features = laizi_features.encode(observation, legal)
        size = laizi_features.LANDLORD_X if observation.position == "landlord" else laizi_features.PEASANT_X
        assert features.x.shape == (len(legal), size)
        action = size - laizi_features.ACTION
        wild = features.x[0, action - laizi_features.WILD_STATE:action]
        assert list(np.flatnonzero(wild)) == list(observation.wild)
        for row, move in zip(features.x, legal, strict=True):
            spent = row[action + 2 * CARD_ROW:]
            assert spent.sum() == 1 and spent[sum(move.counts[r] for r in observation.wild)] == 1
            stands, cards = row[action + CARD_ROW:action + 2 * CARD_ROW], row[action:action + CARD_ROW]
            assert stands.sum() == cards.sum() == move.size
            if move.stands_for:
                seen_substitution = True
                assert not np.array_equal(stands, cards)
    assert seen_substitution


def test_networks_play_the_ruleset_they_learned_and_variants_load_the_other():
    laizi = DMCModels.fresh("doudizhu", "wp", SMALL, seed=1)
    classic = DMCModels.fresh("doudizhu", "wp", ModelConfig(hidden=(16,), lstm=8), seed=1)
    assert adapter_for("doudizhu", "laizi").selfplay_rules() == DouDizhuRules(laizi=True)
    game = load_game("doudizhu")
    with pytest.raises(PaijuError, match="not trained for the rules"):
        play_game(game, [DMCAgent(classic, seed=s) for s in range(3)], seed=2, rules=LAIZI)
    loads = []

    def load_laizi() -> DMCModels:
        loads.append(1)
        return laizi

    agents = [DMCAgent(classic, seed=s, variants=[load_laizi]) for s in range(3)]
    final = play_game(game, agents, seed=2, rules=LAIZI)
    assert final.is_terminal() and len(loads) == 3, "each agent loads the 癞子 networks once"
    assert play_game(game, agents, seed=2, rules=DouDizhuRules()).is_terminal()
