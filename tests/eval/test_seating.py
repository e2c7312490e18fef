"""Evaluations keep one external process per seat from game to game, restart it only after a failed game, give
every game its own agent seeds (apart from the deals), and report a program's fault from any worker with its
agent, seat and cause."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from paiju import load_game
from paiju.core.errors import AgentError
from paiju.eval.doudizhu import DouDizhuEvalConfig, DouDizhuEvalReport, evaluate_doudizhu
from paiju.eval.seating import close_kept_agents, play_seated
from paiju.eval.seeds import derive_seed

ROOT = Path(__file__).resolve().parents[2]
FAULTY_BOT = ROOT / "tests" / "agents" / "bots" / "faulty_bot.py"
RANDOM_BOT = ROOT / "examples" / "ext_random_bot.py"


def ext(script: Path, *arguments: object) -> str:
    return "ext:" + shlex.join([sys.executable, str(script), *(str(argument) for argument in arguments)])


def evaluate(agent_a: str, decks: int, workers: int = 1, seed: int = 0) -> DouDizhuEvalReport:
    return evaluate_doudizhu(DouDizhuEvalConfig(agent_a, "random", decks=decks, workers=workers, seed=seed),
                             progress=False)


def all_gone(pids: list[int], within: float = 5.0) -> bool:
    """Whether every process of ``pids`` has ended, waiting up to ``within`` seconds."""
    deadline = time.monotonic() + within
    while not all(_gone(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize("workers", [1, 2])
def test_each_seat_keeps_one_process_for_all_its_games(tmp_path: Path, workers: int) -> None:
    pids = tmp_path / "pids"
    report = evaluate(ext(FAULTY_BOT, "--pids", pids, "none"), decks=4, workers=workers)
    started = [int(pid) for pid in pids.read_text().split()]
    assert report.games == 8  # A alone at seat 0, then A at seats 1 and 2, on every deck: 12 seatings
    assert 3 <= len(started) <= 3 * workers
    assert all_gone(started)


def test_a_process_is_restarted_only_after_a_game_it_played_failed(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    game = load_game("doudizhu")
    specs = [ext(FAULTY_BOT, "--pids", pids, "--after", "40", "crash"), "random", "random"]
    outcomes = []
    try:
        for deal_seed in range(6):
            try:
                play_seated(game, specs, [deal_seed, 1, 2], deal_seed)
                outcomes.append("played")
            except AgentError as error:
                assert (error.seat, error.agent) == (0, specs[0]) and "crashed on purpose" in str(error)
                outcomes.append("failed")
    finally:
        close_kept_agents()
    assert outcomes == ["played", "played", "failed"] * 2  # seat 0 acts 18, 21, 20, 20, 18, 20 times
    assert len(pids.read_text().split()) == 1 + outcomes[:-1].count("failed")


def test_every_game_gives_each_seat_its_own_seed_apart_from_the_deals(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    evaluate(ext(RANDOM_BOT, "--log", log), decks=3, seed=5)
    starts = [message for message in map(json.loads, log.read_text().splitlines()) if message["type"] == "start"]
    expected = [(seat, derive_seed(5, "agent", deck, seat)) for deck in range(3) for seat in range(3)]
    assert sorted((start["seat"], start["seed"]) for start in starts) == sorted(expected)
    agent_seeds = {seed for _, seed in expected}
    deal_seeds = {derive_seed(5, "deck", deck) for deck in range(3)}
    assert len(agent_seeds) == 9 and not agent_seeds & {deal + seat for deal in deal_seeds for seat in range(4)}


@pytest.mark.parametrize("fault", [("--after", "3", "answer", "garbage"), ("quit", "4")],
                         ids=["garbage", "exits"])
def test_a_fault_in_a_worker_names_the_agent_seat_and_cause(fault: tuple[str, ...]) -> None:
    spec = ext(FAULTY_BOT, *fault)
    with pytest.raises(AgentError) as caught:
        evaluate(spec, decks=4, workers=2)
    assert caught.value.agent == spec and caught.value.seat in (0, 1, 2)
    cause = "answered something that is not JSON" if "garbage" in fault else "exited with code 4"
    assert cause in caught.value.problem
