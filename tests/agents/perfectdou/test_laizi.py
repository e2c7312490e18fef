"""癞子 DouDizhu for PerfectDou: the features' extra entries, one candidate per abstract action (the fewest wild
cards), whole games, networks that play only the ruleset they learned, and a tiny PPO run on 癞子."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

import paiju
from paiju.agents import make_agent
from paiju.agents.perfectdou.agent import PerfectDouAgent
from paiju.agents.perfectdou.features import (
    ACTION_SCALE,
    ACTION_SIZE,
    HISTORY_SHAPE,
    LAIZI_ACTION_SCALE,
    LAIZI_ACTION_SIZE,
    LAIZI_STATE_SCALE,
    LAIZI_STATE_SIZE,
    MATRIX,
    PERFECT_SIZE,
    STATE_SCALE,
    STATE_SIZE,
    WILD_SPENT,
    WILD_STATE,
    abstract_of,
    card_matrices,
    decision,
    wild_spent,
)
from paiju.agents.perfectdou.model import ModelConfig, PerfectDouModels, load_models, save_models
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules, parse_cards, parse_move, wild_steps
from paiju.games.doudizhu.abstract_actions import abstract_index
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS, RANKS
from paiju.games.doudizhu.moves import Move
from paiju.games.doudizhu.state import Deal, DouDizhuState
from paiju.train.ppo import PPOConfig, PPORun, train
from paiju.train.ppo_games import DouDizhuPPO

GAME = paiju.load_game("doudizhu")
LAIZI = DouDizhuRules(laizi=True)
TIANDI = DouDizhuRules(laizi=True, wild_ranks=2)
CLASSIC = DouDizhuRules()
TINY = ModelConfig(lstm=8, policy=(16, 16), value=(16,), action=(16,), features="laizi")
EIGHT = RANKS.index("8")


def test_sizes_the_classic_ones_unchanged():
    assert (STATE_SIZE, ACTION_SIZE, PERFECT_SIZE, HISTORY_SHAPE) == (1629, 185, 362, (15, 184))
    assert np.flatnonzero(ACTION_SCALE != 1).tolist() == [184]
    assert (WILD_STATE, WILD_SPENT) == (13, 9)
    assert LAIZI_STATE_SIZE == STATE_SIZE + 13 and LAIZI_ACTION_SIZE == ACTION_SIZE + MATRIX + 9
    assert np.array_equal(LAIZI_STATE_SCALE[:STATE_SIZE], STATE_SCALE) and (LAIZI_STATE_SCALE[STATE_SIZE:] == 1).all()
    assert np.array_equal(LAIZI_ACTION_SCALE[:ACTION_SIZE], ACTION_SCALE)
    assert (LAIZI_ACTION_SCALE[ACTION_SIZE:] == 1).all()
    shipped = make_agent("perfectdou", "doudizhu", 0)
    assert isinstance(shipped, PerfectDouAgent) and shipped.models.config.features == "paper"
    network = shipped.models.networks["landlord"]
    assert network.policy[0].in_features == STATE_SIZE + network.config.lstm
    assert network.action[0].in_features == ACTION_SIZE
    state = GAME.new_state(1, CLASSIC)
    chosen = decision(state.observation(0), state.legal_actions())
    assert chosen.features.state.shape == (STATE_SIZE,) and chosen.features.actions.shape[1] == ACTION_SIZE


def hand_made() -> tuple[DouDizhuState, list[Move]]:
    """The landlord leads with 3 4 5555 6 7 8 99 T J Q K A 2 (the 8s wild) and the three highest cards left."""
    landlord = parse_cards("34555567899TJQKA2")
    rest = [r for r in range(NUM_RANKS) for _ in range(FULL_DECK[r] - landlord[r])]
    hands = [tuple(rest[i:j].count(r) for r in range(NUM_RANKS)) for i, j in ((0, 17), (17, 34), (34, 37))]
    state = GAME.from_deal(Deal((tuple(landlord), hands[0], hands[1]), hands[2], 0, (EIGHT,)), LAIZI)
    return state, state.legal_actions()


def play(text: str):
    return parse_move(text, LAIZI, None, (EIGHT,))


def test_one_candidate_per_abstract_action_spending_the_fewest_wild_cards():
    state, legal = hand_made()
    assert {play("5558=5555"), play("58=55"), play("5589=5559"), play("38=33")} <= set(legal)
    assert abstract_of(play("5589=5559")) == abstract_index(play("5559")), "the kicker is the 9, not the wild 8"
    assert abstract_of(play("5558=5555")) == abstract_of(play("5555")), "one abstract bomb per rank, any tier"
    chosen = decision(state.observation(0), legal)
    by_abstract = dict(zip(chosen.abstract.tolist(), chosen.candidates, strict=True))
    assert by_abstract[abstract_of(play("5555"))] is play("5555"), "the hard bomb, not the soft one"
    assert by_abstract[abstract_of(play("55"))] is play("55")
    assert by_abstract[abstract_of(play("5559"))] is play("5559")
    assert by_abstract[abstract_of(play("38=33"))] is play("38=33"), "the only pair of 3s spends the wild card"
    row = chosen.features.actions[chosen.candidates.index(play("38=33"))]
    assert np.array_equal(row[:MATRIX], card_matrices(parse_cards("38"))[0].ravel())
    assert np.array_equal(row[ACTION_SIZE:ACTION_SIZE + MATRIX], card_matrices(parse_cards("33"))[0].ravel())
    assert row[ACTION_SIZE + MATRIX:].tolist() == [0, 1] + [0] * 7
    assert chosen.features.state[STATE_SIZE:].tolist() == [int(r == EIGHT) for r in range(13)]


def laizi_decisions(rules: DouDizhuRules, seeds: range):
    for seed in seeds:
        state, rng = GAME.new_state(seed, rules), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("rules", [LAIZI, TIANDI], ids=["laizi", "tiandi"])
def test_features_of_random_laizi_decisions(rules: DouDizhuRules):
    substituted = 0
    for state, legal in laizi_decisions(rules, range(2)):
        obs = state.observation(state.current_player)
        chosen = decision(obs, legal, [tuple(h) for h in state.hands])
        features, wild = chosen.features, obs.wild
        assert features.state.shape == (LAIZI_STATE_SIZE,) and features.perfect.shape == (PERFECT_SIZE,)
        assert np.flatnonzero(features.state[STATE_SIZE:]).tolist() == list(wild)
        assert features.state[9 * MATRIX + 6] == wild_steps.min_steps(obs.hand, wild, rules)
        assert features.actions.shape == (len(chosen.candidates), LAIZI_ACTION_SIZE)
        fewest: dict[int, int] = {}
        for move in legal:
            fewest[abstract_of(move)] = min(wild_spent(move, wild), fewest.get(abstract_of(move), 9))
        assert sorted(chosen.abstract.tolist()) == sorted(fewest)
        for row, move, index in zip(features.actions, chosen.candidates, chosen.abstract.tolist(), strict=True):
            assert move in legal and abstract_of(move) == index and wild_spent(move, wild) == fewest[index]
            assert np.array_equal(row[:MATRIX], card_matrices(move.counts)[0].ravel())
            stands = row[ACTION_SIZE:ACTION_SIZE + MATRIX]
            assert np.array_equal(stands, card_matrices(move.effective_counts)[0].ravel())
            assert np.flatnonzero(row[ACTION_SIZE + MATRIX:]).tolist() == [wild_spent(move, wild)]
            substituted += bool(move.stands_for)
    assert substituted > 0


def agents(models: PerfectDouModels, seed: int, sample: bool = False) -> list[PerfectDouAgent]:
    return [PerfectDouAgent(models, seed + seat, sample=sample) for seat in range(3)]


def test_a_laizi_network_plays_whole_games_reproducibly():
    models = PerfectDouModels.fresh(TINY, seed=1)
    for rules in (LAIZI, TIANDI, DouDizhuRules(mode="full", laizi=True)):
        records = [play_game(GAME, agents(models, 5, sample=True), 2, rules).to_record() for _ in range(2)]
        assert records[0] == records[1]
        final = play_game(GAME, agents(models, 5), 3, rules)
        assert final.is_terminal() and not final.invariant_errors()


def test_networks_refuse_the_other_ruleset(tmp_path: Path):
    with pytest.raises(PaijuError, match=r"trained for the classic rules \(paper features\); this table plays 癞子.*"
                                         r"paiju ships no 癞子 PerfectDou networks"):
        play_game(GAME, [make_agent("perfectdou", "doudizhu", seat) for seat in range(3)], 1, LAIZI)
    save_models(PerfectDouModels.fresh(TINY, seed=1), tmp_path / "laizi.pt")
    laizi = [make_agent(f"perfectdou:{tmp_path / 'laizi.pt'}", "doudizhu", seat) for seat in range(3)]
    with pytest.raises(PaijuError, match=r"trained for 癞子 \(laizi features\); this table plays the classic rules"):
        play_game(GAME, laizi, 1, CLASSIC)
    assert play_game(GAME, laizi, 1, TIANDI).is_terminal()


def test_model_files_keep_their_features(tmp_path: Path):
    models = PerfectDouModels.fresh(TINY, seed=2)
    save_models(models, tmp_path / "model.pt")
    assert load_models(tmp_path / "model.pt").config == TINY
    data = models.to_dict()
    del data["model"]["features"]
    torch.save(data, tmp_path / "old.pt")
    with pytest.raises(PaijuError, match="mismatched"):
        load_models(tmp_path / "old.pt")  # read as a classic network: the sizes differ
    assert ModelConfig.from_json({}).features == "paper"
    with pytest.raises(ValueError, match="paper, laizi"):
        ModelConfig.from_json({"features": "plus"})
    with pytest.raises(PaijuError, match="paper, laizi"):
        PPOConfig(out=tmp_path, games=1, features="plus")


def test_a_tiny_ppo_run_trains_on_laizi_and_its_networks_play(tmp_path: Path):
    folder = tmp_path / "run"
    config = PPOConfig(out=folder, seed=3, minutes=0, games=2, actors=1, batch_games=2, epochs=1, features="laizi",
                       model=ModelConfig(lstm=8, policy=(16,), value=(16,), action=(16,)), eval_minutes=0,
                       log_seconds=0, final_eval=False)
    assert config.model.features == "laizi"
    result = train(config, tensorboard=False)
    assert result.games == 2 and result.samples > 0
    run = PPORun.load(folder)
    assert run.models.config.features == "laizi" and run.eval_rules()["laizi"] is True
    assert isinstance(run.game, DouDizhuPPO) and "not a game of 癞子" in run.game.record_problem(
        {"rules": {"mode": "research"}}, soft=False)
    players = [make_agent(f"perfectdou:{folder}", "doudizhu", seat) for seat in range(3)]
    assert play_game(GAME, players, 4, LAIZI).is_terminal()
