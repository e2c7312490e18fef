"""Short PerfectDou (PPO) runs: rewards and advantages, the loss, and runs that learn, log, checkpoint, resume,
repeat by seed, run on Ray and stop on SIGTERM."""

from __future__ import annotations

import csv
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from paiju.agents import make_agent
from paiju.agents.model_files import MODEL_FILE
from paiju.agents.perfectdou.model import ModelConfig, PerfectDouModels, load_models, save_models
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.train.loop import CHECKPOINT_FILE, share
from paiju.train.plot import plot_run
from paiju.train.ppo import PPOConfig, PPORun, learn, losses, train
from paiju.train.ppo_selfplay import RESEARCH, PPOWorker, advantage, gae
from paiju.train.segments import log_softmax_by_decision

SMALL = ModelConfig(lstm=8, policy=(16, 16), value=(16,), action=(16,))


def tiny(out: Path, **changes: object) -> PPOConfig:
    settings = {"out": out, "seed": 3, "minutes": 0, "games": 8, "actors": 1, "model": SMALL, "batch_games": 4,
                "epochs": 1, "eval_minutes": 0, "log_seconds": 0, **changes}
    return PPOConfig(**settings)  # type: ignore[arg-type]


def parameters(folder: Path) -> dict[str, np.ndarray]:
    models = load_models(folder / MODEL_FILE)
    return {f"{role}.{name}": value.numpy() for role, network in models.networks.items()
            for name, value in network.state_dict().items()}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def test_gae_with_gamma_one() -> None:
    rewards, values = np.array([1.0, 0.0, 2.0]), np.array([0.5, 1.0, 1.5])
    deltas = [1.0 + 1.0 - 0.5, 0.0 + 1.5 - 1.0, 2.0 + 0.0 - 1.5]
    lam = 0.9
    expected = [deltas[0] + lam * deltas[1] + lam ** 2 * deltas[2], deltas[1] + lam * deltas[2], deltas[2]]
    assert np.allclose(gae(rewards, values, lam), expected)
    assert np.allclose(gae(rewards, values, 1.0) + values, [3.0, 2.0, 2.0]), "λ = 1: Monte-Carlo returns"


@pytest.mark.parametrize("oracle_scale", [50.0, 0.0])
def test_returns_are_the_oracle_advantage_change_plus_the_final_score(oracle_scale: float) -> None:
    """With λ = 1 and no critic, a seat's first return telescopes: sign · l · (Adv_end − Adv_first) + score."""
    worker = PPOWorker(SMALL, oracle_scale, max(1.0, oracle_scale), 0.95, seed=5)
    chunk = worker.collect(0, 2, teacher="rules")
    game = load_game("doudizhu")
    from paiju.eval.seeds import derive_seed

    chunk_seed = derive_seed(5, "chunk", 0)
    state = game.new_state(derive_seed(chunk_seed, "game", 0), RESEARCH)
    teacher = make_agent("rules", "doudizhu", chunk_seed)
    first_adv = None
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player == state.landlord and len(legal) > 1 and first_adv is None:
            first_adv = advantage(state.landlord, state.hands)
        state.apply(teacher.act(state.observation(state.current_player), legal))
    end_adv = advantage(state.landlord, state.hands)
    expected = -oracle_scale * (end_adv - first_adv) + state.payoffs()[state.landlord]
    assert chunk.steps["landlord"].ret[0] * max(1.0, oracle_scale) == pytest.approx(expected, abs=1e-3)


def test_steps_take_keeps_each_decisions_candidates() -> None:
    chunk = PPOWorker(SMALL, 50.0, 50.0, 0.95, seed=1).collect(0, 2)
    steps = chunk.steps["landlord"]
    rows = np.array([2, 0])
    taken = steps.take(rows)
    starts = np.cumsum(steps.counts) - steps.counts
    assert np.array_equal(taken.counts, steps.counts[rows])
    first = steps.actions[starts[2]:starts[2] + steps.counts[2]]
    assert np.array_equal(taken.actions[:steps.counts[2]], first)
    assert np.array_equal(taken.state[1], steps.state[0])
    assert len(taken.actions) == len(taken.abstract) == taken.counts.sum()


def test_log_softmax_by_decision_matches_each_decisions_own() -> None:
    logits = torch.tensor([1.0, 2.0, 0.5, -1.0, 3.0])
    owner = torch.tensor([0, 0, 1, 1, 1])
    result = log_softmax_by_decision(logits, owner, 2)
    assert torch.allclose(result[:2], torch.log_softmax(logits[:2], 0))
    assert torch.allclose(result[2:], torch.log_softmax(logits[2:], 0))


