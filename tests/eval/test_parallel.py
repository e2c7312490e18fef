import operator
from functools import partial

import pytest

from paiju.eval.parallel import map_units
from paiju.eval.seeds import derive_seed


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_back_in_unit_order(workers: int) -> None:
    assert map_units(list, 37, workers, progress=False) == list(range(37))


def test_no_units_give_no_results() -> None:
    assert map_units(list, 0, 1, progress=False) == []


def test_a_failing_worker_raises_its_error() -> None:
    with pytest.raises(TypeError, match="range"):
        map_units(partial(operator.getitem, []), 10, 2, progress=False)


def test_a_wrong_number_of_results_is_an_error() -> None:
    with pytest.raises(RuntimeError, match=r"units 0\.\.0 returned 0 results"):
        map_units(lambda chunk: [], 5, 1, progress=False)


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "deck", 0) == derive_seed(1, "deck", 0)
    seeds = {derive_seed(seed, kind, index) for seed in (0, 1) for kind in ("deck", "agent") for index in range(50)}
    assert len(seeds) == 200
    assert all(0 <= seed < 2**63 for seed in seeds)
