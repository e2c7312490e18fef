"""PerfectDou networks and model files: round trips (full and half precision), refusals of bad files naming the
file, and the decision's candidates (one legal play per abstract action)."""

import random
from pathlib import Path

import numpy as np
import pytest
import torch

import paiju
from paiju.agents.dmc.weights import FORMAT as DMC_FORMAT
from paiju.agents.perfectdou.features import decision, scores
from paiju.agents.perfectdou.model import (
    FORMAT,
    ROLES,
    ModelConfig,
    PerfectDouModels,
    load_models,
    save_models,
)
from paiju.core.errors import PaijuError
from paiju.games.doudizhu import DouDizhuRules, parse_cards
from paiju.games.doudizhu.abstract_actions import abstract_index
from paiju.games.doudizhu.cards import FULL_DECK, NUM_RANKS
from paiju.games.doudizhu.state import Deal

GAME = paiju.load_game("doudizhu")
RESEARCH = DouDizhuRules(mode="research")
TINY = ModelConfig(lstm=8, policy=(16, 16), value=(16,), action=(16,))


def decisions(seed: int, count: int):
    """``count`` (state, legal) play decisions of a random research game, with more than one legal play."""
    state = GAME.new_state(seed, RESEARCH)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal() and len(found) < count:
        legal = state.legal_actions()
        if len(legal) > 1:
            found.append((state.clone(), legal))
        state.apply(legal[rng.randrange(len(legal))])
    return found


def all_logits(models: PerfectDouModels, cases) -> list[np.ndarray]:
    out = []
    for state, legal in cases:
        obs = state.observation(state.current_player)
        chosen = decision(obs, legal, [tuple(h) for h in state.hands])
        logits, value = scores(models.networks[obs.position], chosen, with_value=True)
        assert logits.shape == (len(chosen.candidates),) and isinstance(value, float)
        out.append(np.append(logits, value))
    return out


def test_round_trip_gives_the_same_scores(tmp_path: Path):
    models = PerfectDouModels.fresh(TINY, seed=3)
    models.meta = {"steps": 7}
    save_models(models, tmp_path / "model.pt")
    loaded = load_models(tmp_path / "model.pt")
    assert loaded.config == TINY and loaded.meta == {"steps": 7} and set(loaded.networks) == set(ROLES)
    cases = decisions(2, 6)
    assert {state.observation(state.current_player).position for state, _ in cases} == set(ROLES)
    for before, after in zip(all_logits(models, cases), all_logits(loaded, cases), strict=True):
        assert np.array_equal(before, after)
    assert load_models(tmp_path).config == TINY  # a folder holding model.pt
    other = PerfectDouModels.fresh(TINY, seed=4)
    assert not np.allclose(all_logits(other, cases)[0], all_logits(models, cases)[0])


def test_half_precision_file_loads_as_float(tmp_path: Path):
    models = PerfectDouModels.fresh(TINY, seed=3)
    save_models(models, tmp_path / "half.pt", half=True)
    stored = torch.load(tmp_path / "half.pt", weights_only=True)
    assert stored["format"] == FORMAT
    assert stored["networks"]["landlord"]["embedding.weight"].dtype == torch.float16
    loaded = load_models(tmp_path / "half.pt")
    assert all(p.dtype == torch.float32 for net in loaded.networks.values() for p in net.parameters())
    cases = decisions(2, 3)
    for before, after in zip(all_logits(models, cases), all_logits(loaded, cases), strict=True):
        assert np.allclose(before, after, atol=1e-2)


def test_imperfect_critic_needs_no_perfect_features():
    models = PerfectDouModels.fresh(ModelConfig(lstm=8, policy=(16,), value=(16,), action=(16,), perfect=False), 0)
    state, legal = decisions(1, 1)[0]
    obs = state.observation(state.current_player)
    _, value = scores(models.networks[obs.position], decision(obs, legal), with_value=True)
    assert isinstance(value, float)
    perfect = PerfectDouModels.fresh(TINY, 0)
    with pytest.raises(PaijuError, match="perfect"):
        scores(perfect.networks[obs.position], decision(obs, legal), with_value=True)


