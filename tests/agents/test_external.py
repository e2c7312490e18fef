"""External agents: real processes speaking the JSON-lines protocol play full games; every fault is reported."""

from __future__ import annotations

import io
import json
import os
import re
import resource
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from paiju import load_game, make_agent
from paiju.agents.external import ANSWER_LIMIT, STDERR_TAIL_CHARS, ExternalAgent, _Fault, _Output
from paiju.agents.random_agent import RandomAgent
from paiju.core.errors import AgentError, PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules, format_cards

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "ext_random_bot.py"
FAULTY_BOT = Path(__file__).resolve().parent / "bots" / "faulty_bot.py"
OBS_KEYS = {"hand", "position", "landlord", "public", "bids", "history", "cards_left", "multiplier"}
GAME = load_game("doudizhu")


def command(script: Path, *arguments: str | Path) -> str:
    return " ".join(shlex.quote(str(part)) for part in (sys.executable, script, *arguments))


def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def expected_requests(seed: int, rules: DouDizhuRules, actions: list[list[Any]]) -> dict[int, list[dict[str, Any]]]:
    """The ``act`` messages each seat must have received, rebuilt by replaying the game's actions."""
    state = GAME.new_state(seed, rules)
    requests: dict[int, list[dict[str, Any]]] = {0: [], 1: [], 2: []}
    for seat, value in actions:
        obs = state.observation(seat).to_json()
        assert obs["hand"] == format_cards(state.hands[seat])  # its own hand, from the full state
        requests[seat].append({"v": 1, "type": "act", "game": "doudizhu", "seat": seat, "phase": state.phase,
                               "obs": obs, "legal": [GAME.action_to_json(a) for a in state.legal_actions()]})
        state.apply(state.action_from_json(value), seat=seat)
    return requests


