"""Short ScrofaZero runs: the actors' positions, the loss, and runs that learn, log, checkpoint, resume and repeat."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from paiju.agents import make_agent
from paiju.agents.model_files import MODEL_FILE
from paiju.agents.rules.gongzhu_common import indices
from paiju.agents.scrofazero.features import INPUT_SIZE
from paiju.agents.scrofazero.mcts import RolloutEvaluator
from paiju.agents.scrofazero.model import ModelConfig, ScrofaNet, load, save
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.games.gongzhu.game import Gongzhu
from paiju.train.loop import CHECKPOINT_FILE, share
from paiju.train.plot import plot_run
from paiju.train.scrofazero import ScrofaZeroConfig, ScrofaZeroRun, losses, train
from paiju.train.scrofazero_selfplay import Positions, ScrofaZeroWorker

SMALL = ModelConfig(16, 16, 16, 1)


def tiny(out: Path, **changes: object) -> ScrofaZeroConfig:
    settings = {"out": out, "seed": 3, "minutes": 0, "games": 8, "actors": 1, "model": SMALL, "batch_games": 4,
                "eval_minutes": 0, "log_seconds": 0, **changes}
    return ScrofaZeroConfig(**settings)  # type: ignore[arg-type]


def weights(path: Path) -> dict[str, np.ndarray]:
    return {name: value.numpy() for name, value in load(path).state_dict().items()}


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("teacher", ["", "mr-greed"])
def test_positions_are_every_decision_with_its_targets(teacher: str) -> None:
    chunk = ScrofaZeroWorker(SMALL, seed=5).collect(0, 2, None, teacher)
    positions = chunk.positions
    assert chunk.games == 2 and len(positions) == 2 * 52
    assert positions.x.shape == (104, INPUT_SIZE) and positions.x.dtype == np.uint8
    assert np.allclose(positions.policy.sum(axis=1), 1.0, atol=1e-5)
    assert not (positions.policy[~positions.legal] > 0).any(), "targets only on legal cards"
    if teacher:
        assert set(np.unique(positions.policy)) == {0.0, 1.0}, "a teacher's target is its card"
    # the value target is each decision's final payoff for its player: replay the first game to check
    game = Gongzhu()
    state = game.new_state(derive_seed(derive_seed(5, "chunk", 0), "game", 0))
    movers = []
    for row in range(52):
        movers.append(state.to_move)
        state.play(int(np.argmax(positions.policy[row])) if teacher else _played(positions, row, state))
    payoffs = state.payoffs()
    assert positions.value[:52].tolist() == [payoffs[seat] for seat in movers]


def test_sibling_rollouts_value_every_card_the_teacher_did_not_play() -> None:
    plain = ScrofaZeroWorker(SMALL, seed=5).collect(0, 1, None, "mr-greed").positions
    chunk = ScrofaZeroWorker(SMALL, seed=5, sibling_rollouts=2).collect(0, 1, None, "mr-greed")
    positions = chunk.positions
    for name in Positions.fields():
        assert np.array_equal(getattr(positions, name)[:52], getattr(plain, name)), "the teacher's game is unchanged"
    # replay the teacher's game: each decision's other legal cards, in legal order, are the siblings
    game = Gongzhu()
    state = game.new_state(derive_seed(derive_seed(5, "chunk", 0), "game", 0))
    rollouts = RolloutEvaluator(lambda seed: make_agent("mr-greed", "gongzhu", seed),
                                derive_seed(derive_seed(5, "chunk", 0), "siblings"))
    expected_x, expected_values = [], []
    for row in range(52):
        played = int(np.argmax(positions.policy[row]))
        for card in indices(state.legal_mask()):
            if card != played and state.legal_mask().bit_count() > 1:
                child = state.clone()
                child.play(card)
                expected_x.append(_encoded(child))
                expected_values.append((rollouts.rollout(child, 0) + rollouts.rollout(child, 1)) / 2)
        state.play(played)
    siblings = positions.take(np.arange(52, len(positions)))
    assert len(siblings) == len(expected_x) > 52
    assert np.array_equal(siblings.x, np.stack(expected_x))
    assert np.allclose(siblings.value, expected_values)
    assert not siblings.policy.any(), "siblings carry no policy target"
    assert siblings.legal.any(axis=1).all()
    with pytest.raises(PaijuError, match="sibling_rollouts must be at least 0"):
        tiny(Path("unused"), sibling_rollouts=-1)


def _played(positions: Positions, row: int, state) -> int:
    """The card the self-play game played at ``row``: the one that leaves the next row's hands."""
    if row == 51:
        return state.legal_mask().bit_length() - 1
    hands_now, hands_next = positions.x[row, :52], positions.x[row + 1]
    for card in np.flatnonzero(hands_now):
        after = state.clone()
        after.play(int(card))
        if after.over or np.array_equal(_encoded(after)[:208], hands_next[:208]):
            return int(card)
    raise AssertionError("no card leads to the next position")


