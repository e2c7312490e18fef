"""The DMC agent: networks, model files, legal play in every phase, features that survive int8 storage."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

from paiju import load_game, make_agent
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.agent import q_values
from paiju.agents.dmc.models import HistoryQNet, ModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models, save_models, shipped_model_path
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.guandan.rules import GuanDanRules

SMALL = ModelConfig(hidden=(32, 32), lstm=16)


@pytest.fixture(scope="module")
def model_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("models")
    files = {}
    for game in ("doudizhu", "guandan"):
        files[game] = folder / f"{game}.pt"
        save_models(DMCModels.fresh(game, "adp", SMALL, seed=3), files[game])
    return files


def random_decisions(game_name: str, rules: object, games: int, seed: int):
    """(observation, legal) of every network decision of some random games."""
    game, adapter, rng = load_game(game_name), adapter_for(game_name), random.Random(seed)
    for index in range(games):
        state = game.new_state(seed + index, rules)
        while not state.is_terminal():
            observation, legal = state.observation(state.current_player), state.legal_actions()
            if adapter.role(observation) is not None:
                yield observation, legal
            state.apply(rng.choice(legal))


@pytest.mark.parametrize(("game", "rules"), [("doudizhu", DouDizhuRules(mode="full")),
                                             ("guandan", GuanDanRules(rounds=2))])
def test_features_are_small_integers_so_int8_storage_is_exact(game: str, rules: object) -> None:
    adapter = adapter_for(game)
    for observation, legal in random_decisions(game, rules, games=3, seed=11):
        decision = adapter.encode(observation, legal)
        for array in (decision.x, *decision.context.values()):
            assert np.array_equal(array.astype(np.int8).astype(np.float32), array)


def test_history_summary_is_broadcast_over_the_actions() -> None:
    torch.manual_seed(0)
    network = HistoryQNet(373, SMALL)
    x, z = torch.rand(7, 373), torch.rand(1, 5, 162)
    assert torch.allclose(network(x, z), network(x, z.expand(7, -1, -1)), atol=1e-6)


@pytest.mark.parametrize("half", [False, True])
def test_model_files_round_trip(tmp_path: Path, half: bool) -> None:
    models = DMCModels.fresh("doudizhu", "wp", SMALL, seed=5)
    models.meta = {"frames": 123}
    save_models(models, tmp_path / "m.pt", half=half)
    loaded = load_models(tmp_path / "m.pt")
    expected = ModelConfig(hidden=SMALL.hidden, lstm=SMALL.lstm, features="paper")
    assert (loaded.game, loaded.objective, loaded.config, loaded.meta) == ("doudizhu", "wp", expected, {"frames": 123})
    for role, network in models.networks.items():
        for (name, value), other in zip(network.state_dict().items(), loaded.networks[role].state_dict().values(),
                                        strict=True):
            assert torch.allclose(value, other, atol=1e-3 if half else 0), name


def test_bad_model_files_are_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "junk.pt").write_bytes(b"not a model")
    with pytest.raises(PaijuError, match=r"junk\.pt"):
        load_models(tmp_path / "junk.pt")
    with pytest.raises(PaijuError, match="no DMC model"):
        make_agent(f"dmc:{tmp_path / 'missing.pt'}", "doudizhu")
    torch.save({"format": "something else"}, tmp_path / "other.pt")
    with pytest.raises(PaijuError, match="not a paiju DMC model"):
        load_models(tmp_path / "other.pt")


def test_a_file_naming_no_features_holds_the_papers_network_and_unknown_features_are_refused(tmp_path: Path) -> None:
    data = DMCModels.fresh("guandan", "adp", ModelConfig(hidden=(8,), features="paper"), seed=1).to_dict()
    del data["model"]["features"]  # files written before the encoder was a choice
    torch.save(data, tmp_path / "old.pt")
    old = load_models(tmp_path / "old.pt")
    assert old.config.features == old.adapter.features == "paper"
    final = play_game(load_game("guandan"), [make_agent(f"dmc:{tmp_path / 'old.pt'}", "guandan", seat)
                                             for seat in range(4)], seed=2, rules=GuanDanRules(rounds=1))
    assert final.is_terminal()
    data["model"]["features"] = "fancy"
    torch.save(data, tmp_path / "bad.pt")
    with pytest.raises(PaijuError, match=r"bad\.pt: .*features must be one of plus, paper, advice, got 'fancy'"):
        load_models(tmp_path / "bad.pt")
    data["model"]["features"] = "plus"  # a paper-sized network declared as plus
    torch.save(data, tmp_path / "mixed.pt")
    with pytest.raises(PaijuError, match=r"mixed\.pt: the player network of plus features has mlp\.0\.weight of "
                                         r"shape \(8, 690\); the file holds \(8, 567\)"):
        load_models(tmp_path / "mixed.pt")


def test_networks_of_another_game_are_refused(model_files: dict[str, Path]) -> None:
    with pytest.raises(PaijuError, match="guandan networks, not doudizhu"):
        make_agent(f"dmc:{model_files['guandan']}", "doudizhu")


def test_doudizhu_agent_bids_and_plays_legally(model_files: dict[str, Path]) -> None:
    game = load_game("doudizhu")
    agents = [make_agent(f"dmc:{model_files['doudizhu']}", "doudizhu", seed) for seed in range(3)]
    for seed in range(3):
        final = play_game(game, agents, seed=seed, rules=DouDizhuRules(mode="full"))
        assert final.is_terminal()


def test_guandan_agent_plays_tribute_rounds_legally(model_files: dict[str, Path]) -> None:
    game = load_game("guandan")
    agents = [make_agent(f"dmc:{model_files['guandan']}", "guandan", seed) for seed in range(4)]
    final = play_game(game, agents, seed=1, rules=GuanDanRules(rounds=3))
    assert len(final.result()["rounds"]) == 3


def test_explain_ranks_by_q_value(model_files: dict[str, Path]) -> None:
    agent = make_agent(f"dmc:{model_files['doudizhu']}", "doudizhu")
    observation, legal = next(d for d in random_decisions("doudizhu", DouDizhuRules(), 2, seed=4) if len(d[1]) > 3)
    ranked = agent.explain(observation, legal)
    assert sorted(map(str, (a.action for a in ranked))) == sorted(map(str, legal))
    assert [a.score for a in ranked] == sorted((a.score for a in ranked), reverse=True)
    assert agent.act(observation, legal) == ranked[0].action


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_shipped_models_play(game: str) -> None:
    if not shipped_model_path(game).is_file():
        pytest.fail(f"the package ships no {game} model at {shipped_model_path(game)}")
    models = load_models(shipped_model_path(game))
    assert models.game == game and {"frames", "seconds", "seed", "command"} <= set(models.meta)
    agent = make_agent("dmc", game)
    observation, legal = next(random_decisions(game, None, 1, seed=2))
    assert agent.act(observation, legal) in legal


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_scoring_a_decision_equals_the_network_on_every_row(game: str) -> None:
    """``score`` computes the state's share of the first layer once; the values are those of the whole rows."""
    adapter = adapter_for(game)
    models = DMCModels.fresh(game, "adp", ModelConfig(hidden=(32, 16), lstm=8), seed=3)
    state = load_game(game).new_state(5, adapter.selfplay_rules())
    while adapter.role(state.observation(state.current_player)) is None or len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    observation = state.observation(state.current_player)
    decision = adapter.encode(observation, state.legal_actions())
    network = models.networks[adapter.role(observation)]
    context = {name: torch.from_numpy(value)[None].expand(len(decision.actions), *value.shape)
               for name, value in decision.context.items()}
    with torch.inference_mode():
        whole = network(torch.from_numpy(decision.x), **context).numpy()
    assert decision.x.shape == (len(decision.actions), len(decision.state) + decision.actions.shape[1])
    assert np.allclose(q_values(network, decision), whole, atol=1e-5)
    assert np.array_equal(decision.row(1), decision.x[1])
