"""The agent bridge: paiju agents as external-protocol programs (``paiju bot``) play exactly as themselves, refuse
input they cannot read, and play arena seats over the websocket (``paiju connect``)."""

from __future__ import annotations

import asyncio
import io
import json
import shlex
import subprocess
import sys
from typing import Any

import pytest
import typer
from tests.serve import conftest as live
from typer.testing import CliRunner

import paiju.agents
from paiju import load_game, make_agent
from paiju.agents.bridge import BridgeError, run_arena_bot, run_stdio_bot
from paiju.agents.bridge_cli import connect
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.core.agent import Agent
from paiju.core.errors import AgentError, PaijuError
from paiju.core.match import play_game
from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.guandan import Gift, GuanDanRules

arena_settings, arena_url, arena = live.arena_settings, live.arena_url, live.arena
"""The live arena's fixtures (``tests/serve/conftest.py``)."""

BOT = shlex.join([sys.executable, "-c", "import typer; from paiju.agents.bridge_cli import bot; typer.run(bot)"])
"""``paiju bot`` as a command: the command function run on its own."""


def bot(spec: str, game: str) -> str:
    """The external agent name of ``spec`` played through ``paiju bot`` (seeded from ``PAIJU_AGENT_SEED``)."""
    return f"ext:{BOT} {spec} --game {game}"


def test_a_bridged_agent_evaluates_exactly_as_the_agent_itself():
    reports = [evaluate_doudizhu(DouDizhuEvalConfig(spec, "random", decks=3), progress=False).to_json()
               for spec in ("rules", bot("rules", "doudizhu"))]
    for report in reports:
        del report["config"], report["agents"]["A"]["spec"], report["wall_time_s"]
    assert reports[0] == reports[1]
    assert reports[0]["agents"]["A"]["overall"]["games"] == 6


@pytest.mark.parametrize(("name", "seats", "rules", "seed"), [
    ("doudizhu", ["ext:dmc", "random", "ext:rules"], DouDizhuRules(mode="full"), 4),
    ("guandan", ["ext:rules", "ext:random", "rules", "random"], GuanDanRules(rounds=2), 2),
    ("gongzhu", ["ext:mr-greed", "random", "mr-if", "random"], None, 3),
])
def test_bridged_agents_play_each_game_as_the_agents_themselves(name, seats, rules, seed):
    game = load_game(name)
    finals = []
    for bridged in (True, False):
        agents = [make_agent(bot(spec[4:], name), name) if bridged and spec.startswith("ext:")
                  else make_agent(spec.removeprefix("ext:"), name, 0 if spec.startswith("ext:") else seat)
                  for seat, spec in enumerate(seats)]
        try:
            finals.append(play_game(game, agents, seed, rules))
        finally:
            for agent in agents:
                agent.close()
    assert finals[0].is_terminal() and finals[0].to_record() == finals[1].to_record()
    if name == "guandan":
        assert {seat for seat, action in finals[0].actions if isinstance(action, Gift)} == {0, 1, 2, 3}


def lines(*messages: Any) -> io.BytesIO:
    return io.BytesIO(b"".join((m if isinstance(m, str) else json.dumps(m)).encode() + b"\n" for m in messages))


def act_message(seat: int = 0) -> dict[str, Any]:
    game = load_game("doudizhu")
    state = game.new_state(8)
    return {"v": 1, "type": "act", "game": "doudizhu", "seat": seat, "phase": "play",
            "obs": state.observation(0).to_json(), "legal": [game.action_to_json(a) for a in state.legal_actions()]}


START = {"v": 1, "type": "start", "game": "doudizhu", "seat": 0, "rules": {"mode": "research"}}


def test_the_stdio_bot_answers_each_act_with_a_legal_entry_copied_verbatim():
    answers = io.BytesIO()
    run_stdio_bot("rules", "doudizhu", 0, lines(START, act_message(), "", act_message(),
                                                {"v": 1, "type": "end", "game": "doudizhu", "seat": 0,
                                                 "result": {"payoffs": [2.0, -1.0, -1.0]}}), answers)
    replies = [json.loads(line) for line in answers.getvalue().splitlines()]
    expected = DouDizhuRulesAgent(0).act(load_game("doudizhu").new_state(8).observation(0),
                                         load_game("doudizhu").new_state(8).legal_actions())
    assert replies == [{"action": expected.cards}] * 2