def _encoded(state) -> np.ndarray:
    from paiju.agents.scrofazero.features import encode_state

    return encode_state(state).astype(np.uint8)


def test_the_loss_is_kl_plus_the_value_rmse() -> None:
    network = ScrofaNet(SMALL, seed=1)
    chunk = ScrofaZeroWorker(SMALL, seed=5).collect(0, 1, None, "mr-greed")
    batch = chunk.positions
    kl, rmse = losses(network, batch)
    logits, value = network(torch.from_numpy(batch.x).float())
    masked = logits.masked_fill(~torch.from_numpy(batch.legal), -1e30)
    chosen = np.argmax(batch.policy, axis=1)
    expected_kl = -torch.log_softmax(masked, dim=-1)[torch.arange(len(chosen)), chosen].mean()
    assert torch.isclose(kl, expected_kl, rtol=1e-5)
    assert torch.isclose(rmse, torch.sqrt(((value - torch.from_numpy(batch.value)) ** 2).mean()))
    single = batch.legal.sum(axis=1) == 1
    assert single.any()
    kl_single, _ = losses(network, batch.take(np.flatnonzero(single)))
    assert abs(kl_single.item()) < 1e-6, "one legal card: the policy already matches"


def test_batches_are_shared_and_the_warm_start_comes_first() -> None:
    config = tiny(Path("unused"), actors=3, batch_games=8, warm_games=16)
    assert share(config, 0) == [(0, 3, "mr-greed"), (1, 3, "mr-greed"), (2, 2, "mr-greed")]
    assert share(config, 1)[0] == (3, 3, "mr-greed")
    assert share(config, 2) == [(6, 3, ""), (7, 3, ""), (8, 2, "")]


