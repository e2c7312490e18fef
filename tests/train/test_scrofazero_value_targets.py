"""ScrofaZero's value targets: the game's outcome, the searches' root values, or their mean."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.train.test_scrofazero_training import SMALL, tiny
from typer.testing import CliRunner

from paiju.agents.scrofazero import mcts
from paiju.agents.scrofazero.evaluator import NetworkEvaluator
from paiju.agents.scrofazero.model import ScrofaNet
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.games.gongzhu.game import Gongzhu
from paiju.train.scrofazero import ScrofaZeroRun, train
from paiju.train.scrofazero_selfplay import ScrofaZeroWorker, weights_of

SEED = 5


def collect(value_target: str) -> np.ndarray:
    """The value targets of one self-play game of chunk 0, played by a worker with ``network()``'s weights."""
    worker = ScrofaZeroWorker(SMALL, seed=SEED, value_target=value_target)  # type: ignore[arg-type]
    return worker.collect(0, 1, weights_of(network())).positions.value


def network() -> ScrofaNet:
    return ScrofaNet(SMALL, seed=11)


def replay() -> tuple[list[float | None], list[int], list[float]]:
    """Chunk 0's one game replayed with searches of our own: each decision's root value (None: one legal card, no
    search), its player, and the final payoffs."""
    chunk_seed = derive_seed(SEED, "chunk", 0)
    state = Gongzhu().new_state(derive_seed(chunk_seed, "game", 0))
    rng, evaluator = random.Random(chunk_seed), NetworkEvaluator(network())
    roots: list[float | None] = []
    movers = []
    while not state.over:
        movers.append(state.to_move)
        legal = state.legal_mask()
        if legal.bit_count() == 1:
            roots.append(None)
            state.play(legal.bit_length() - 1)
            continue
        result = mcts.search(state, evaluator, mcts.training_simulations(state), random.Random(rng.getrandbits(64)))
        assert result.player == state.to_move
        roots.append(result.value)
        state.play(result.card)
    return roots, movers, state.payoffs()


def test_outcome_is_the_final_payoff_and_the_default() -> None:
    _, movers, payoffs = replay()
    outcome = collect("outcome")
    assert outcome.tolist() == [payoffs[seat] for seat in movers]
    default = ScrofaZeroWorker(SMALL, seed=SEED).collect(0, 1, weights_of(network())).positions.value
    assert np.array_equal(default, outcome)


def test_root_is_the_searchs_value_and_a_forced_card_takes_the_next_one() -> None:
    roots, movers, payoffs = replay()
    expected = []
    for row, seat in enumerate(movers):
        later = next(((movers[after], root) for after, root in enumerate(roots) if after >= row and root is not None),
                     None)
        if later is None:
            expected.append(payoffs[seat])  # forced to the end: the outcome is exact
        else:
            other, root = later
            expected.append(root if other % 2 == seat % 2 else -root)  # the other team's value, negated
    root = collect("root")
    assert np.allclose(root, expected, rtol=1e-6, atol=1e-4)
    assert any(value is None for value in roots[:48]), "a forced card before the last trick is covered"
    assert root[-4:].tolist() == [payoffs[seat] for seat in movers[-4:]], "the last trick is forced"
    outcome = collect("outcome")
    assert not np.allclose(root[:48], outcome[:48]), "the searches' values are not the final payoffs"
    assert np.allclose(collect("mix"), (outcome + root) / 2, atol=1e-4)


def test_the_option_travels_to_the_actors_and_is_kept_with_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    train(tiny(folder, games=4, value_target="mix"), tensorboard=False)
    run = ScrofaZeroRun.load(folder)
    assert run.config.value_target == "mix"
    _, arguments = run.actors()
    assert [own[-1] for own in arguments] == ["mix"]


def test_bad_value_targets_and_devices_are_refused_by_name(tmp_path: Path) -> None:
    for target in ("root", "mix"):
        with pytest.raises(PaijuError, match=f"value_target '{target}'.*warm start"):
            tiny(tmp_path, value_target=target, warm_games=4)
    assert tiny(tmp_path, warm_games=4).value_target == "outcome"
    with pytest.raises(PaijuError, match="value_target must be one of outcome, root, mix, got 'q'"):
        tiny(tmp_path, value_target="q")
    with pytest.raises(PaijuError, match="value_target must be one of"):
        ScrofaZeroWorker(SMALL, seed=1, value_target="q")  # type: ignore[arg-type]
    with pytest.raises(PaijuError, match="device must be cpu, cuda or auto"):
        tiny(tmp_path, device="tpu")
    result = CliRunner().invoke(app, ["train", "scrofazero", "--out", str(tmp_path / "x"), "--value-target", "q"])
    assert result.exit_code != 0 and "value_target must be one of" in result.output + str(result.exception)
    result = CliRunner().invoke(app, ["train", "scrofazero", "--out", str(tmp_path / "y"), "--value-target", "root",
                                      "--warm-games", "64"])
    assert result.exit_code != 0 and "no search" in result.output + str(result.exception)
