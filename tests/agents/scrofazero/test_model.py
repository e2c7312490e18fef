"""ScrofaNet: shapes, the paper's parameter count, the ×10 value, seeded initialisation, the policy masked before
the softmax (§8.8), and model files (round trip, atomic write, clear errors)."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents.scrofazero.features import INPUT_SIZE
from paiju.agents.scrofazero.model import (
    PAPER_CONFIG,
    VALUE_SCALE,
    ModelConfig,
    ScrofaNet,
    load,
    log_policy,
    policy,
    save,
)
from paiju.core.errors import PaijuError

SMALL = ModelConfig(width1=32, width2=24, width3=16, blocks=2)


def parameters(model: torch.nn.Module) -> int:
    return sum(parameter.numel() for parameter in model.parameters())


def linear(inputs: int, outputs: int) -> int:
    return inputs * outputs + outputs


def test_shapes_and_the_scaled_value():
    model = ScrofaNet(SMALL)
    inputs = torch.rand(5, INPUT_SIZE)
    logits, value = model(inputs)
    assert logits.shape == (5, 52) and value.shape == (5,)
    raw = model.head(model.blocks(model.trunk(inputs)))
    assert raw.shape == (5, 53)
    torch.testing.assert_close(logits, raw[:, :52])
    torch.testing.assert_close(value, raw[:, 52] * 10)
    assert VALUE_SCALE == 10
    single_logits, single_value = model(inputs[0])
    assert single_logits.shape == (52,) and single_value.shape == ()


def test_blocks_are_residual():
    model = ScrofaNet(SMALL)
    block = model.blocks[0]
    with torch.no_grad():
        block.second.weight.zero_()
        block.second.bias.fill_(-1.0)  # relu(...) = 0: the block passes its input through unchanged
    x = torch.rand(3, SMALL.width3)
    torch.testing.assert_close(block(x), x)


def test_the_papers_size_has_11_4_million_parameters():
    count = parameters(ScrofaNet(PAPER_CONFIG))
    assert count == (linear(434, 2048) + linear(2048, 2048) + linear(2048, 512) + 20 * linear(512, 512)
                     + linear(512, 53)) == 11_416_629
    assert abs(count - 11_416_299) / 11_416_299 < 0.01  # Table 5, "Fully Connection 24"


def test_the_default_size():
    config = ModelConfig()
    assert (config.width1, config.width2, config.width3, config.blocks) == (512, 512, 256, 4)
    assert parameters(ScrofaNet(config)) == (linear(434, 512) + linear(512, 512) + linear(512, 256)
                                             + 8 * linear(256, 256) + linear(256, 53)) == 1_156_661
    assert parameters(ScrofaNet(ModelConfig(blocks=0))) == 1_156_661 - 8 * linear(256, 256)


def test_seeded_initialisation_leaves_the_global_stream_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    first = ScrofaNet(SMALL, seed=7)
    assert torch.equal(torch.rand(3), expected)
    same, other = ScrofaNet(SMALL, seed=7), ScrofaNet(SMALL, seed=8)
    assert all(torch.equal(a, b) for a, b in zip(first.state_dict().values(), same.state_dict().values(),
                                                 strict=True))
    assert not torch.equal(first.head.weight, other.head.weight)


@st.composite
def logits_and_masks(draw):
    rows = draw(st.integers(1, 6))
    masks = [draw(st.lists(st.booleans(), min_size=52, max_size=52).filter(any)) for _ in range(rows)]
    scale = draw(st.sampled_from([0.1, 1.0, 30.0, 300.0]))
    generator = torch.Generator().manual_seed(draw(st.integers(0, 2**31 - 1)))
    return torch.randn(rows, 52, generator=generator) * scale, torch.tensor(masks), generator


@settings(max_examples=80, deadline=None)
@given(logits_and_masks())
def test_the_masked_policy_is_zero_on_illegal_cards_and_sums_to_one(case):
    logits, legal, generator = case
    probabilities = policy(logits, legal)
    assert (probabilities[~legal] == 0).all()
    torch.testing.assert_close(probabilities.sum(dim=-1), torch.ones(len(logits)))
    for row in range(len(logits)):  # a softmax over the legal cards' logits only
        torch.testing.assert_close(probabilities[row][legal[row]], torch.softmax(logits[row][legal[row]], dim=0))
    log_probabilities = log_policy(logits, legal)
    assert torch.isfinite(log_probabilities).all()
    torch.testing.assert_close(log_probabilities.exp(), probabilities)
    # the KL loss against a target that is 0 on illegal cards stays finite, and so do its gradients
    target = policy(torch.randn(logits.shape, generator=generator), legal)
    trainable = logits.clone().requires_grad_()
    loss = torch.nn.functional.kl_div(log_policy(trainable, legal), target, reduction="batchmean")
    loss.backward()
    assert math.isfinite(loss.item()) and torch.isfinite(trainable.grad).all()
    assert (trainable.grad[~legal] == 0).all()


def test_policy_accepts_a_float_mask_and_rejects_bad_ones():
    logits = torch.randn(2, 52)
    legal = torch.zeros(2, 52)
    legal[:, 5] = 1
    assert torch.equal(policy(logits, legal)[:, 5], torch.ones(2))
    with pytest.raises(ValueError, match="no legal card"):
        policy(logits, torch.zeros(2, 52, dtype=torch.bool))
    with pytest.raises(ValueError, match="shape"):
        policy(logits, torch.ones(52, dtype=torch.bool))


def test_save_and_load_round_trip(tmp_path):
    model = ScrofaNet(SMALL, seed=3)
    path = tmp_path / "nets" / "scrofanet.pt"
    save(model, path)
    assert [file.name for file in path.parent.iterdir()] == ["scrofanet.pt"]  # no temporary file left behind
    loaded = load(path, config=SMALL)
    assert loaded.config == SMALL
    inputs = torch.rand(4, INPUT_SIZE)
    for ours, theirs in zip(model(inputs), loaded(inputs), strict=True):
        assert torch.equal(ours, theirs)
    save(ScrofaNet(SMALL, seed=4), path)  # overwriting replaces the file whole
    assert torch.equal(load(path).head.weight, ScrofaNet(SMALL, seed=4).head.weight)


def test_load_errors_name_the_problem(tmp_path):
    with pytest.raises(PaijuError, match="no ScrofaNet model file"):
        load(tmp_path / "missing.pt")
    path = tmp_path / "model.pt"
    save(ScrofaNet(SMALL), path)
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(path.read_bytes()[:200])
    with pytest.raises(PaijuError, match="cannot read a ScrofaNet model file"):
        load(truncated)
    with pytest.raises(PaijuError, match="expected"):
        load(path, config=ModelConfig())
    foreign = tmp_path / "foreign.pt"
    torch.save({"weights": {}}, foreign)
    with pytest.raises(PaijuError, match="not a ScrofaNet model file"):
        load(foreign)
    data = torch.load(path, weights_only=True)
    data["config"]["blocks"] = 3
    torch.save(data, foreign)
    with pytest.raises(PaijuError, match="do not fit"):
        load(foreign)
    data["config"] = {"width1": 32}
    torch.save(data, foreign)
    with pytest.raises(PaijuError, match="damaged ScrofaNet config"):
        load(foreign)


@pytest.mark.parametrize("field, value", [("width1", 0), ("width3", -4), ("blocks", -1), ("width2", 2.5),
                                          ("blocks", True)])
def test_config_rejects_bad_sizes(field, value):
    with pytest.raises(ValueError, match=f"ModelConfig.{field}"):
        ModelConfig(**{field: value})