def test_imitation_lowers_the_cross_entropy_and_ppo_moves_toward_good_actions(tmp_path: Path) -> None:
    config = tiny(tmp_path, learning_rate=3e-3, epochs=8)
    state = PPORun.create(config)
    teacher = PPOWorker(SMALL, 50.0, 50.0, 0.95, seed=2).collect(0, 4, teacher="rules").steps["landlord"]
    before = losses(state.models.networks["landlord"], teacher, config, imitate=True)["policy"].item()
    learn(state, "landlord", teacher, True)
    after = losses(state.models.networks["landlord"], teacher, config, imitate=True)["policy"].item()
    assert after < before
    # PPO: actions with positive advantage become likelier
    played = PPOWorker(SMALL, 50.0, 50.0, 0.95, seed=2).collect(1, 4).steps["landlord"]
    played.advantage[:] = np.where(np.arange(len(played)) % 2 == 0, 1.0, -1.0)
    state = PPORun.create(config)
    network = state.models.networks["landlord"]

    def chosen_log_probabilities() -> torch.Tensor:
        with torch.no_grad():
            counts = torch.from_numpy(played.counts)
            owner = torch.repeat_interleave(torch.arange(len(played)), counts)
            encoded = network.encode(torch.from_numpy(played.state), torch.from_numpy(played.history))
            logits = network.logits(encoded, torch.from_numpy(played.actions), torch.from_numpy(played.abstract),
                                    owner)
            log_policy = log_softmax_by_decision(logits, owner, len(played))
            return log_policy[torch.cumsum(counts, 0) - counts + torch.from_numpy(played.chosen)]

    start = chosen_log_probabilities()
    learn(state, "landlord", played, False)
    change = chosen_log_probabilities() - start
    choices = torch.from_numpy(played.counts > 1)
    good = change[0::2][choices[0::2]].mean()
    bad = change[1::2][choices[1::2]].mean()
    assert good > bad


def test_batches_are_shared_and_the_warm_start_comes_first(tmp_path: Path) -> None:
    config = tiny(tmp_path, batch_games=8, actors=3, warm_games=8)
    assert share(config, 0) == [(0, 3, "rules"), (1, 3, "rules"), (2, 2, "rules")]
    assert share(config, 1) == [(3, 3, ""), (4, 3, ""), (5, 2, "")]


def test_a_run_learns_logs_checkpoints_and_plots(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    result = train(tiny(folder, warm_games=4), tensorboard=True)
    assert result.games == 8 and result.samples > 0
    assert {CHECKPOINT_FILE, MODEL_FILE, "log.csv", "tensorboard"} <= {p.name for p in folder.iterdir()}
    rows = list(csv.DictReader((folder / "log.csv").open()))
    assert rows and int(rows[-1]["games"]) == 8 and float(rows[-1]["loss_value"]) > 0
    assert not same(parameters(folder), {f"{role}.{name}": value.numpy() for role, network in
                                         PerfectDouModels.fresh(SMALL, 3).networks.items()
                                         for name, value in network.state_dict().items()})
    assert load_models(folder).meta["warm_games"] == 4 and load_models(folder).meta["teacher"] == "rules"
    assert plot_run(folder).is_file()


def test_same_seed_same_weights_ray_matches_local_and_resume_continues(tmp_path: Path) -> None:
    for name, changes in (("a", {}), ("b", {}), ("ray", {"backend": "ray"}), ("other", {"seed": 4})):
        train(tiny(tmp_path / name, **changes), tensorboard=False)
    assert same(parameters(tmp_path / "a"), parameters(tmp_path / "b"))
    assert same(parameters(tmp_path / "a"), parameters(tmp_path / "ray"))
    assert not same(parameters(tmp_path / "a"), parameters(tmp_path / "other"))
    result = train(tiny(tmp_path / "a", games=12, model=ModelConfig()), resume=True, tensorboard=False)
    after = PPORun.load(tmp_path / "a")
    assert result.games == 12 and after.progress.batches == 3
    assert after.models.config == SMALL, "a resumed run keeps its settings"


def test_the_ablations_change_what_the_critic_sees_and_the_rewards(tmp_path: Path) -> None:
    imperfect = PPORun.create(tiny(tmp_path, model=ModelConfig(lstm=8, policy=(16,), value=(16,), action=(16,),
                                                             perfect=False)))
    assert imperfect.models.networks["landlord"].value[0][0].in_features == 16
    perfect = PPORun.create(tiny(tmp_path, model=ModelConfig(lstm=8, policy=(16,), value=(16,), action=(16,))))
    assert perfect.models.networks["landlord"].value[0][0].in_features > 16
    plain = PPOWorker(SMALL, 0.0, 1.0, 1.0, seed=1).collect(0, 1, teacher="rules")
    for role, steps in plain.steps.items():
        assert set(np.unique(steps.ret)) <= {-4.0, -2.0, -1.0, 1.0, 2.0, 4.0, -8.0, 8.0, -16.0, 16.0}, \
            f"{role}: without the oracle a return is the final score alone"


def test_init_and_bad_settings_and_files(tmp_path: Path) -> None:
    start = PerfectDouModels.fresh(ModelConfig(lstm=4, policy=(8,), value=(8,), action=(8,)), seed=9)
    save_models(start, tmp_path / "start.pt")
    train(tiny(tmp_path / "run", init=str(tmp_path / "start.pt"), games=4), tensorboard=False)
    assert load_models(tmp_path / "run").config == start.config
    ablation = PPORun.create(tiny(tmp_path / "ablation", init=str(tmp_path / "start.pt"), model=ModelConfig(
        perfect=False)))
    network, source = ablation.models.networks["down"], start.networks["down"]
    assert not ablation.config.model.perfect and network.value[0][0].in_features == 8, "a fresh, imperfect critic"
    assert torch.equal(network.policy[0].weight, source.policy[0].weight), "the actor is the init's"
    with pytest.raises(PaijuError, match="cannot be shared by 3 actors"):
        tiny(tmp_path, batch_games=2, actors=3)
    with pytest.raises(PaijuError, match="needs a bound"):
        tiny(tmp_path, games=0)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / CHECKPOINT_FILE).write_bytes(b"\x00" * 100)
    with pytest.raises(PaijuError, match="cannot read a checkpoint"):
        PPORun.load(tmp_path / "bad")


