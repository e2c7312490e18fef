"""ScrofaZero's play-time agent and its network evaluator: legal, reproducible decisions that depend on the
observation only, complete explanations, whole games, option errors, masked priors and batching."""

import math
import random
import time

import numpy as np
import pytest
import torch

from paiju.agents import agent_names, make_agent
from paiju.agents.scrofazero.agent import ScrofaZeroAgent, ScrofaZeroOptions, parse_argument
from paiju.agents.scrofazero.evaluator import MixedEvaluator, NetworkEvaluator, network_policy
from paiju.agents.scrofazero.features import encode_batch
from paiju.agents.scrofazero.mcts import POLICY_SHARPNESS, RolloutEvaluator, uniform_priors
from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet, save
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.gongzhu import Gongzhu
from paiju.games.gongzhu.cards import CARD_INDEX
from paiju.games.gongzhu.scoring import seat_results

GAME = Gongzhu()
TINY = ModelConfig(width1=16, width2=16, width3=8, blocks=1)
FAST = ScrofaZeroOptions(scenarios=4, simulations=6, mix=0.0)


@pytest.fixture(scope="module")
def model() -> ScrofaNet:
    return ScrofaNet(TINY, seed=3)


@pytest.fixture(scope="module")
def model_file(model, tmp_path_factory):
    path = tmp_path_factory.mktemp("scrofazero") / "tiny.pt"
    save(model, path)
    return path


def mid_game(seed: int, plays: int):
    """A seeded deal after ``plays`` random legal plays."""
    rng = random.Random(seed)
    state = GAME.new_state(seed)
    for _ in range(plays):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


POSITIONS = [mid_game(seed, plays) for seed, plays in ((1, 9), (2, 17), (3, 22), (4, 30), (5, 41))]


@pytest.mark.parametrize("sampler", ["iec", "ss", "uniform"])
def test_plays_a_legal_card_with_every_sampler(model, sampler):
    agent = ScrofaZeroAgent(model, seed=7, options=ScrofaZeroOptions(sampler=sampler, scenarios=30, simulations=4))
    for state in POSITIONS:
        legal = state.legal_actions()
        assert agent.act(state.observation(state.to_move), legal) in legal


def test_same_seed_same_decision_and_scores(model):
    for state in POSITIONS:
        observation, legal = state.observation(state.to_move), state.legal_actions()
        first = ScrofaZeroAgent(model, seed=11, options=FAST).explain(observation, legal)
        second = ScrofaZeroAgent(model, seed=11, options=FAST).explain(observation, legal)
        assert first == second


@pytest.mark.parametrize("options", [FAST, ScrofaZeroOptions(scenarios=3, simulations=4, mix=0.5)])
def test_cannot_peek_at_the_true_deal(model, options):
    """Two different true deals behind one observation give the same decision and the same values, with leaves
    valued by the network or by network and rollouts."""
    for state in POSITIONS:
        observation = state.observation(state.to_move)
        rng = random.Random(5)
        deals = [GAME.determinize(observation, rng) for _ in range(2)]
        assert deals[0].hands != deals[1].hands
        decisions = []
        for deal in deals:
            assert deal.observation(state.to_move) == observation
            agent = ScrofaZeroAgent(model, seed=2, options=options)
            decisions.append(agent.explain(deal.observation(deal.to_move), deal.legal_actions()))
        assert decisions[0] == decisions[1]


def test_explain_scores_every_legal_card_best_first(model):
    agent = ScrofaZeroAgent(model, seed=1, options=FAST)
    for state in POSITIONS:
        observation, legal = state.observation(state.to_move), state.legal_actions()
        scored = agent.explain(observation, legal)
        assert sorted(entry.action for entry in scored) == sorted(legal)
        assert all(math.isfinite(entry.score) for entry in scored)
        assert [entry.score for entry in scored] == sorted((entry.score for entry in scored), reverse=True)


def test_a_whole_game_of_four_agents_finishes(model_file):
    agents = [make_agent(f"scrofazero:path={model_file},scenarios=2,simulations=3", "gongzhu", seed)
              for seed in range(4)]
    final = play_game(GAME, agents, seed=9)
    assert final.over and sum(final.payoffs()) == 0


def test_agent_names_and_options(model_file):
    assert "scrofazero" in agent_names("gongzhu")
    assert isinstance(make_agent(f"scrofazero:{model_file}", "gongzhu"), ScrofaZeroAgent)
    assert parse_argument("path=m.pt,sampler=ss,scenarios=8,simulations=12,beta=0.02,mix=0.25") == (
        "m.pt", ScrofaZeroOptions(sampler="ss", scenarios=8, simulations=12, beta=0.02, mix=0.25))
    assert parse_argument("m.pt") == ("m.pt", ScrofaZeroOptions())
    assert ScrofaZeroOptions().mix == 0.5 and parse_argument("mix=0")[1].mix == 0
    assert parse_argument("uniform") == ("", ScrofaZeroOptions(sampler="uniform"))
    assert parse_argument("ss,m.pt,scenarios=4") == ("m.pt", ScrofaZeroOptions(sampler="ss", scenarios=4))
    assert parse_argument("path=ss") == ("ss", ScrofaZeroOptions())
    assert parse_argument("ss,ms=30") == ("", ScrofaZeroOptions(sampler="ss", ms=30))
    agent = make_agent(f"scrofazero:uniform,path={model_file}", "gongzhu")
    assert isinstance(agent, ScrofaZeroAgent) and agent.options.sampler == "uniform"


