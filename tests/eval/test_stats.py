import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.eval.stats import (
    NORMAL_DF,
    Z95,
    duplicate_mean,
    duplicate_rate,
    mean_interval,
    paired_difference,
    t_quantile_975,
    wilson_interval,
)

# Student t 97.5 % quantiles from standard tables.
T_TABLE = {1: 12.7062, 2: 4.3027, 3: 3.1824, 5: 2.5706, 10: 2.2281, 30: 2.0423, 100: 1.9840, 1000: 1.9623}


@pytest.mark.parametrize(("df", "expected"), sorted(T_TABLE.items()))
def test_t_quantile_matches_tables(df: int, expected: float) -> None:
    assert t_quantile_975(df) == pytest.approx(expected, abs=1e-4)


def test_t_quantile_becomes_normal_for_many_degrees_of_freedom() -> None:
    assert abs(Z95 - 1.959964) < 1e-6
    assert t_quantile_975(NORMAL_DF + 1) == Z95
    assert Z95 < t_quantile_975(NORMAL_DF) < Z95 * 1.0002


def test_t_quantile_rejects_zero_degrees_of_freedom() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile_975(0)


@pytest.mark.parametrize(("wins", "n", "low", "high"), [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 1, 0.2065, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(wins: int, n: int, low: float, high: float) -> None:
    estimate = wilson_interval(wins, n)
    assert estimate.value == wins / n
    assert estimate.n == n
    assert estimate.low == pytest.approx(low, abs=1e-4)
    assert estimate.high == pytest.approx(high, abs=1e-4)


def test_wilson_interval_rejects_bad_counts() -> None:
    with pytest.raises(ValueError, match="at least one game"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(4, 3)


def test_mean_interval_known_values() -> None:
    estimate = mean_interval([1, 2, 3, 4, 5])  # s² = 2.5, t(0.975, 4) = 2.7764
    half = 2.776445 * math.sqrt(2.5 / 5)
    assert estimate.value == 3
    assert estimate.low == pytest.approx(3 - half, abs=1e-5)
    assert estimate.high == pytest.approx(3 + half, abs=1e-5)


def test_mean_of_one_value_has_no_interval_and_of_none_is_an_error() -> None:
    estimate = mean_interval([2.0])
    assert (estimate.value, estimate.low, estimate.high, estimate.n) == (2.0, None, None, 1)
    assert str(estimate) == "2.000"
    with pytest.raises(ValueError, match="at least one value"):
        mean_interval([])


def test_duplicate_mean_with_single_games_is_the_ordinary_t_interval() -> None:
    values = [0.5, -2.0, 4.0, 1.0, -1.0, 2.0]
    assert duplicate_mean([[v] for v in values]) == mean_interval(values)


def test_duplicate_mean_with_equal_groups_is_the_t_interval_of_group_means() -> None:
    groups = [[2.0, -1.0], [4.0, 0.0], [-2.0, -4.0], [1.0, 1.0]]
    expected = mean_interval([sum(g) / 2 for g in groups])
    got = duplicate_mean(groups)
    assert got.value == pytest.approx(expected.value)
    assert got.low == pytest.approx(expected.low)
    assert got.high == pytest.approx(expected.high)
    assert got.n == 8


def test_duplicate_mean_weights_every_value_and_skips_empty_groups() -> None:
    estimate = duplicate_mean([[1.0, 1.0, 1.0], [], [4.0]])
    assert estimate.value == pytest.approx(7 / 4)
    assert estimate.n == 4
    assert duplicate_mean([[1.0, 2.0]]).low is None  # one group: no interval


def test_duplicate_rate_with_single_games_is_wilson() -> None:
    outcomes = [True] * 7 + [False] * 13
    got = duplicate_rate([[won] for won in outcomes])
    expected = wilson_interval(7, 20)
    assert got.value == expected.value
    assert got.low == pytest.approx(expected.low)
    assert got.high == pytest.approx(expected.high)


def test_duplicate_rate_narrows_for_offsetting_games_and_widens_for_repeated_ones() -> None:
    independent = wilson_interval(10, 20)
    offsetting = duplicate_rate([[True, False]] * 10)  # each deal won once and lost once: no deal luck left
    assert (offsetting.low, offsetting.high) == (0.5, 0.5)
    repeated = duplicate_rate([[True, True]] * 5 + [[False, False]] * 5)  # two copies of each game
    assert repeated.value == 0.5
    assert repeated.high - repeated.low > independent.high - independent.low


def test_duplicate_rate_when_every_game_has_the_same_outcome_is_wilson() -> None:
    got = duplicate_rate([[True, True], [True, True], [True, True]])
    expected = wilson_interval(6, 6)
    assert (got.low, got.high) == pytest.approx((expected.low, expected.high))


def test_paired_difference() -> None:
    estimate = paired_difference([3.0, 5.0, 4.0], [1.0, 2.0, 3.0])
    assert estimate == mean_interval([2.0, 3.0, 1.0])
    with pytest.raises(ValueError, match="equal lengths"):
        paired_difference([1.0], [1.0, 2.0])


@given(st.integers(min_value=1, max_value=500), st.data())
def test_wilson_interval_contains_the_estimate_and_shrinks_with_n(n: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(min_value=0, max_value=n))
    small, large = wilson_interval(wins, n), wilson_interval(4 * wins, 4 * n)
    assert 0 <= small.low <= small.value <= small.high <= 1
    assert large.high - large.low < small.high - small.low


@given(st.lists(st.floats(min_value=-100, max_value=100, allow_nan=False), min_size=2, max_size=50))
def test_mean_interval_contains_the_estimate_and_shrinks_with_n(values: list[float]) -> None:
    small, large = mean_interval(values), mean_interval(values * 4)
    assert small.low <= small.value <= small.high
    assert large.value == pytest.approx(small.value, abs=1e-9)
    assert large.high - large.low <= small.high - small.low + 1e-12
