"""The DeepRocket agent and its model files."""

import pytest
import torch

from paiju.agents import make_agent
from paiju.agents.deeprocket import SHIPPED_MODEL, nets_at
from paiju.agents.deeprocket.agent import DeepRocketAgent
from paiju.agents.deeprocket.model import PAPER, DeepRocketNets, ModelConfig, load_model, save_model
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhu, DouDizhuRules

TINY = ModelConfig(layers=1, filters=4, kicker_layers=1, kicker_filters=4, head=2)


def test_model_file_round_trip(tmp_path):
    torch.manual_seed(0)
    nets = DeepRocketNets(TINY, {"note": "test"})
    save_model(nets, tmp_path / "m.pt")
    loaded = load_model(tmp_path / "m.pt")
    assert loaded.config == TINY and loaded.meta == {"note": "test"}
    planes = torch.randint(0, 2, (3, 21, 19, 15))
    assert torch.equal(loaded.policy_logits(planes), nets.eval().policy_logits(planes))
    save_model(nets, tmp_path / "model.pt")
    assert load_model(tmp_path).config == TINY  # a training folder: its model.pt


def test_bad_model_files_are_named(tmp_path):
    (tmp_path / "junk.pt").write_bytes(b"not a torch file")
    with pytest.raises(PaijuError, match=r"junk\.pt"):
        load_model(tmp_path / "junk.pt")
    torch.save({"format": "paiju-perfectdou-1"}, tmp_path / "other.pt")
    with pytest.raises(PaijuError, match="not a DeepRocket model file"):
        load_model(tmp_path / "other.pt")
    data = DeepRocketNets(TINY).to_dict()
    data["model"]["filters"] = 8
    torch.save(data, tmp_path / "mismatch.pt")
    with pytest.raises(PaijuError, match=r"mismatch\.pt: damaged or mismatched"):
        load_model(tmp_path / "mismatch.pt")
    with pytest.raises(PaijuError, match="no DeepRocket model"):
        nets_at(str(tmp_path / "missing.pt"))


def test_paper_size_is_a_setting():
    assert (PAPER.layers, PAPER.filters) == (10, 512)
    with pytest.raises(ValueError):
        DeepRocketNets(ModelConfig(layers=0))


@pytest.mark.parametrize("mode", ["research", "full"])
def test_random_networks_play_legal_games(mode):
    torch.manual_seed(1)
    nets = DeepRocketNets(TINY)
    game = DouDizhu()
    for seed in range(4):
        agents = [DeepRocketAgent(nets), make_agent("random", "doudizhu", seed), DeepRocketAgent(nets)]
        state = play_game(game, agents, seed, DouDizhuRules(mode=mode))  # raises on an illegal play
        assert state.is_terminal()


def test_explain_ranks_legal_plays_by_probability():
    torch.manual_seed(2)
    agent = DeepRocketAgent(DeepRocketNets(TINY))
    state = DouDizhu().new_state(3)
    legal = state.legal_actions()
    scored = agent.explain(state.observation(state.current_player), legal)
    assert {s.action for s in scored} <= set(legal)
    assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert abs(sum(s.score for s in scored) - 1) < 1e-5
    assert agent.act(state.observation(state.current_player), legal) == scored[0].action


def test_shipped_model_plays():
    assert SHIPPED_MODEL.is_file()
    agent = make_agent("deeprocket", "doudizhu", 0)
    state = play_game(DouDizhu(), [agent, make_agent("rules", "doudizhu", 1), agent], 7)
    assert state.is_terminal()
    assert nets_at("").meta["trainer"] == "paiju train sl"