def test_the_bare_names_play_the_shipped_network_or_say_none_ships(model_file, tmp_path, monkeypatch):
    from paiju.agents.scrofazero import agent as scrofazero_agent

    monkeypatch.setattr(scrofazero_agent, "SHIPPED_MODEL", tmp_path / "missing.pt")
    for spec in ("scrofazero", "scrofazero:sampler=iec", "scrofazero:ss"):
        with pytest.raises(PaijuError, match="needs a model"):
            make_agent(spec, "gongzhu")
    monkeypatch.setattr(scrofazero_agent, "SHIPPED_MODEL", model_file)
    assert make_agent("scrofazero:ss", "gongzhu").options.sampler == "ss"
    assert make_agent("scrofazero", "gongzhu").options == ScrofaZeroOptions()


@pytest.mark.parametrize(("spec", "message"), [
    ("scrofazero:path=/no/such.pt", "no ScrofaNet model file"),
    ("scrofazero:ss,uniform", "sampler is given twice"),
    ("scrofazero:path=m.pt,mix=1.5", "mix must be a number from 0 to 1"),
    ("scrofazero:path=m.pt,mix=-0.1", "mix must be a number from 0 to 1"),
    ("scrofazero:path=m.pt,mix=nan", "mix must be a number from 0 to 1"),
    ("scrofazero:path=m.pt,mix=half", "mix must be a number"),
    ("scrofazero:path=m.pt,scenarios=-1", "scenarios must be a whole number >= 1"),
    ("scrofazero:path=m.pt,sampler=greedy", "sampler must be one of"),
    ("scrofazero:path=m.pt,scenarios=0", "scenarios must be a whole number"),
    ("scrofazero:path=m.pt,simulations=x", "simulations must be a whole number"),
    ("scrofazero:path=m.pt,beta=-1", "beta must be a finite number"),
    ("scrofazero:path=m.pt,beta=nan", "beta must be a finite number"),
    ("scrofazero:path=m.pt,depth=3", "unknown scrofazero option 'depth'; accepted keys: sampler, scenarios, "
                                     "simulations, ms, beta, mix, path"),
    ("scrofazero:path=m.pt,ms=0", "ms must be a whole number >= 1, got '0'"),
    ("scrofazero:path=m.pt,ms=2.5", "ms must be a whole number >= 1, got '2.5'"),
    ("scrofazero:path=m.pt,ms=fast", "ms must be a whole number"),
    ("scrofazero:perfect,ms=10", "scrofazero:perfect takes no ms= option: .*no time budget"),
    ("scrofazero:path=m.pt,path=n.pt", "path is given twice"),
    ("scrofazero:m.pt,beta=inf", "beta must be a finite number >= 0, got 'inf'"),
])
def test_bad_options_are_named(spec, message):
    with pytest.raises(PaijuError, match=message):
        make_agent(spec, "gongzhu")


def test_options_made_in_code_refuse_a_bad_time_budget():
    for bad in (0, -5, 1.5, True):
        with pytest.raises(PaijuError, match="scrofazero option ms must be a whole number >= 1"):
            ScrofaZeroOptions(ms=bad)


class ScoreSoFar:
    """Leaves valued by the result if the game stopped there: the same value whatever the batch."""

    def evaluate(self, states):
        return uniform_priors(states), np.array([seat_results(s.scores())[s.to_move] for s in states], float)


def test_a_time_budget_plays_legal_cards_valued_and_stops_near_the_deadline(model):
    """Without a count the searches run until the deadline; with 1 ms still every legal card is valued."""
    for ms in (1, 30):
        agent = ScrofaZeroAgent(model, seed=4, options=ScrofaZeroOptions(scenarios=6, mix=0.0, ms=ms))
        for state in POSITIONS[:3]:
            observation, legal = state.observation(state.to_move), state.legal_actions()
            started = time.perf_counter()
            scored = agent.explain(observation, legal)
            elapsed = time.perf_counter() - started
            assert sorted(entry.action for entry in scored) == sorted(legal)
            assert all(math.isfinite(entry.score) for entry in scored)
            assert agent.act(observation, legal) in legal
            assert ms / 1000 <= elapsed < ms / 1000 + 2.0  # generous: a loaded machine may stall


