import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.eval.intransitivity import bootstrap_intransitivity, intransitivity


def antisymmetric(upper: dict[tuple[int, int], float], n: int) -> np.ndarray:
    xi = np.zeros((n, n))
    for (i, j), score in upper.items():
        xi[i, j], xi[j, i] = score, -score
    return xi


ROCK_PAPER_SCISSORS = antisymmetric({(0, 1): 1.0, (1, 2): 1.0, (0, 2): -1.0}, 3)

scores = st.floats(min_value=-400, max_value=400, allow_nan=False, allow_infinity=False)


@st.composite
def score_matrices(draw: st.DrawFn) -> np.ndarray:
    n = draw(st.integers(3, 6))
    return antisymmetric({(i, j): draw(scores) for i in range(n) for j in range(i + 1, n)}, n)


def test_scores_from_ratings_are_transitive() -> None:
    ratings = np.array([300.0, 120.0, -15.0, -80.0, -325.0])
    assert intransitivity(ratings[:, None] - ratings[None, :]) == 0


def test_rock_paper_scissors_is_fully_intransitive() -> None:
    # ξ01 + ξ12 − ξ02 = 3; ε = 3² / (3 · (1 + 1 + 1)) = 1
    assert intransitivity(ROCK_PAPER_SCISSORS) == 1
    assert intransitivity(5 * ROCK_PAPER_SCISSORS) == 1


def test_rock_paper_scissors_with_a_weakest_strategy() -> None:
    # Strategy 3 loses 1 to each of the cycle. Triples: (0,1,2): 3² over 3·3; (0,1,3): 1+1−1 = 1, 1² over 1·3;
    # (0,2,3): −1+1−1 = −1, 1 over 3; (1,2,3): 1+1−1 = 1, 1 over 3. ε = (9+1+1+1) / (9+3+3+3) = 2/3.
    xi = np.zeros((4, 4))
    xi[:3, :3] = ROCK_PAPER_SCISSORS
    xi[:3, 3], xi[3, :3] = 1, -1
    assert intransitivity(xi) == pytest.approx(2 / 3)


def test_scrofazero_table_2_is_nearly_transitive() -> None:
    # Table 2 (R, I, G, SZS): the departures are −1, 2, 16, 13 over |ξ| sums 549, 640, 654, 267:
    # ε = (1 + 4 + 256 + 169) / (549 + 1280 + 10464 + 3471) = 430 / 15764, the paper's ε ≈ 0.03 (Eq. 20).
    table_2 = antisymmetric({(0, 1): 194, (0, 2): 275, (0, 3): 319, (1, 2): 80, (1, 3): 127, (2, 3): 60}, 4)
    assert intransitivity(table_2) == pytest.approx(430 / 15764)
    assert round(intransitivity(table_2), 2) == 0.03


def test_all_zero_scores_count_as_transitive() -> None:
    assert intransitivity(np.zeros((4, 4))) == 0


@given(score_matrices())
def test_epsilon_lies_in_the_unit_interval(xi: np.ndarray) -> None:
    assert 0 <= intransitivity(xi) <= 1 + 1e-12


@given(score_matrices(), st.randoms(use_true_random=False), st.floats(0.01, 100))
def test_epsilon_ignores_reindexing_scaling_and_the_sign_convention(xi: np.ndarray, rng: object,
                                                                       scale: float) -> None:
    order = list(range(len(xi)))
    rng.shuffle(order)  # type: ignore[attr-defined]
    expected = intransitivity(xi)
    assert intransitivity(xi[np.ix_(order, order)]) == pytest.approx(expected, abs=1e-9)
    assert intransitivity(scale * xi) == pytest.approx(expected, abs=1e-9)
    assert intransitivity(xi.T) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("xi", "message"), [
    (np.zeros((3, 4)), "square"),
    (np.zeros((2, 2)), "at least 3"),
    (np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]), r"antisymmetric .* xi\[0, 1\] = 1"),
    (np.array([[0, np.nan, 0], [np.nan, 0, 0], [0, 0, 0]]), "finite"),
])
def test_bad_score_matrices_are_refused(xi: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        intransitivity(xi)


def noisy_cycle(deals: int, seed: int) -> np.ndarray:
    """Per-deal scores of a rock-paper-scissors cycle plus a weak fourth strategy, with noise."""
    rng = np.random.default_rng(seed)
    upper = {(0, 1): 30.0, (1, 2): 30.0, (0, 2): -30.0, (0, 3): 40.0, (1, 3): 50.0, (2, 3): 60.0}
    per_deal = np.zeros((4, 4, deals))
    for (i, j), mean in upper.items():
        per_deal[i, j] = mean + rng.normal(0, 100, deals)
        per_deal[j, i] = -per_deal[i, j]
    return per_deal


def test_bootstrap_is_reproducible_for_a_seed() -> None:
    per_deal = noisy_cycle(200, seed=1)
    first = bootstrap_intransitivity(per_deal, resamples=300, seed=7)
    assert bootstrap_intransitivity(per_deal, resamples=300, seed=7) == first
    assert bootstrap_intransitivity(per_deal, resamples=300, seed=8) != first
    assert first.to_json()["resamples"] == 300


def test_bootstrap_estimate_is_epsilon_of_the_deal_means_within_its_interval() -> None:
    per_deal = noisy_cycle(400, seed=2)
    estimate = bootstrap_intransitivity(per_deal, resamples=400, seed=0)
    assert estimate.value == pytest.approx(intransitivity(per_deal.mean(axis=2)))
    assert 0 <= estimate.low <= estimate.value <= estimate.high <= 1
    assert 0 < estimate.se < 0.2
    wider = bootstrap_intransitivity(per_deal[:, :, :50], resamples=400, seed=0)
    assert wider.se > estimate.se


def test_identical_deals_give_no_bootstrap_spread() -> None:
    per_deal = np.repeat(ROCK_PAPER_SCISSORS[:, :, None], 10, axis=2)
    estimate = bootstrap_intransitivity(per_deal, resamples=50, seed=3)
    assert (estimate.value, estimate.se, estimate.low, estimate.high) == (1, 0, 1, 1)


def test_bootstrap_refuses_bad_shapes_and_counts() -> None:
    with pytest.raises(ValueError, match="shape"):
        bootstrap_intransitivity(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="2 resamples"):
        bootstrap_intransitivity(np.zeros((3, 3, 5)), resamples=1)