def test_resume_of_another_trainers_folder_says_what_it_holds(tmp_path: Path) -> None:
    from paiju.train.dmc import DMCConfig, DMCRun

    dmc = DMCConfig(game="doudizhu", out=tmp_path / "dmc", frames=1, minutes=0)
    dmc.out.mkdir()
    DMCRun.create(dmc).save_checkpoint()
    with pytest.raises(PaijuError, match=r"holds a `paiju train dmc` run.*paiju train dmc --resume"):
        PPORun.load(tmp_path / "dmc")
    train(tiny(tmp_path / "ppo", games=4), tensorboard=False)
    with pytest.raises(PaijuError, match=r"holds a `paiju train ppo` run"):
        DMCRun.load(tmp_path / "ppo")
    refusal = "paiju train ppo has no encoder for 'gongzhu'; it trains on: doudizhu, guandan"
    with pytest.raises(PaijuError, match=refusal):
        tiny(tmp_path, game="gongzhu")


def test_the_command_line_trains_a_model_the_agent_plays(tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    result = CliRunner().invoke(app, ["train", "ppo", "--out", str(folder), "--games", "4", "--minutes", "0",
                                      "--batch-games", "4", "--actors", "1", "--policy", "8,8", "--value", "8",
                                      "--lstm", "4", "--epochs", "1", "--imperfect-critic", "--oracle-scale", "0",
                                      "--eval-minutes", "0", "--no-tensorboard"])
    assert result.exit_code == 0, result.output
    assert "played 4 games" in result.output
    models = load_models(folder)
    assert not models.config.perfect and models.meta["config"]["oracle_scale"] == 0
    agent = make_agent(f"perfectdou:{folder}", "doudizhu", 0)
    state = load_game("doudizhu").new_state(1, DouDizhuRules())
    assert agent.act(state.observation(0), state.legal_actions()) in state.legal_actions()
    exported = tmp_path / "small.pt"
    result = CliRunner().invoke(app, ["train", "export", str(folder), str(exported)])
    assert result.exit_code == 0, result.output
    assert load_models(exported).config == models.config


def test_sigterm_checkpoints_and_stops_then_resume_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    command = [sys.executable, "-m", "paiju.cli", "train", "ppo", "--out", str(folder), "--minutes", "5",
               "--policy", "8,8", "--value", "8", "--lstm", "4", "--batch-games", "2", "--actors", "1",
               "--checkpoint-minutes", "60", "--eval-minutes", "0", "--no-tensorboard"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (folder / "log.csv").exists():
        time.sleep(0.2)
    process.terminate()
    assert process.wait(timeout=60) == 0, process.stderr.read() if process.stderr else ""
    saved = PPORun.load(folder)
    assert saved.progress.games > 0, "the stop wrote a checkpoint although the next was an hour away"
    train(tiny(folder, games=saved.progress.games + 2), resume=True, tensorboard=False)
    assert PPORun.load(folder).progress.games == saved.progress.games + 2
