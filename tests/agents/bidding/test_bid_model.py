"""Bid features, the bid model file (round trip, refusals naming the file) and the decision rule."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

from paiju.agents.bidding.agent import choose_bid
from paiju.agents.bidding.features import FEATURES, batch_features, hand_features
from paiju.agents.bidding.model import FORMAT, BidModel, check_thresholds, load_model, save_model
from paiju.core.errors import PaijuError
from paiju.games.doudizhu import DouDizhuRules, parse_cards
from paiju.games.doudizhu.min_steps import min_steps
from paiju.games.doudizhu.state import Deal

STRONG = tuple(parse_cards("BR2222AAKKQQJ9876"))
WEAK = tuple(parse_cards("33445566789TJQK9T"))


def hands(count: int, seed: int = 0) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [hand for _ in range(count) for hand in Deal.draw(rng, research=True).hands]


def test_features_read_counts_jokers_and_shape() -> None:
    x = hand_features(STRONG)
    assert x.shape == (FEATURES,) and x.dtype == np.float32
    assert list(x[4 * 12: 4 * 12 + 4]) == [1, 1, 1, 1]  # four 2s
    assert list(x[0:4]) == [0, 0, 0, 0]  # no 3s
    assert x[52] == 1 and x[53] == 1 and x[55] == 1 and x[56] == 1  # jokers, one bomb, the rocket
    weak = hand_features(WEAK)
    assert weak[52] == weak[53] == weak[55] == weak[56] == 0
    rules = DouDizhuRules()
    assert x[54] == pytest.approx(min_steps(STRONG, rules) / 10)
    assert weak[54] == pytest.approx(min_steps(WEAK, rules) / 10)
    assert batch_features([STRONG, WEAK]).shape == (2, FEATURES)


@pytest.mark.parametrize("hand, message", [
    ((1,) * 14, "15 non-negative rank counts"),
    (tuple(parse_cards("33334")) + (0,) * 0, "17 cards"),
    ((5,) + (1,) * 12 + (0, 0), "at most 4"),
])
def test_features_refuse_bad_hands(hand, message) -> None:
    with pytest.raises(PaijuError, match=message):
        hand_features(hand)


def test_round_trip_gives_the_same_estimates(tmp_path: Path) -> None:
    model = BidModel.fresh((8, 4), seed=1, thresholds=(0.1, 0.2, 0.3))
    model.meta = {"deals": 5}
    save_model(model, tmp_path / "bid.pt")
    again = load_model(tmp_path / "bid.pt")
    sample = hands(4)
    assert np.allclose(model.estimates(sample), again.estimates(sample))
    assert again.thresholds == (0.1, 0.2, 0.3) and again.hidden == (8, 4) and again.meta == {"deals": 5}
    assert model.estimate(sample[0]) == pytest.approx(float(model.estimates(sample)[0]))


def test_bad_files_are_refused_naming_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pt"
    with pytest.raises(PaijuError, match=r"no bid model file at .*missing.pt"):
        load_model(missing)
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"not a torch file")
    with pytest.raises(PaijuError, match=r"corrupt.pt: cannot read a bid model file"):
        load_model(corrupt)
    foreign = tmp_path / "foreign.pt"
    torch.save({"format": "paiju-perfectdou-1"}, foreign)
    with pytest.raises(PaijuError, match=f"foreign.pt is not a bid model file .*{FORMAT}.*paiju-perfectdou-1"):
        load_model(foreign)
    broken = tmp_path / "broken.pt"
    data = BidModel.fresh((8,)).to_dict()
    data["weights"] = {"body.0.weight": torch.zeros(3, 3)}
    torch.save(data, broken)
    with pytest.raises(PaijuError, match=r"broken.pt: bad bid model file"):
        load_model(broken)
    unordered = tmp_path / "unordered.pt"
    data = BidModel.fresh((8,)).to_dict()
    data["thresholds"] = [1.0, 0.0, 2.0]
    torch.save(data, unordered)
    with pytest.raises(PaijuError, match=r"unordered.pt: thresholds: .*non-decreasing"):
        load_model(unordered)


def test_thresholds_are_checked() -> None:
    assert check_thresholds(["0", "0.5", "1"], "t") == (0.0, 0.5, 1.0)
    for bad in ([1.0, 2.0], [2.0, 1.0, 3.0], ["x", 1, 2], [0.0, 0.0, float("nan")]):
        with pytest.raises(PaijuError, match="three"):
            check_thresholds(bad, "t")


def test_decision_rule_follows_the_thresholds_and_the_legal_bids() -> None:
    thresholds = (-0.5, 0.0, 0.5)
    assert choose_bid(-1.0, [0, 1, 2, 3], thresholds) == 0
    assert choose_bid(-0.5, [0, 1, 2, 3], thresholds) == 1
    assert choose_bid(0.2, [0, 1, 2, 3], thresholds) == 2
    assert choose_bid(0.7, [0, 1, 2, 3], thresholds) == 3
    assert choose_bid(0.2, [0, 3], thresholds) == 0  # wants 2, which is not above the bid so far: pass
    assert choose_bid(0.7, [0, 3], thresholds) == 3


@pytest.mark.parametrize("legal", [[0, 1, 2, 3], [0, 2, 3], [0, 3]])
def test_decision_rule_is_monotonic_in_the_estimate(legal) -> None:
    thresholds = (-0.3, 0.1, 0.4)
    bids = [choose_bid(e, legal, thresholds) for e in np.linspace(-2, 2, 81)]
    assert all(b in legal for b in bids)
    assert bids == sorted(bids) and bids[0] == 0 and bids[-1] == 3
