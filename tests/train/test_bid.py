"""The bid trainer: labels from played games, reproducibility by seed, the data cache, and the commands."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from paiju.agents.bidding import SHIPPED_MODEL
from paiju.agents.bidding.model import load_model
from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.eval.seeds import derive_seed
from paiju.games.doudizhu.state import Deal
from paiju.train.bid import BidTrainConfig, label_deal, labelled_deals, train_bid

runner = CliRunner()


def test_labels_are_full_landlord_scores_of_the_deal_hands() -> None:
    hands, labels = label_deal("rules", 3, 7)
    deal = Deal.draw(random.Random(derive_seed(3, "deal", 7)), research=True)
    assert hands.shape == (3, 15) and [tuple(int(n) for n in h) for h in hands] == list(deal.hands)
    for label in labels:  # ±2 per unit of base bid, doubled per bomb, rocket and spring
        assert abs(label) >= 2 and np.log2(abs(label)).is_integer()
    again = label_deal("rules", 3, 7)
    assert np.array_equal(again[1], labels)


def tiny(tmp_path: Path, name: str, **changes) -> BidTrainConfig:
    settings = {"out": tmp_path / name, "deals": 20, "seed": 4, "epochs": 2, "hidden": (8,), "batch_size": 16,
                **changes}
    return BidTrainConfig(**settings)  # type: ignore[arg-type]


def test_a_run_is_reproducible_by_its_seed(tmp_path: Path) -> None:
    first = train_bid(tiny(tmp_path, "a.pt"))
    second = train_bid(tiny(tmp_path, "b.pt"))
    other = train_bid(tiny(tmp_path, "c.pt", seed=5))
    a, b, c = (load_model(tmp_path / name).to_dict()["weights"] for name in ("a.pt", "b.pt", "c.pt"))
    assert all(torch.equal(a[key], b[key]) for key in a)
    assert not all(torch.equal(a[key], c[key]) for key in a)
    assert first.held_out_mse == second.held_out_mse and first.samples == 60
    assert other.samples == 60
    meta = load_model(tmp_path / "a.pt").meta
    assert meta["agent"] == "rules" and meta["deals"] == 20 and meta["seed"] == 4


def test_data_cache_is_reused_only_when_it_matches(tmp_path: Path) -> None:
    data = tmp_path / "data.npz"
    hands, labels = labelled_deals(tiny(tmp_path, "m.pt", data=data))
    assert data.is_file() and hands.shape == (20, 3, 15) and labels.shape == (20, 3)
    np.savez_compressed(data, hands=hands, labels=labels + 100, agent="rules", seed=4)
    reused = labelled_deals(tiny(tmp_path, "m.pt", data=data, deals=10))
    assert np.array_equal(reused[1], labels[:10] + 100)
    fresh = labelled_deals(tiny(tmp_path, "m.pt", data=data, seed=6, deals=10))
    assert np.abs(fresh[1]).max() < 100
    data.write_bytes(b"garbage")
    with pytest.raises(PaijuError, match=r"data.npz: not a bid training data file"):
        labelled_deals(tiny(tmp_path, "m.pt", data=data))


def test_bad_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PaijuError, match="deals must be at least 10"):
        tiny(tmp_path, "x.pt", deals=5)
    with pytest.raises(PaijuError, match="unknown agent 'nobody'"):
        tiny(tmp_path, "x.pt", agent="nobody")
    with pytest.raises(PaijuError, match="non-decreasing"):
        tiny(tmp_path, "x.pt", thresholds=(1.0, 0.0, 0.0))


def test_train_bid_command(tmp_path: Path) -> None:
    out = tmp_path / "bid.pt"
    result = runner.invoke(app, ["train", "bid", "--deals", "20", "--epochs", "2", "--hidden", "8", "--seed", "1",
                                 "--thresholds", "0/0.5/1", "--out", str(out)])
    assert result.exit_code == 0, result.output + str(result.exception)
    assert "held-out mse" in result.output and f"learned-bid:model={out},rules" in result.output.replace("\n", "")
    assert load_model(out).thresholds == (0.0, 0.5, 1.0)
    bad = runner.invoke(app, ["train", "bid", "--hidden", "8,x", "--out", str(tmp_path / "no.pt")])
    assert bad.exit_code != 0 and not (tmp_path / "no.pt").exists()


@pytest.mark.skipif(not SHIPPED_MODEL.is_file(), reason="no shipped bid model")
def test_eval_with_learned_bidding(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    result = runner.invoke(app, ["eval", "doudizhu", "rules", "rules", "--mode", "full", "--bidding", "learned",
                                 "--decks", "2", "--out", str(report)])
    assert result.exit_code == 0, result.output + str(result.exception)
    assert "learned-bid:rules" in report.read_text()
    refused = runner.invoke(app, ["eval", "doudizhu", "rules", "rules", "--bidding", "learned", "--decks", "2"])
    assert refused.exit_code != 0 and "needs --mode full" in refused.output + str(refused.exception)