def test_a_run_learns_logs_checkpoints_and_plots(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    result = train(tiny(folder, warm_games=4), tensorboard=True)
    assert result.games == 8
    assert {CHECKPOINT_FILE, MODEL_FILE, "log.csv", "tensorboard"} <= {p.name for p in folder.iterdir()}
    rows = list(csv.DictReader((folder / "log.csv").open()))
    assert rows and int(rows[-1]["games"]) == 8 and float(rows[-1]["loss_value"]) > 0
    assert not same(weights(folder / MODEL_FILE), {n: v.numpy() for n, v in ScrofaNet(SMALL, 3).state_dict().items()})
    assert plot_run(folder).is_file()


def test_same_seed_same_weights_and_resume_continues(tmp_path: Path) -> None:
    for name, changes in (("a", {}), ("b", {}), ("other", {"seed": 4})):
        train(tiny(tmp_path / name, **changes), tensorboard=False)
    assert same(weights(tmp_path / "a" / MODEL_FILE), weights(tmp_path / "b" / MODEL_FILE))
    assert not same(weights(tmp_path / "a" / MODEL_FILE), weights(tmp_path / "other" / MODEL_FILE))
    before = ScrofaZeroRun.load(tmp_path / "a")
    assert before.progress.batches == 2 and len(before.replay) == 2
    result = train(tiny(tmp_path / "a", games=12, model=ModelConfig()), resume=True, tensorboard=False)
    after = ScrofaZeroRun.load(tmp_path / "a")
    assert result.games == 12 and after.progress.batches == 3
    assert after.network.config == SMALL, "a resumed run keeps its settings"
    assert not same(weights(tmp_path / "b" / MODEL_FILE), weights(tmp_path / "a" / MODEL_FILE))


def test_init_starts_from_a_model_file_and_takes_its_size(tmp_path: Path) -> None:
    start = ScrofaNet(ModelConfig(8, 8, 8, 0), seed=9)
    save(start, tmp_path / "start.pt")
    train(tiny(tmp_path / "run", init=str(tmp_path / "start.pt"), games=4), tensorboard=False)
    assert load(tmp_path / "run" / MODEL_FILE).config == ModelConfig(8, 8, 8, 0)


def test_bad_settings_and_files_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(PaijuError, match="cannot be shared by 3 actors"):
        tiny(tmp_path, batch_games=2, actors=3)
    with pytest.raises(PaijuError, match="needs a bound"):
        tiny(tmp_path, games=0)
    (tmp_path / CHECKPOINT_FILE).write_bytes(b"\x00" * 100)
    with pytest.raises(PaijuError, match="cannot read a checkpoint"):
        ScrofaZeroRun.load(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["train", "scrofazero", "--out", str(tmp_path / "x"), "--hidden", "8,8"])
    assert result.exit_code != 0 and "W1,W2,W3,BLOCKS" in result.output + str(result.exception)


def test_the_command_line_trains_a_model_the_agent_plays(tmp_path: Path) -> None:
    folder = tmp_path / "cli"
    result = CliRunner().invoke(app, ["train", "scrofazero", "--out", str(folder), "--games", "4", "--minutes", "0",
                                      "--batch-games", "4", "--actors", "1", "--hidden", "8,8,8,1",
                                      "--eval-minutes", "0", "--no-tensorboard"])
    assert result.exit_code == 0, result.output
    assert "played 4 games" in result.output
    from paiju.agents import make_agent

    agent = make_agent(f"scrofazero:path={folder / MODEL_FILE},scenarios=2,simulations=2", "gongzhu", 0)
    state = Gongzhu().new_state(1)
    assert agent.act(state.observation(0), state.legal_actions()) in state.legal_actions()


def test_sigterm_checkpoints_and_stops_then_resume_goes_on(tmp_path: Path) -> None:
    import subprocess
    import sys
    import time

    folder = tmp_path / "run"
    command = [sys.executable, "-m", "paiju.cli", "train", "scrofazero", "--out", str(folder), "--minutes", "5",
               "--hidden", "8,8,8,1", "--batch-games", "2", "--actors", "1", "--checkpoint-minutes", "60",
               "--eval-minutes", "0", "--no-tensorboard"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (folder / "log.csv").exists():
        time.sleep(0.2)
    process.terminate()
    assert process.wait(timeout=60) == 0, process.stderr.read() if process.stderr else ""
    saved = ScrofaZeroRun.load(folder)
    assert saved.progress.games > 0, "the stop wrote a checkpoint although the next was an hour away"
    train(tiny(folder, games=saved.progress.games + 2), resume=True, tensorboard=False)
    assert ScrofaZeroRun.load(folder).progress.games == saved.progress.games + 2


def test_the_background_evaluation_plays_gongzhu_by_agent_name(tmp_path: Path) -> None:
    from paiju.train.evaluation import evaluate_model

    rows = evaluate_model("gongzhu", "mr-greed", ("random",), deals=3, seed=1, seconds=5.0, frames=10, games=7)
    assert [row.opponent for row in rows] == ["random"] and rows[0].games == 7 and rows[0].deals == 3
    assert 0.0 <= rows[0].wp <= 1.0 and rows[0].adp > 0, "mr-greed beats random"


def test_the_background_evaluation_plays_the_network_alone(tmp_path: Path) -> None:
    from paiju.agents.scrofazero.evaluator import NetworkEvaluator
    from paiju.train.scrofazero import evaluation_snapshot

    spec = evaluation_snapshot(ScrofaNet(ModelConfig(width1=16, width2=16, width3=8, blocks=1)), tmp_path / "m.pt")
    assert (tmp_path / "m.pt").is_file()
    agent = make_agent(spec, "gongzhu", 0)
    assert agent.options.mix == 0 and isinstance(agent.evaluator, NetworkEvaluator)
