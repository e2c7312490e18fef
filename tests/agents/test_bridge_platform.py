"""``paiju connect --platform``: paiju GuanDan agents as clients of a competition platform server (paiju's own,
``/game/{name}``), each seeing the observation the server's game gives its seat, playing whole matches."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest
import typer
from tests.serve import conftest as live
from typer.testing import CliRunner

import paiju.agents
from paiju import load_game, make_agent
from paiju.agents.bridge import BridgeError, PlatformSeat, run_platform_bot
from paiju.agents.bridge_cli import connect
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.serve.store import GameStore

arena_settings, arena_url = live.arena_settings, live.arena_url
"""The live arena's fixtures (``tests/serve/conftest.py``)."""

AGENTS = ["rules", "random", "dmc", "rules"]
"""The agent of each client, in the order they connect (the last through the command line)."""


class Recorder(Agent):
    """An agent that plays as ``inner`` and keeps every observation, legal list and choice it was given."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.decisions: list[tuple[Any, list[Any], Any]] = []

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        choice = self.inner.act(observation, legal)
        self.decisions.append((observation, list(legal), choice))
        return choice


@pytest.fixture
def recorders(monkeypatch) -> list[Recorder]:
    """The agents ``recorder:SPEC`` (``SPEC`` recorded) made so far, in order."""
    made: list[Recorder] = []

    def factory(argument: str, seed: int) -> Recorder:
        made.append(Recorder(make_agent(argument, "guandan", seed)))
        return made[-1]

    paiju.agents.agent_names("guandan")
    monkeypatch.setitem(paiju.agents._FACTORIES, ("guandan", "recorder"), factory)
    return made


def platform_url(arena_url: str, name: str) -> str:
    return f"ws{arena_url.removeprefix('http')}/game/{name}"


def connect_command() -> typer.Typer:
    app = typer.Typer()
    app.command()(connect)
    return app


@pytest.mark.parametrize("arena_settings", [{"platform_games": 2}], indirect=True)
def test_four_paiju_clients_play_a_platform_match_each_seeing_its_seats_observation(arena_url, arena_settings,
                                                                                    recorders):
    urls = [platform_url(arena_url, f"client{number}") for number in range(4)]
    matches: list[Any] = []

    async def first_three() -> None:
        tasks = []
        for number in range(3):
            tasks.append(asyncio.create_task(run_platform_bot(urls[number], f"recorder:{AGENTS[number]}", number)))
            while len(recorders) <= number:  # connected and seated in this order
                await asyncio.sleep(0.01)
        matches.extend(await asyncio.gather(*tasks))

    clients = threading.Thread(target=asyncio.run, args=(first_three(),))
    clients.start()
    while len(recorders) < 3:
        clients.join(0.01)
    done = CliRunner().invoke(connect_command(), ["--platform", urls[3], "--agent", f"recorder:{AGENTS[3]}",
                                                  "--seed", "3"])
    clients.join(60)

    assert done.exit_code == 0, done.output
    last = json.loads(done.output)
    assert [match.seat for match in matches] == [0, 1, 2] and last["seat"] == 3
    assert all((match.victories, match.draws) == (last["victoryNum"], last["draws"]) for match in matches)
    assert sum(last["victoryNum"][:2]) == 2 and last["draws"] == [0] * 4
    store = GameStore(arena_settings.db_path)
    listings = list(reversed(store.list_finished(10)))
    assert [listing["seats"] for listing in listings] == [[f"platform:client{seat}#{seat}" for seat in range(4)]] * 2
    decisions = [iter(recorder.decisions) for recorder in recorders]
    game = load_game("guandan")
    replayed = [0, 0, 0, 0]
    for listing in listings:
        state = game.opening_state(store.get_record(listing["record_id"]))
        for seat, value in store.get_record(listing["record_id"])["actions"]:
            observation, legal, choice = next(decisions[seat])
            assert observation == dataclasses.replace(state.observation(seat), a_failures=(0, 0), team_scores=(0, 0))
            assert legal == state.legal_actions() and game.action_to_json(choice) == value
            state.apply(state.action_from_json(value), seat=seat)
            replayed[seat] += 1
        assert state.is_terminal() and state.deal_number >= 1
    assert all(next(remaining, None) is None for remaining in decisions)
    assert min(replayed) > 0


def test_the_command_takes_one_of_an_arena_seat_a_platform_server_or_a_ladder():
    for arguments in (["--agent", "rules"], ["ws://127.0.0.1:9/ws/tables/t?token=x", "--platform",
                                             "ws://127.0.0.1:9/game/a", "--agent", "rules"],
                      ["--platform", "ws://127.0.0.1:9/game/a", "--ladder", "ws://127.0.0.1:9/ws/ladder",
                       "--agent", "rules"]):
        done = CliRunner().invoke(connect_command(), arguments)
        assert done.exit_code == 2 and "give one of URL (an arena seat), --platform URL" in done.output


def test_a_platform_that_refuses_the_client_is_reported(arena_url):
    with pytest.raises(PaijuError, match=r"the platform closed the connection with code 1008 before the match ended"):
        asyncio.run(run_platform_bot(platform_url(arena_url, "odd") + "?seed=twelve", "random"))


def test_no_platform_server_is_reported():
    with pytest.raises(PaijuError, match=r"cannot connect to the platform at ws://127\.0\.0\.1:9/game/a"):
        asyncio.run(run_platform_bot("ws://127.0.0.1:9/game/a", "random"))


BEGINNING = {"type": "notify", "stage": "beginning", "handCards": [], "myPos": 1}


@pytest.mark.parametrize(("messages", "problem"), [
    ([{"type": "deal"}], "unknown platform message type 'deal'"),
    ([{"type": "notify", "stage": "shuffle"}], "unknown notify stage 'shuffle'"),
    ([{"type": "act", "actionList": []}], "act message before any beginning"),
    ([{**BEGINNING, "myPos": "1"}], "'myPos' must be an integer"),
    ([BEGINNING, {"type": "notify", "stage": "play", "curPos": 7, "curAction": ["Single", "5", ["S5"]]}],
     "expected a seat 0-3 and an action"),
    ([BEGINNING, {"type": "notify", "stage": "tribute", "result": [[0, 3]]}], "a gift is [giver, receiver, card]"),
    ([BEGINNING, {"type": "notify", "stage": "episodeOver", "order": ["0", 1, 2, 3]}], "'order' must list seats"),
    ([BEGINNING, {"type": "act", "stage": "play", "actionList": [], "greaterPos": -1, "publicInfo": [{}]}],
     "'publicInfo' must list four objects"),
])
def test_platform_messages_the_client_cannot_read_are_refused_naming_the_problem(messages, problem):
    seat = PlatformSeat(make_agent("random", "guandan"))
    with pytest.raises(BridgeError, match=problem.replace("[", r"\[")):
        for message in messages:
            seat.handle(message)
