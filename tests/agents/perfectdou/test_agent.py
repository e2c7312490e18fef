"""The PerfectDou player: whole legal games in both modes, determinism, explanations, and bad model paths."""

import random
from pathlib import Path

import numpy as np
import pytest

import paiju
from paiju.agents import make_agent
from paiju.agents.perfectdou import models_at
from paiju.agents.perfectdou.agent import PerfectDouAgent
from paiju.agents.perfectdou.model import ModelConfig, PerfectDouModels, save_models
from paiju.core.agent import PerfectInformationAgent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules

GAME = paiju.load_game("doudizhu")
TINY = ModelConfig(lstm=8, policy=(16, 16), value=(16,), action=(16,))


@pytest.fixture(scope="module")
def model_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("perfectdou") / "model.pt"
    save_models(PerfectDouModels.fresh(TINY, seed=11), path)
    return path


def agents(model_file: Path, seed: int = 0) -> list[PerfectDouAgent]:
    made = [make_agent(f"perfectdou:{model_file}", "doudizhu", seed + i) for i in range(3)]
    assert all(isinstance(agent, PerfectDouAgent) for agent in made)
    return made  # type: ignore[return-value]


@pytest.mark.parametrize("mode", ["research", "full"])
def test_plays_whole_games_legally(model_file: Path, mode: str):
    for seed in range(2):
        state = play_game(GAME, agents(model_file), seed, DouDizhuRules(mode=mode))
        assert state.is_terminal() and not state.invariant_errors()
        assert sum(state.payoffs()) == 0 and any(p != 0 for p in state.payoffs())
        if mode == "full":
            assert state.bids


def test_greedy_play_is_deterministic(model_file: Path):
    records = [play_game(GAME, agents(model_file), 4, DouDizhuRules(mode="research")).to_record()
               for _ in range(2)]
    assert records[0] == records[1]
    folder = play_game(GAME, agents(model_file.parent), 4, DouDizhuRules(mode="research")).to_record()
    assert folder == records[0]


def test_explain_gives_legal_candidates_with_probabilities(model_file: Path):
    agent = agents(model_file)[0]
    state = GAME.new_state(2, DouDizhuRules(mode="research"))
    rng = random.Random(2)
    checked = 0
    while not state.is_terminal() and checked < 8:
        legal = state.legal_actions()
        obs = state.observation(state.current_player)
        explained = agent.explain(obs, legal)
        assert explained and all(scored.action in legal for scored in explained)
        probabilities = [scored.score for scored in explained]
        assert np.isclose(sum(probabilities), 1.0, atol=1e-5) and min(probabilities) >= 0
        assert probabilities == sorted(probabilities, reverse=True)
        assert len({scored.action for scored in explained}) == len(explained)
        if len(legal) > 1:
            assert agent.act(obs, legal) is explained[0].action
        checked += 1
        state.apply(legal[rng.randrange(len(legal))])
    assert checked == 8


def test_sampling_agent_plays_legal_moves(model_file: Path):
    models = models_at(str(model_file))
    sampling = [PerfectDouAgent(models, seed, sample=True) for seed in range(3)]
    state = play_game(GAME, sampling, 1, DouDizhuRules(mode="research"))
    assert state.is_terminal()


def test_bad_model_paths_are_refused(tmp_path: Path):
    missing = tmp_path / "nonexistent.pt"
    with pytest.raises(PaijuError, match=str(missing)):
        make_agent(f"perfectdou:{missing}", "doudizhu", 0)
    with pytest.raises(PaijuError, match=str(tmp_path / "model.pt")):
        make_agent(f"perfectdou:{tmp_path}", "doudizhu", 0)
    with pytest.raises(PaijuError, match="/nonexistent"):
        make_agent("perfectdou:/nonexistent", "doudizhu", 0)


def test_models_are_loaded_once_per_file_version(model_file: Path):
    assert models_at(str(model_file)) is models_at(str(model_file.parent))


def test_is_a_fair_player(model_file: Path):
    agent = agents(model_file)[0]
    assert not isinstance(agent, PerfectInformationAgent)
    assert agent.name == "perfectdou"