@pytest.mark.parametrize(("mode", "seed", "deals"), [("research", 11, 1), ("full", 12, 1), ("full", 52, 2)])
def test_three_random_bots_play_a_game_each_seeing_only_its_own_seat(
        mode: str, seed: int, deals: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAIJU_EXT_TIMEOUT", "5")
    rules = DouDizhuRules(mode=mode)  # type: ignore[arg-type]
    logs = [tmp_path / f"seat{seat}.jsonl" for seat in range(3)]
    agents = [make_agent(f"ext:{command(RANDOM_BOT, '--seed', str(10 * seed + seat), '--log', logs[seat])}",
                         "doudizhu") for seat in range(3)]
    try:
        state = play_game(GAME, agents, seed, rules)
    finally:
        for agent in agents:
            agent.close()
    assert all(isinstance(agent, ExternalAgent) and agent.timeout == 5.0 for agent in agents)
    assert state.is_terminal() and state.deal_number + 1 == deals  # seed 52: all pass once, a new deal
    record = state.to_record()
    requests = expected_requests(seed, rules, record["actions"])
    for seat, log in enumerate(logs):
        raw_lines = log.read_text(encoding="utf-8").splitlines()
        messages = read_log(log)
        starts = [m for m in messages if m["type"] == "start"]
        assert starts == [{"v": 1, "type": "start", "game": "doudizhu", "seat": seat, "rules": record["rules"],
                           "seed": 0}] * (state.deal_number + 1)
        assert [m for m in messages if m["type"] == "act"] == requests[seat]
        assert messages[-1] == {"v": 1, "type": "end", "game": "doudizhu", "seat": seat,
                                "result": json.loads(json.dumps(state.result()))}
        assert all(set(m["obs"]) == OBS_KEYS for m in messages if m["type"] == "act")
        assert raw_lines[0].startswith(f'{{"v":1,"type":"start","game":"doudizhu","seat":{seat},"rules":{{')
        assert all(" " not in line for line in raw_lines)  # compact: DouDizhu JSON holds no spaces


def test_a_command_with_shell_syntax_runs_through_the_shell() -> None:
    agent = ExternalAgent(command(RANDOM_BOT, "--seed", "3") + " 2>/dev/null", timeout=5)
    try:
        state = play_game(GAME, [agent, RandomAgent(1), RandomAgent(2)], 5)
    finally:
        agent.close()
    assert state.is_terminal() and any(seat == 0 for seat, _ in state.actions)


def _process_is_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


FAULTS = [
    pytest.param(["--after", "1", "crash"], 3, ["ended its output without answering", "exited with code 1",
                                                  "RuntimeError: the bot crashed on purpose"], id="crash"),
    pytest.param(["--after", "1", "answer", "not json at all"], 3,
                 ["answered something that is not JSON", "'not json at all'"], id="not-json"),
    pytest.param(["--after", "1", "answer", '["3"]'], 3,
                 ['answered JSON that is not an object with "action"', "'[\"3\"]'"], id="not-an-object"),
    pytest.param(["--after", "1", "answer", '{"play": "3"}'], 3,
                 ['not an object with "action"', "'{\"play\": \"3\"}'"], id="no-action"),
    pytest.param(["--after", "1", "answer", '{"action": "7777777"}'], 3,
                 ["answered an action not in legal", "'\"7777777\"'"], id="not-legal"),
    pytest.param(["--after", "1", "answer", "x" * 500], 3,
                 ["'" + "x" * 200 + "' (first 200 of 500 characters)"], id="long-garbage"),
    pytest.param(["--after", "1", "sleep"], 3, ["gave no answer within 1 s"], id="timeout"),
    pytest.param(["quit", "3"], 0, ["exited with code 3"], id="exits-early"),
    pytest.param(["chatty"], 3, ["wrote output nobody asked for", "'{\"action\": \"hello\"}'"],
                 id="unrequested-output"),
    pytest.param(["--after", "1", "answer", "[" * 100_000], 3,
                 ["answered JSON nested too deeply to read", "'" + "[" * 200 + "' (first 200 of 100000 characters)"],
                 id="deeply-nested"),
    pytest.param(["--after", "1", "answer", '{"action": ' + "7" * 5000 + "}"], 3,
                 ["answered a number longer than 4300 digits", "'{\"action\": 7777"], id="huge-integer"),
    pytest.param(["--after", "1", "stdout-flood"], 3,
                 [f"wrote a line longer than the answer limit of {ANSWER_LIMIT} bytes"], id="endless-line"),
]


@pytest.mark.parametrize(("bot_arguments", "actions_before", "fragments"), FAULTS)
def test_a_fault_raises_agent_error_before_anything_is_applied(
        bot_arguments: list[str], actions_before: int, fragments: list[str]) -> None:
    agent = ExternalAgent(command(FAULTY_BOT, *bot_arguments), timeout=1, name="faulty")
    state = GAME.new_state(7)
    started = time.monotonic()
    try:
        with pytest.raises(AgentError) as caught:
            play_game(GAME, [agent, RandomAgent(1), RandomAgent(2)], 7, state=state)
    finally:
        agent.close()
    assert time.monotonic() - started < 5
    error = caught.value
    message = str(error)
    assert (error.agent, error.seat) == ("faulty", 0)
    assert f"act request (phase 'play', move {actions_before + 1}, after start #1): the program " in message
    for fragment in fragments:
        assert fragment in message
    assert len(state.actions) == actions_before and state.current_player == 0 and not state.is_terminal()
    pid = re.search(r"faulty bot pid (\d+)", message)  # the tail of the program's stderr
    assert pid is not None and _process_is_gone(int(pid.group(1)))
    assert not agent.running


def test_endless_stderr_keeps_only_its_end_and_the_time_limit_holds() -> None:
    agent = ExternalAgent(command(FAULTY_BOT, "stderr-flood"), timeout=1, name="flood")
    state = GAME.new_state(7)
    agent.begin("doudizhu", 0, {"mode": "research"})
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    try:
        with pytest.raises(AgentError) as caught:
            agent.act(state.observation(0), state.legal_actions())
    finally:
        agent.close()
    assert time.monotonic() - started < 3
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak < 100_000  # KiB: the flood was not kept
    message = str(caught.value)
    assert "the program gave no answer within 1 s; its stderr ends with:\n" in message
    assert message.endswith("\n" + "x" * STDERR_TAIL_CHARS)


def test_output_waiting_unread_is_bounded() -> None:
    output = _Output()
    output.read(io.BytesIO(b"{}\n" * (ANSWER_LIMIT // 3 + 1) + b"never read"))
    assert output.take(0.0) == b"{}\n"
    with pytest.raises(_Fault, match=f"wrote more than {ANSWER_LIMIT} bytes nobody asked for"):
        while True:
            output.take(0.0)


def test_an_answer_may_fill_the_limit() -> None:
    output = _Output()
    answer = b'{"action": "' + b"3" * (ANSWER_LIMIT - 15) + b'"}\n'
    output.read(io.BytesIO(answer))
    assert len(answer) == ANSWER_LIMIT and output.take(0.0) == answer and output.take(0.0) is None
    output = _Output()
    output.read(io.BytesIO(b"3" + answer))
    with pytest.raises(_Fault, match=f"wrote a line longer than the answer limit of {ANSWER_LIMIT} bytes"):
        output.take(0.0)


def test_the_process_plays_game_after_game_each_start_carrying_that_games_seed(tmp_path: Path) -> None:
    log = tmp_path / "messages.jsonl"
    agent = ExternalAgent(command(RANDOM_BOT, "--log", log), timeout=5, seed=41)
    pids = []
    try:
        for seed in (41, 42):
            agent.seed = seed
            play_game(GAME, [agent, RandomAgent(1), RandomAgent(2)], seed)
            assert agent._program is not None
            pids.append(agent._program.process.pid)
    finally:
        agent.close()
    assert pids[0] == pids[1]
    assert [m["seed"] for m in read_log(log) if m["type"] == "start"] == [41, 42]


def test_answers_compare_as_json_values_so_true_is_not_bid_one() -> None:
    state = GAME.new_state(4, DouDizhuRules(mode="full"))
    seat = state.current_player
    rules_json = state.to_record()["rules"]
    strict = ExternalAgent(command(FAULTY_BOT, "answer", '{"action": true}'), timeout=1)
    lenient = ExternalAgent(command(FAULTY_BOT, "answer", '{"action": 1, "note": "extra keys are fine"}'), timeout=1)
    try:
        strict.begin("doudizhu", seat, rules_json)
        with pytest.raises(AgentError, match=r"act request \(phase 'bid', move 1.*not in legal.*'true'"):
            strict.act(state.observation(seat), state.legal_actions())
        lenient.begin("doudizhu", seat, rules_json)
        choice = lenient.act(state.observation(seat), state.legal_actions())
    finally:
        strict.close()
        lenient.close()
    assert choice == 1 and type(choice) is int


def test_a_program_gone_before_end_is_a_fault_with_its_exit_code() -> None:
    agent = ExternalAgent(command(FAULTY_BOT, "quit", "5"), timeout=1)
    agent.begin("doudizhu", 2, {"mode": "research"})
    try:
        with pytest.raises(AgentError) as caught:
            for _ in range(100):  # until the program has read ``start`` and exited
                agent.finish({"payoffs": [2.0, -1.0, -1.0]})
                time.sleep(0.05)
    finally:
        agent.close()
    assert caught.value.seat == 2
    assert "end request after start #1: the program closed its input" in str(caught.value)
    assert "exited with code 5" in str(caught.value)


def test_a_program_that_cannot_start_is_a_fault_at_start() -> None:
    agent = ExternalAgent("/nonexistent/paiju-bot --fast", timeout=1)
    with pytest.raises(AgentError, match=r"start request #1 \(game 'doudizhu'\): the program could not be started"):
        agent.begin("doudizhu", 1, {})
    with pytest.raises(AgentError, match=r"no process to ask \(the process was stopped after: start request #1"):
        agent.act(GAME.new_state(0).observation(1), GAME.new_state(0).legal_actions())


def test_act_before_begin_is_a_fault() -> None:
    state = GAME.new_state(0)
    with pytest.raises(AgentError, match=r"no process to ask \(no game has begun\)"):
        ExternalAgent(command(RANDOM_BOT)).act(state.observation(0), state.legal_actions())


def test_close_stops_the_process_is_safe_twice_and_begin_restarts_it() -> None:
    agent = ExternalAgent(command(RANDOM_BOT), timeout=5)
    agent.close()
    agent.begin("doudizhu", 0, {"mode": "research"})
    assert agent.running
    agent.close()
    agent.close()
    assert not agent.running
    agent.begin("doudizhu", 0, {"mode": "research"})
    state = GAME.new_state(1)
    try:
        assert agent.act(state.observation(0), state.legal_actions()) in state.legal_actions()
    finally:
        agent.close()


def test_the_time_limit_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAIJU_EXT_TIMEOUT", raising=False)
    assert ExternalAgent("bot").timeout == 10.0
    monkeypatch.setenv("PAIJU_EXT_TIMEOUT", "0.25")
    assert ExternalAgent("bot").timeout == 0.25
    assert ExternalAgent("bot", timeout=3).timeout == 3
    monkeypatch.setenv("PAIJU_EXT_TIMEOUT", "soon")
    with pytest.raises(PaijuError, match="PAIJU_EXT_TIMEOUT must be a number of seconds, got 'soon'"):
        ExternalAgent("bot")


@pytest.mark.parametrize(("spec", "problem"), [
    ("   ", "needs a command"),
    ("python 'unclosed", "cannot split"),
])
def test_bad_commands_are_refused_when_built(spec: str, problem: str) -> None:
    with pytest.raises(PaijuError, match=problem):
        ExternalAgent(spec)


@pytest.mark.parametrize("timeout", [0.0, -1.0, float("inf"), float("nan")])
def test_the_time_limit_must_be_positive_and_finite(timeout: float) -> None:
    with pytest.raises(PaijuError, match="positive number of seconds"):
        ExternalAgent("bot", timeout=timeout)
