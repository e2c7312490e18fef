import io
import operator
import os
from functools import partial
from pathlib import Path

import pytest
from rich.console import Console

from paiju.core.errors import AgentError, PaijuError
from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu
from paiju.eval.parallel import LOG_SECONDS, Parallelism, ProgressLines, map_units
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


def test_progress_off_a_terminal_is_a_line_a_minute_with_the_time_left() -> None:
    out = io.StringIO()
    now = [0.0]
    advance = ProgressLines("playing", 100, Console(file=out, width=200), clock=lambda: now[0])
    for step in range(10):  # ten chunks of 10 units, 20 s apart
        now[0] = 20.0 * (step + 1)
        advance(10)
    lines = out.getvalue().splitlines()
    assert lines[0] == "playing: 10/100 (10 %), 20 s elapsed, about 3 min left"
    assert lines[-1] == "playing: 100/100 (100 %), 3 min elapsed"
    assert len(lines) == 1 + int(200 // LOG_SECONDS)  # the first, one a minute, the last (at 3 min, due anyway)


def test_an_evaluation_off_a_terminal_writes_its_progress_in_lines(capsys: pytest.CaptureFixture[str]) -> None:
    map_units(list, 12, 1, progress=True, description="decks")
    assert "decks: 12/12 (100 %)" in capsys.readouterr().err


def test_derived_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, "deck", 0) == derive_seed(1, "deck", 0)
    seeds = {derive_seed(seed, kind, index) for seed in (0, 1) for kind in ("deck", "agent") for index in range(50)}
    assert len(seeds) == 200
    assert all(0 <= seed < 2**63 for seed in seeds)


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def importable_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spawned workers share this process's ``sys.path``: with the root on it they import this module's work."""
    monkeypatch.syspath_prepend(str(ROOT))


class Unpicklable(Exception):
    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def fail_unpicklably(chunk: range) -> list[int]:
    raise Unpicklable("chunk", f"starting at {chunk.start}")


def die(chunk: range) -> list[int]:
    os._exit(3)


def fail_as_an_agent(chunk: range) -> list[int]:
    raise AgentError("ext:bot", 2, f"act request: the program gave no answer within 1 s (unit {chunk.start})")


def test_an_agent_error_in_a_worker_arrives_whole(importable_tests: None) -> None:
    with pytest.raises(AgentError) as caught:
        map_units(fail_as_an_agent, 1, 2, progress=False)
    assert (caught.value.agent, caught.value.seat) == ("ext:bot", 2)
    assert caught.value.problem == "act request: the program gave no answer within 1 s (unit 0)"


def test_an_error_that_cannot_be_pickled_comes_back_with_its_type_and_text(importable_tests: None) -> None:
    with pytest.raises(PaijuError, match=r"work on units 0\.\.0 failed: Unpicklable: chunk: starting at 0"):
        map_units(fail_unpicklably, 1, 2, progress=False)


def test_a_dead_worker_is_a_clear_error(importable_tests: None) -> None:
    with pytest.raises(PaijuError, match=r"a worker process died before units 0\.\.0 were played"):
        map_units(die, 1, 2, progress=False)


def test_a_backend_is_local_or_ray_and_an_address_needs_ray() -> None:
    with pytest.raises(PaijuError, match="unknown backend 'cloud'; choose local or ray"):
        Parallelism(2, "cloud")  # type: ignore[arg-type]
    with pytest.raises(PaijuError, match=r"a cluster address \(head:6379\) needs the ray backend"):
        Parallelism(2, address="head:6379")
    with pytest.raises(PaijuError, match="workers must be a positive integer, got 0"):
        map_units(list, 3, 0, progress=False)
    with pytest.raises(PaijuError, match="unknown backend 'cloud'"):
        DouDizhuEvalConfig("rules", "random", backend="cloud")  # type: ignore[arg-type]


def test_ray_tasks_give_the_results_of_local_processes(local_ray: None) -> None:
    assert map_units(list, 37, Parallelism(2, "ray"), progress=False) == list(range(37))
    here = evaluate_doudizhu(DouDizhuEvalConfig("rules", "random", decks=3), progress=False)
    on_ray = evaluate_doudizhu(DouDizhuEvalConfig("rules", "random", decks=3, workers=2, backend="ray"),
                               progress=False)
    assert on_ray.per_deck == here.per_deck and len(here.per_deck) == 3
    assert on_ray.to_json()["config"]["backend"] == "ray" and here.to_json()["config"]["backend"] == "local"


def test_errors_in_ray_tasks_arrive_as_they_were_raised(local_ray: None) -> None:
    with pytest.raises(AgentError) as caught:
        map_units(fail_as_an_agent, 3, Parallelism(2, "ray"), progress=False)
    assert (caught.value.agent, caught.value.seat) == ("ext:bot", 2)
    assert caught.value.problem.startswith("act request: the program gave no answer within 1 s")
    with pytest.raises(PaijuError, match=r"work on units 0\.\.0 failed: Unpicklable: chunk: starting at 0"):
        map_units(fail_unpicklably, 1, Parallelism(1, "ray"), progress=False)