def test_config_json_round_trip_and_refusals():
    assert ModelConfig.from_json(TINY.to_json()) == TINY
    assert ModelConfig.from_json({}) == ModelConfig()
    for bad in ({"policy": []}, {"value": [16, 0]}, {"lstm": -1}, {"action": "16"}):
        with pytest.raises(ValueError):
            ModelConfig.from_json(bad)


def refused(path: Path, *fragments: str) -> None:
    with pytest.raises(PaijuError) as raised:
        load_models(path)
    assert str(path) in str(raised.value)
    for fragment in fragments:
        assert fragment in str(raised.value)


def test_bad_files_are_refused_naming_the_file(tmp_path: Path):
    refused(tmp_path / "missing.pt")
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"not a torch file at all")
    refused(corrupt)
    foreign = tmp_path / "foreign.pt"
    torch.save({"format": "x", "networks": {}}, foreign)
    refused(foreign, "'x'")
    listed = tmp_path / "list.pt"
    torch.save([1, 2], listed)
    refused(listed)

    data = PerfectDouModels.fresh(TINY, seed=0).to_dict()
    del data["networks"]["up"]
    torch.save(data, tmp_path / "no_up.pt")
    refused(tmp_path / "no_up.pt", "up")

    data = PerfectDouModels.fresh(TINY, seed=0).to_dict()
    weight = data["networks"]["down"]["policy.0.weight"]
    data["networks"]["down"]["policy.0.weight"] = torch.zeros(weight.shape[0], weight.shape[1] + 5)
    torch.save(data, tmp_path / "wide.pt")
    refused(tmp_path / "wide.pt")

    data = PerfectDouModels.fresh(TINY, seed=0).to_dict()
    data["model"] = {"lstm": 16}  # the stored weights are of an 8-wide LSTM
    torch.save(data, tmp_path / "config.pt")
    refused(tmp_path / "config.pt")

    data = PerfectDouModels.fresh(TINY, seed=0).to_dict()
    del data["model"]
    torch.save(data, tmp_path / "no_config.pt")
    refused(tmp_path / "no_config.pt")


def test_dmc_model_file_is_refused(tmp_path: Path):
    path = tmp_path / "dmc.pt"
    torch.save({"format": DMC_FORMAT, "game": "doudizhu", "networks": {}}, path)
    refused(path, DMC_FORMAT)


def planes_deal() -> Deal:
    """The landlord (seat 0) holds planes and many possible kickers; the rest of the deck is dealt in order."""
    landlord = parse_cards("3334445556789TJQK")
    rest = [r for r in range(NUM_RANKS) for _ in range(FULL_DECK[r] - landlord[r])]
    hands = [tuple(rest[i:j].count(r) for r in range(NUM_RANKS)) for i, j in ((0, 17), (17, 34), (34, 37))]
    return Deal((tuple(landlord), hands[0], hands[1]), hands[2], 0)


def test_decision_has_one_legal_candidate_per_abstract_action():
    planes = GAME.from_deal(planes_deal(), RESEARCH)
    cases = [(planes, planes.legal_actions())] + [case for seed in range(3) for case in decisions(seed, 40)]
    grouped = 0
    for state, legal in cases:
        obs = state.observation(state.current_player)
        chosen = decision(obs, legal)
        distinct = {abstract_index(m) for m in legal}
        assert len(chosen.candidates) == len(distinct) == len(chosen.abstract)
        assert all(c in legal for c in chosen.candidates)
        assert [abstract_index(c) for c in chosen.candidates] == chosen.abstract.tolist()
        assert chosen.features.actions.shape[0] == len(chosen.candidates)
        assert chosen.features.perfect is None
        grouped += len(distinct) < len(legal)
    assert grouped > 0
