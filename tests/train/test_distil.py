"""Distillation: labelled positions, the gain loss, and short runs that learn, continue, and reproduce."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from paiju.agents import make_agent
from paiju.agents.distil.agent import DISTIL_META
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, load_models, save_models
from paiju.core.errors import PaijuError
from paiju.train.distil import POSITIONS, DistilConfig, DistilRun, gain_loss, load_chunk, train, validate
from paiju.train.distil_actors import LabelWorker, Positions


def tiny_init(tmp_path: Path, game: str) -> str:
    path = tmp_path / f"init-{game}.pt"
    save_models(DMCModels.fresh(game, "adp", ModelConfig(hidden=(16,), lstm=8), seed=2), path)
    return str(path)


def config(tmp_path: Path, game: str = "doudizhu", **changes: object) -> DistilConfig:
    values = {"game": game, "out": tmp_path / "run", "seed": 3, "minutes": 0, "positions": 120,
              "init": tiny_init(tmp_path, game), "top": 3, "chunk_positions": 40, "batch_size": 32,
              "log_seconds": 0, "eval_minutes": 0, **changes}
    return DistilConfig(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["doudizhu", "guandan"])
def test_labels_are_the_rollout_results_of_the_prior_candidates(game: str) -> None:
    chunk = LabelWorker(game, "rules", "rules", 3, seed=5).collect(0, 20)
    assert chunk.games >= 1
    total = 0
    for positions in chunk.positions.values():
        total += len(positions)
        assert positions.x.shape[:2] == (len(positions), 3)
        assert ((positions.count >= 2) & (positions.count <= 3)).all()
        for row, count in zip(positions.values, positions.count, strict=True):
            assert not row[count:].any()
        for row, count in zip(positions.x, positions.count, strict=True):
            assert not row[count:].any() and row[:count].any(axis=1).all()
    assert total >= 20
    again = LabelWorker(game, "rules", "rules", 3, seed=5).collect(0, 20)
    for role, positions in chunk.positions.items():
        assert np.array_equal(positions.values, again.positions[role].values)


def test_gain_loss_and_validation_measure_the_gains() -> None:
    class Fixed(torch.nn.Module):
        """Q = the first feature: the network 'knows' the labels exactly when x[:, 0] = the value."""

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return x[:, 0]

    values = np.array([[1, 3, -1], [2, 0, 0]], dtype=np.float32)
    x = np.zeros((2, 3, 4), dtype=np.int8)
    x[:, :, 0] = values
    exact = Positions(x, {}, values, np.array([3, 2], dtype=np.int8))
    assert gain_loss(Fixed(), exact).item() == 0
    loss, gain = validate(Fixed(), exact, margin=0.0)
    assert loss == 0 and gain == pytest.approx(1.0)  # picks +2 in the first, keeps the prior in the second
    _, cautious = validate(Fixed(), exact, margin=5.0)
    assert cautious == 0
    wrong = Positions(-x, {}, values, exact.count)
    assert gain_loss(Fixed(), wrong).item() > 0


def test_a_short_run_learns_keeps_its_positions_and_resumes(tmp_path: Path) -> None:
    result = train(config(tmp_path), tensorboard=False)
    folder = tmp_path / "run"
    assert result.samples >= 120 and result.unit == "positions"
    chunks = sorted((folder / POSITIONS).glob("chunk-*.npz"))
    assert chunks and load_chunk(chunks[0])
    models = load_models(folder)
    settings = models.meta[DISTIL_META]
    assert settings["prior"] == "rules" and settings["top"] == 3 and settings["positions"] == result.samples
    assert set(settings["held_out"]) <= {"landlord", "down", "up"}
    initial = load_models(Path(config(tmp_path).init))
    assert not torch.equal(next(initial.networks["landlord"].parameters()),
                           next(models.networks["landlord"].parameters()))
    agent = make_agent(f"distilled:{folder}", "doudizhu")
    agent.close()
    with pytest.raises(PaijuError, match="already holds a run"):
        train(config(tmp_path), tensorboard=False)
    saved = DistilRun.load(folder)
    more = train(config(tmp_path, positions=2 * 120), resume=True, tensorboard=False)
    assert more.samples >= 2 * 120
    assert DistilRun.load(folder).progress.chunks > saved.progress.chunks
    assert len(list((folder / POSITIONS).glob("chunk-*.npz"))) > len(chunks)


def test_a_new_run_trains_first_on_positions_copied_into_its_folder(tmp_path: Path) -> None:
    train(config(tmp_path), tensorboard=False)
    copied = tmp_path / "copy"
    (copied / POSITIONS).mkdir(parents=True)
    for chunk in (tmp_path / "run" / POSITIONS).glob("chunk-*.npz"):
        (copied / POSITIONS / chunk.name).write_bytes(chunk.read_bytes())
    run = DistilRun.create(config(tmp_path, out=copied))
    stored = sum(len(buffer) for buffer in run.training.values())
    assert stored > 0 and run.progress.chunks == len(list((copied / POSITIONS).glob("chunk-*.npz")))
    result = train(config(tmp_path, out=copied, positions=stored + 1), tensorboard=False)
    assert result.samples > stored


def test_same_seed_same_networks(tmp_path: Path) -> None:
    first = train(config(tmp_path / "a", game="guandan", positions=60), tensorboard=False)
    second = train(config(tmp_path / "b", game="guandan", positions=60), tensorboard=False)
    assert first.samples == second.samples
    a, b = load_models(tmp_path / "a" / "run"), load_models(tmp_path / "b" / "run")
    for name, value in a.networks["player"].state_dict().items():
        assert torch.equal(value, b.networks["player"].state_dict()[name])


def test_damaged_positions_and_bad_settings_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run" / POSITIONS
    folder.mkdir(parents=True)
    (folder / "chunk-000001.npz").write_bytes(b"not a zip")
    with pytest.raises(PaijuError, match="damaged positions file"):
        train(config(tmp_path), tensorboard=False)
    with pytest.raises(PaijuError, match="top must be at least 2"):
        config(tmp_path, top=1)
    with pytest.raises(PaijuError, match="needs a bound"):
        config(tmp_path, positions=0)
    with pytest.raises(PaijuError, match="not-an-agent"):
        config(tmp_path, prior="not-an-agent")


def test_a_distilled_network_goes_on_as_it_is_and_a_folder_without_checkpoint_says_how(tmp_path: Path) -> None:
    train(config(tmp_path), tensorboard=False)
    folder = tmp_path / "run"
    (folder / "checkpoint.pt").unlink()
    with pytest.raises(PaijuError, match=r"no checkpoint.pt to resume from, only networks .*--init"):
        DistilRun.load(folder)
    run = DistilRun.create(config(tmp_path, out=tmp_path / "next", init=str(folder)))
    trained = load_models(folder)
    output, kept = trained.networks["landlord"].mlp[-1].weight, run.models.networks["landlord"].mlp[-1].weight
    assert output.abs().sum() > 0 and torch.equal(output, kept), "an earlier run's gains are kept, not zeroed"