def spoiled_act(change: dict[str, Any]) -> dict[str, Any]:
    return {**act_message(), **change}


@pytest.mark.parametrize(("messages", "problem"), [
    (["{not json"], "line 1: not JSON"),
    ([[START]], "line 1: a message is a JSON object"),
    ([act_message()], "act message before any start"),
    ([{**START, "game": "gongzhu"}], "this seat plays doudizhu, not 'gongzhu'"),
    ([{**START, "v": 2}], 'expected "v": 1'),
    ([{**START, "type": "shuffle"}], "unknown message type 'shuffle'"),
    ([{**START, "rules": {"mode": "blitz"}}], "start message: bad rules: DouDizhu rule option 'mode'"),
    ([START, spoiled_act({"seat": 1})], "act message for seat 1, but this agent plays seat 0"),
    ([START, spoiled_act({"seat": True})], "'seat' must be an integer"),
    ([START, spoiled_act({"legal": []})], '"legal" is empty'),
    ([START, spoiled_act({"obs": {**act_message()["obs"], "hand": 17}})], "doudizhu obs field 'hand'"),
    ([START, spoiled_act({"legal": ["3", "XX"]})], '"legal" entry 1: unknown card'),
])
def test_input_the_stdio_bot_cannot_read_stops_it_without_an_answer(messages, problem):
    answers = io.BytesIO()
    with pytest.raises(BridgeError, match=problem.replace("(", r"\(")):
        run_stdio_bot("rules", "doudizhu", 0, lines(*messages), answers)
    assert answers.getvalue() == b""


def test_paiju_bot_exits_with_code_2_and_one_line_on_stderr_for_bad_input():
    done = subprocess.run([*shlex.split(BOT), "rules", "--game", "doudizhu"], capture_output=True, timeout=60,
                          input=(json.dumps(START) + "\n" + json.dumps(spoiled_act({"phase": 3})) + "\n").encode())
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode().splitlines() == ["error: line 2: act message: 'phase' must be a string, got 3"]


def test_an_agent_choosing_outside_legal_is_a_fault_not_an_answer(monkeypatch):
    paiju.agents.agent_names("doudizhu")
    monkeypatch.setitem(paiju.agents._FACTORIES, ("doudizhu", "stubborn"), lambda argument, seed: Stubborn())
    answers = io.BytesIO()
    with pytest.raises(AgentError, match="chose 'rocket', which is not in legal"):
        run_stdio_bot("stubborn", "doudizhu", 0, lines(START, act_message()), answers)
    assert answers.getvalue() == b""


class Stubborn(Agent):
    def act(self, observation: Any, legal: Any) -> Any:
        return "rocket"


def test_paiju_connect_plays_an_open_arena_seat_to_the_stored_game(arena):
    table = arena.create_table("doudizhu", ["rules", "open", "random"], rules={"mode": "full"})
    token = arena.http.post(f"/api/tables/{table['table_id']}/seats/1").json()["token"]
    app = typer.Typer()
    app.command()(connect)
    done = CliRunner().invoke(app, [arena.socket_url(table["table_id"], token), "--agent", "dmc", "--seed", "5"])
    assert done.exit_code == 0, done.output
    finished = json.loads(done.output)
    record = arena.record(finished["record_id"])
    assert finished["seat"] == 1 and finished["result"] == record["result"]
    [stored] = arena.records()
    assert stored["record_id"] == finished["record_id"] and stored["seats"] == ["rules", "open", "random"]
    game = load_game("doudizhu")
    replay = game.opening_state(record)
    dmc = make_agent("dmc", "doudizhu", 5)
    for seat, action in record["actions"]:
        if seat == 1:
            assert game.action_to_json(dmc.act(replay.observation(1), replay.legal_actions())) == action
        replay.apply(replay.action_from_json(action), seat=seat)
    assert replay.is_terminal() and any(seat == 1 for seat, _ in record["actions"])


def test_a_seat_url_that_opens_no_seat_is_reported(arena):
    table = arena.create_table("gongzhu", ["open", "random", "random", "random"])
    with pytest.raises(PaijuError, match=r"closed the connection with code 1008 \(this token opens no seat here\)"):
        asyncio.run(run_arena_bot(arena.socket_url(table["table_id"], "wrong"), "mr-if"))