def test_a_time_budget_with_time_to_spare_and_a_count_decides_as_the_count_alone(model):
    """``ms`` is a deadline on the same searches: given the time, the same cards get the same values."""
    timed = ScrofaZeroOptions(scenarios=4, simulations=6, mix=0.0, ms=600_000)
    for state in POSITIONS:
        observation, legal = state.observation(state.to_move), state.legal_actions()
        decisions = []
        for options in (FAST, timed):
            agent = ScrofaZeroAgent(model, seed=11, options=options)
            agent.evaluator = ScoreSoFar()
            decisions.append(agent.explain(observation, legal))
        untimed, within_time = decisions
        assert [entry.action for entry in within_time] == [entry.action for entry in untimed]
        assert [entry.score for entry in within_time] == pytest.approx([entry.score for entry in untimed])


def test_bad_observation_or_legal_cards(model):
    agent = ScrofaZeroAgent(model, options=FAST)
    state = POSITIONS[0]
    with pytest.raises(PaijuError, match="Gongzhu observations"):
        agent.explain({"hand": []}, state.legal_actions())
    with pytest.raises(PaijuError, match="legal Gongzhu cards"):
        agent.explain(state.observation(state.to_move), ["XX"])


def test_evaluator_priors_are_zero_on_illegal_cards_and_sum_to_one(model):
    priors, values = NetworkEvaluator(model).evaluate(POSITIONS)
    for state, row in zip(POSITIONS, priors, strict=True):
        legal = [CARD_INDEX[card] for card in state.legal_actions()]
        illegal = np.ones(52, dtype=bool)
        illegal[legal] = False
        assert np.all(row[illegal] == 0) and np.all(row[legal] > 0)
        assert row.sum() == pytest.approx(1.0)
    assert values.shape == (len(POSITIONS),) and np.all(np.isfinite(values))


def test_evaluator_batch_equals_one_by_one(model):
    evaluator = NetworkEvaluator(model)
    priors, values = evaluator.evaluate(POSITIONS)
    for row, state in enumerate(POSITIONS):
        alone_priors, alone_values = evaluator.evaluate([state])
        np.testing.assert_allclose(alone_priors[0], priors[row], rtol=1e-5, atol=1e-7)
        assert alone_values[0] == pytest.approx(values[row], rel=1e-5, abs=1e-5)


def test_evaluator_values_a_finished_game_exactly(model):
    final = mid_game(6, 52)
    priors, values = NetworkEvaluator(model).evaluate([final, POSITIONS[0]])
    assert values[0] == final.payoffs()[final.to_move] and not priors[0].any()


def test_network_policy_is_logits_in_points_without_the_other_hands(model):
    """IEC's values are the logits / 0.2 and do not change when the other seats' cards are swapped."""
    state = POSITIONS[1]
    observation = state.observation(state.to_move)
    other = GAME.determinize(observation, random.Random(1))
    assert other.hands != state.hands
    values = network_policy(model)([state, other])
    assert values.shape == (2, 52)
    np.testing.assert_allclose(values[0], values[1], rtol=1e-5, atol=1e-5)
    with torch.inference_mode():
        logits, _ = model(torch.from_numpy(encode_batch([state], average_others=True)))
    np.testing.assert_allclose(values[0], logits[0].double().numpy() / POLICY_SHARPNESS, rtol=1e-5, atol=1e-6)


def test_mixed_leaves_weigh_network_and_rollout_values(model):
    """AlphaGo's leaf value (1 − λ)·v_net + λ·z, z one rollout; λ = 1 is the rollouts alone."""
    network = NetworkEvaluator(model)
    rollout = RolloutEvaluator(lambda seed: make_agent("mr-greed:1", "gongzhu", seed), seed=4)
    states = [*POSITIONS, GAME.new_state(12)]
    net_priors, net_values = network.evaluate(states)
    played = np.array([rollout.rollout(state) for state in states])
    assert not np.allclose(net_values, played)
    priors, values = MixedEvaluator(network, rollout, 0.25).evaluate(states)
    np.testing.assert_allclose(values, 0.75 * net_values + 0.25 * played)
    np.testing.assert_array_equal(priors, net_priors)
    _, alone = MixedEvaluator(network, rollout, 1.0).evaluate(states)
    np.testing.assert_array_equal(alone, played)


def test_mixed_leaves_play_legal_reproducible_cards(model):
    options = ScrofaZeroOptions(scenarios=2, simulations=3, mix=1.0)
    state = GAME.new_state(4)
    observation, legal = state.observation(0), state.legal_actions()
    first = ScrofaZeroAgent(model, seed=2, options=options).explain(observation, legal)
    assert first == ScrofaZeroAgent(model, seed=2, options=options).explain(observation, legal)
    assert first[0].action in legal
    assert isinstance(ScrofaZeroAgent(model, options=options).evaluator, MixedEvaluator)
    assert isinstance(ScrofaZeroAgent(model, options=FAST).evaluator, NetworkEvaluator)
