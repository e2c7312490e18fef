"""PPO for GuanDan: a DMC network as the policy (scores / τ), a critic that sees the hidden hands, runs from a DMC
file that write one back, returns per round, determinism, and what is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from paiju.agents import make_agent
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.models import ModelConfig as DMCModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models, save_models
from paiju.agents.model_files import MODEL_FILE
from paiju.agents.perfectdou import guandan
from paiju.agents.perfectdou.model import ModelConfig, PerfectDouModels
from paiju.agents.perfectdou.model import save_models as save_perfectdou
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.games.guandan.rules import GuanDanRules
from paiju.train.ppo import PPOConfig, PPORun, train
from paiju.train.ppo_selfplay import PPOWorker, gae, weights_of
from paiju.train.segments import owners

NETS = guandan.GuanDanNets(DMCModelConfig(hidden=(8,), features="plus"), value=(8,))


def tiny_dmc(path: Path, seed: int = 7) -> Path:
    save_models(DMCModels.fresh("guandan", "adp", DMCModelConfig(hidden=(8,)), seed), path)
    return path


def tiny(out: Path, **changes: object) -> PPOConfig:
    settings = {"out": out, "game": "guandan", "seed": 3, "minutes": 0, "games": 1, "actors": 1, "batch_games": 1,
                "model": ModelConfig(policy=(8,), value=(8,)), "epochs": 1, "eval_minutes": 0, "log_seconds": 0,
                **changes}
    return PPOConfig(**settings)  # type: ignore[arg-type]


def test_a_run_from_a_dmc_file_writes_a_dmc_file_that_dmc_plays(tmp_path: Path) -> None:
    start = tiny_dmc(tmp_path / "start.pt")
    folder = tmp_path / "run"
    result = CliRunner().invoke(app, ["train", "ppo", "--game", "guandan", "--init", str(start), "--out", str(folder),
                                      "--games", "1", "--minutes", "0", "--actors", "1", "--batch-games", "1",
                                      "--value", "8", "--epochs", "1", "--eval-minutes", "0", "--no-tensorboard"])
    assert result.exit_code == 0, result.output
    assert "played 1 games" in result.output
    assert f"(agentdmc:{folder / 'model.pt'})" in "".join(result.output.split())  # the console wraps lines
    trained, before = load_models(folder / MODEL_FILE), load_models(start)
    assert trained.game == "guandan" and trained.config == before.config
    assert trained.meta["trainer"] == "paiju train ppo" and "logits × τ (τ = 0.1)" in trained.meta["scores"]
    assert not torch.equal(trained.networks["player"].mlp[0].weight, before.networks["player"].mlp[0].weight)
    agent = make_agent(f"dmc:{folder / MODEL_FILE}", "guandan", 0)
    state = load_game("guandan").new_state(1, GuanDanRules(rounds=1))
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])
    observation = state.observation(state.current_player)
    assert agent.act(observation, state.legal_actions()) in state.legal_actions()
    assert "logits × τ" in agent.scale(observation)
    resumed = PPORun.load(folder)
    assert resumed.models.networks["player"].value[0].in_features == 516 + guandan.PERFECT_SIZE, "the critic is kept"


def test_the_critic_sees_the_hidden_hands_and_the_actor_does_not() -> None:
    state = load_game("guandan").new_state(4, GuanDanRules(rounds=1))
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    perfect = guandan.perfect_features(state.hands, seat)
    counts = perfect[:162].reshape(3, 54)
    assert [int(block.sum()) for block in counts] == [27, 27, 27] == list(perfect[162:])
    assert not np.array_equal(counts[0], counts[1]), "each block is one player's hand"
    # the actor's inputs are the seat's own observation, encoded as DMC encodes it
    worker = PPOWorker(NETS, 0.0, 3.0, 0.95, seed=2)
    steps = worker.collect(0, 1).steps["player"]
    assert set(steps.inputs) == {"state", "perfect"} and set(steps.candidates) == {"actions"}
    network = worker.models.networks["player"]
    game = worker.game
    owner = owners(torch.from_numpy(steps.counts))
    logits, values = game.evaluate(network, steps, owner)
    hidden = replace(steps, inputs={**steps.inputs, "perfect": np.zeros_like(steps.perfect)})
    other_logits, other_values = game.evaluate(network, hidden, owner)
    assert torch.equal(logits, other_logits), "the policy never reads the hidden hands"
    assert not torch.allclose(values, other_values), "the critic does"
    encoded = adapter_for("guandan", "plus").encode(state.observation(seat), state.legal_actions())
    assert network.policy.mlp[0].in_features == len(encoded.state) + encoded.actions.shape[1]
    assert network.value[0].in_features == len(encoded.state) + len(perfect) == steps.state.shape[1] + len(perfect)
    blind = guandan.GuanDanActorCritic(replace(NETS, perfect=False))
    assert blind.value[0].in_features == len(encoded.state), "the PTIE ablation: the critic sees what the actor sees"
    assert state.observation(seat).hand == state.hands[seat], "the actor's view: its own hand, not the others'"


@pytest.mark.parametrize("features", ["plus", "paper", "advice"])
def test_the_actor_and_critic_read_rows_of_each_encoder(features: str) -> None:
    state = load_game("guandan").new_state(5, GuanDanRules(rounds=1))
    while state.phase != "play":  # type: ignore[attr-defined]
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    encoded = adapter_for("guandan", features).encode(state.observation(seat), state.legal_actions())
    network = guandan.GuanDanActorCritic(replace(NETS, policy=DMCModelConfig(hidden=(8,), features=features)))
    perfect = torch.from_numpy(guandan.perfect_features(state.hands, seat))[None]
    states, actions = torch.from_numpy(encoded.state), torch.from_numpy(encoded.actions)
    assert network.logits(states, actions).shape == (len(encoded.actions),)
    assert network.values(states[None], perfect).shape == (1,)


def test_returns_are_the_rounds_result_for_each_seats_decisions_of_the_round() -> None:
    teacher = PPOWorker(NETS, 0.0, 3.0, 0.95, seed=5).collect(0, 1, teacher="rules").steps["player"]
    assert len(teacher) > 0 and np.all(teacher.value == 0)
    results = set(np.round(teacher.ret * 3, 4))
    assert results <= {-4.0, -3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 4.0}, "λ = 1, no critic: the round's result / 3"
    assert np.array_equal(teacher.advantage, teacher.ret)
    assert np.all(teacher.counts > 1), "single-action decisions are not samples"
    # GAE with the reward at the round's end: Â_k = λ^(n-1-k) r + Σ_j λ^j (V_{k+j+1} − V_{k+j}) terms
    values, lam = np.array([0.2, -0.1, 0.4]), 0.95
    rewards = np.array([0.0, 0.0, 1.0])
    deltas = [0.0 - 0.1 - 0.2, 0.0 + 0.4 + 0.1, 1.0 - 0.4]
    expected = [deltas[0] + lam * deltas[1] + lam ** 2 * deltas[2], deltas[1] + lam * deltas[2], deltas[2]]
    assert np.allclose(gae(rewards, values, lam), expected)


def test_same_seed_same_weights(tmp_path: Path) -> None:
    start = str(tiny_dmc(tmp_path / "start.pt"))
    for name, seed in (("a", 3), ("b", 3), ("other", 4)):
        train(tiny(tmp_path / name, init=start, seed=seed), tensorboard=False)
    weights = {name: weights_of(PPORun.load(tmp_path / name).models)["player"] for name in ("a", "b", "other")}
    assert all(np.array_equal(weights["a"][key], weights["b"][key]) for key in weights["a"])
    assert not all(np.array_equal(weights["a"][key], weights["other"][key]) for key in weights["a"])


def test_init_with_a_doudizhu_file_is_refused_naming_what_it_holds(tmp_path: Path) -> None:
    save_perfectdou(PerfectDouModels.fresh(ModelConfig(lstm=4, policy=(8,), value=(8,), action=(8,)), 1),
                    tmp_path / "perfectdou.pt")
    save_models(DMCModels.fresh("doudizhu", "adp", DMCModelConfig(hidden=(8,), lstm=4), 1), tmp_path / "dmc.pt")
    with pytest.raises(PaijuError, match=r"perfectdou.pt holds PerfectDou DouDizhu networks"):
        PPORun.create(tiny(tmp_path / "run", init=str(tmp_path / "perfectdou.pt")))
    with pytest.raises(PaijuError, match=r"dmc.pt holds DMC doudizhu networks"):
        PPORun.create(tiny(tmp_path / "run", init=str(tmp_path / "dmc.pt")))
    assert not (tmp_path / "run").exists()


def test_settings_take_the_games_defaults_and_bad_ones_are_refused(tmp_path: Path) -> None:
    assert tiny(tmp_path, batch_games=0).batch_games == 4
    assert tiny(tmp_path, game="doudizhu", batch_games=0).batch_games == 64
    config = tiny(tmp_path)
    assert config.features == "plus" and config.value_scale == 3.0
    for changes, message in (({"temperature": 0.0}, "temperature must be positive"),
                             ({"features": "cards"}, "guandan DMC features must be one of plus, paper"),
                             ({"game": "doudizhu", "features": "plus"}, "must be one of paper, laizi"),
                             ({"game": "gongzhu"}, "has no encoder for 'gongzhu'"),
                             ({"gae_lambda": 1.5}, "gae_lambda"),
                             ({"oracle_scale": 0.0}, r"oracle_scale: DouDizhu's PPO setting, which guandan PPO"),
                             ({"model": ModelConfig(lstm=8, policy=(8,), value=(8,)), "warm_target": "soft"},
                              "lstm, warm_target: DouDizhu's"),
                             ({"game": "doudizhu", "temperature": 0.5}, "temperature: GuanDan's PPO setting")):
        with pytest.raises(PaijuError, match=message):
            tiny(tmp_path, **changes)
