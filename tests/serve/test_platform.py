"""The GuanDan competition platform endpoint ``/game/{name}``, end to end: four scripted ``websockets``
clients against the live arena (``conftest.arena_url``)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from paiju import load_game
from paiju.games.guandan import GuanDanState, format_cards, parse_cards
from paiju.serve import platform_messages as messages
from paiju.serve.platform import SERVER_ERROR
from paiju.serve.settings import ServeSettings
from paiju.serve.store import GameStore

MESSAGE_LIMIT = 15.0
"""Seconds a client waits for the server's next message."""
PASS = ["PASS", "PASS", "PASS"]
GIFT_STAGES = ("tribute", "back")
NOTICE_KEYS = {
    "beginning": {"handCards", "myPos"}, "play": {"curPos", "curAction", "greaterPos", "greaterAction"},
    "tribute": {"result"}, "back": {"result"}, "anti-tribute": {"antiNums", "antiPos"},
    "episodeOver": {"order", "curRank", "restCards"}, "gameOver": {"curTimes", "settingTimes"},
    "gameResult": {"victoryNum", "draws"},
}
ACT_KEYS = {"type", "stage", "handCards", "publicInfo", "selfRank", "oppoRank", "curRank", "curPos", "curAction",
            "greaterPos", "greaterAction", "actionList", "indexRange"}
BAD_ANSWERS = [
    ("index 0", "not JSON"),
    ("[0]", "JSON object"),
    ('{"actIndex": 0, "seat": 0}', "unknown keys"),
    ('{"actIndex": -1}', "from 0 to indexRange"),
    ('{"actIndex": true}', "must be an integer"),
    ('{"type": "ping"}', "JSON object"),
]

Chooser = Callable[[dict[str, Any]], int | None]
"""An ``actIndex`` for an ``act`` message, or ``None`` to leave it unanswered."""


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda act: rng.randint(0, act["indexRange"])


def silent_once(chooser: Chooser) -> Chooser:
    """Leave the first act unanswered, then answer with ``chooser``."""
    acts = 0

    def choose(act: dict[str, Any]) -> int | None:
        nonlocal acts
        acts += 1
        return None if acts == 1 else chooser(act)

    return choose


class PlatformBot:
    """A platform client that keeps every message the server sends it, in order."""

    def __init__(self, connection: websockets.ClientConnection) -> None:
        self.connection = connection
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def connect(cls, url: str) -> PlatformBot:
        return cls(await websockets.connect(url, max_size=None))

    async def receive(self) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.connection.recv(), MESSAGE_LIMIT))
        self.received.append(message)
        return message

    async def send(self, text: str) -> None:
        await self.connection.send(text)

    async def play(self, choose: Chooser, leave_after_acts: int | None = None) -> None:
        """Answer acts with ``choose`` until the server closes the connection, or leave after that many acts."""
        acts = 0
        try:
            while True:
                message = await self.receive()
                if message["type"] != "act":
                    continue
                acts += 1
                if acts == leave_after_acts:
                    await self.connection.close()
                    return
                index = choose(message)
                if index is not None:
                    await self.send(json.dumps({"actIndex": index}))
        except websockets.ConnectionClosed:
            return

    def notices(self, *stages: str) -> list[dict[str, Any]]:
        return [message for message in self.received if message["type"] == "notify" and message["stage"] in stages]

    def public_notices(self) -> list[dict[str, Any]]:
        return [message for message in self.received if message["type"] == "notify"
                and message["stage"] != "beginning"]


def platform_url(arena_url: str, name: str, seed: int | None = None) -> str:
    query = "" if seed is None else f"?seed={seed}"
    return f"ws{arena_url.removeprefix('http')}/game/{name}{query}"


async def connect_four(url: str) -> list[PlatformBot]:
    """Four clients, connected one after the other (so seated 0..3)."""
    return [await PlatformBot.connect(url) for _ in range(4)]


async def play_match(bots: list[PlatformBot], choosers: list[Chooser]) -> None:
    await asyncio.gather(*(bot.play(choose) for bot, choose in zip(bots, choosers, strict=True)))


def stored_games(settings: ServeSettings) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(listing, record) of every stored game, oldest first."""
    store = GameStore(settings.db_path)
    return [(game, store.get_record(game["record_id"])) for game in reversed(store.list_finished(100))]


def check_own_hand_only(bot: PlatformBot, seat: int) -> None:
    """Every message has exactly the platform's fields, and the hand each act shows is the seat's own: its
    deal, less what it played and gave, plus what it received."""
    hand: Counter[str] = Counter()
    for message in bot.received:
        if message["type"] == "act":
            assert set(message) == ACT_KEYS
            assert message["handCards"] == format_cards(parse_cards(message["handCards"]))
            assert Counter(message["handCards"]) == +hand
            assert message["indexRange"] == len(message["actionList"]) - 1
            if message["stage"] in GIFT_STAGES:
                assert {action[0] for action in message["actionList"]} == {message["stage"]}
            continue
        assert message["type"] == "notify" and set(message) == {"type", "stage", *NOTICE_KEYS[message["stage"]]}
        stage = message["stage"]
        if stage == "beginning":
            assert message["myPos"] == seat and len(message["handCards"]) == 27
            hand = Counter(message["handCards"])
        elif stage == "play" and message["curPos"] == seat and message["curAction"] != PASS:
            hand.subtract(message["curAction"][2])
        elif stage in GIFT_STAGES:
            for giver, receiver, card in message["result"]:
                hand[card] += (receiver == seat) - (giver == seat)


def split_by_game(notices: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Public notices cut after each ``gameOver``."""
    games: list[list[dict[str, Any]]] = [[]]
    for notice in notices:
        games[-1].append(notice)
        if notice["stage"] == "gameOver":
            games.append([])
    return games[:-1]


def check_record_matches_notices(record: dict[str, Any], notices: list[dict[str, Any]]) -> GuanDanState:
    """The record replays to the end, with the plays, gifts and round orders the clients were told."""
    state = load_game("guandan").from_record(record)
    assert state.is_terminal()
    plays = [(seat, action) for seat, action in record["actions"] if action[0] not in GIFT_STAGES]
    assert plays == [(notice["curPos"], notice["curAction"]) for notice in notices if notice["stage"] == "play"]
    gifts = sorted((seat, action[2][0]) for seat, action in record["actions"] if action[0] in GIFT_STAGES)
    told = sorted((giver, card) for notice in notices if notice["stage"] in GIFT_STAGES
                  for giver, _, card in notice["result"])
    assert gifts == told
    orders = [notice["order"] for notice in notices if notice["stage"] == "episodeOver"]
    assert orders == [summary["order"] for summary in record["result"]["rounds"]]
    return state


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


@pytest.mark.parametrize("arena_settings", [{"platform_games": 2}], indirect=True)
def test_a_match_plays_full_games_to_a_with_tribute_and_back(arena_url, arena_settings):
    bots = run(_connect_and_play(platform_url(arena_url, "duel", seed=11), [random_chooser(k) for k in range(4)]))

    for seat, bot in enumerate(bots):
        check_own_hand_only(bot, seat)
        assert bot.public_notices() == bots[0].public_notices()
    notices = bots[0].public_notices()
    stages = Counter(notice["stage"] for notice in notices)
    assert stages["tribute"] >= 1 and stages["back"] >= 1
    acted = Counter(message["stage"] for bot in bots for message in bot.received if message["type"] == "act")
    assert acted["tribute"] >= 1 and acted["back"] >= 1
    assert [(n["curTimes"], n["settingTimes"]) for n in bots[0].notices("gameOver")] == [(1, 2), (2, 2)]
    assert notices[-1]["stage"] == "gameResult"

    games = stored_games(arena_settings)
    assert len(games) == 2
    winners = []
    for number, ((listing, record), game_notices) in enumerate(zip(games, split_by_game(notices), strict=True)):
        assert listing["game"] == "guandan"
        assert listing["seats"] == [f"platform:duel#{seat}" for seat in range(4)]
        assert record["seed"] == 11 + number
        state = check_record_matches_notices(record, game_notices)
        assert state.result() == listing["result"]
        winners.append(state.winner)
    assert notices[-1] == messages.game_result(winners)


async def _connect_and_play(url: str, choosers: list[Chooser]) -> list[PlatformBot]:
    bots = await connect_four(url)
    await play_match(bots, choosers)
    return bots


def test_bad_answers_are_refused_and_change_nothing(arena_url, arena_settings):
    url = platform_url(arena_url, "careless", seed=5)

    async def scenario() -> tuple[list[PlatformBot], list[dict[str, Any]], int]:
        first = await PlatformBot.connect(url)
        await first.send('{"actIndex": 0}')
        early = await first.receive()
        bots = [first, *[await PlatformBot.connect(url) for _ in range(3)]]
        others = asyncio.gather(*(bot.play(random_chooser(seat)) for seat, bot in enumerate(bots) if seat))
        while (act := await first.receive())["type"] != "act":
            pass
        replies = []
        for text, _ in BAD_ANSWERS:
            await first.send(text)
            replies.append(await first.receive())
        chosen = act["indexRange"]
        await first.send(json.dumps({"actIndex": chosen}))
        await asyncio.gather(first.play(random_chooser(0)), others)
        return bots, [early, *replies], act["actionList"][chosen]

    bots, errors, chosen = run(scenario())

    assert errors[0]["type"] == "error" and "no act is pending" in errors[0]["message"]
    for reply, (_, problem) in zip(errors[1:], BAD_ANSWERS, strict=True):
        assert reply["type"] == "error" and problem in reply["message"]
    own_plays = [notice for notice in bots[0].notices("play") if notice["curPos"] == 0]
    assert own_plays[0]["curAction"] == chosen
    for bot in bots[1:]:
        assert not [message for message in bot.received if message["type"] == "error"]
        assert bot.public_notices() == bots[0].public_notices()
    [(_, record)] = stored_games(arena_settings)
    check_record_matches_notices(record, bots[0].public_notices())


@pytest.mark.parametrize("arena_settings", [{"move_timeout": 0.3}], indirect=True)
def test_a_seat_that_does_not_answer_in_time_plays_the_default_action(arena_url, arena_settings):
    url = platform_url(arena_url, "slow", seed=8)

    async def scenario() -> tuple[list[PlatformBot], float]:
        bots = await connect_four(url)
        started = time.monotonic()
        await play_match(bots, [silent_once(random_chooser(0)), *[random_chooser(seat) for seat in (1, 2, 3)]])
        return bots, time.monotonic() - started

    bots, elapsed = run(scenario())

    silent = bots[0].received
    first_act = next(index for index, message in enumerate(silent) if message["type"] == "act")
    act, after = silent[first_act], silent[first_act + 1]
    default = PASS if PASS in act["actionList"] else act["actionList"][0]
    assert act["stage"] == "play"
    assert after["stage"] == "play" and (after["curPos"], after["curAction"]) == (0, default)
    assert elapsed >= 0.3
    [(_, record)] = stored_games(arena_settings)
    assert record["actions"][[seat for seat, _ in record["actions"]].index(0)] == [0, default]
    check_record_matches_notices(record, bots[0].public_notices())


@pytest.mark.parametrize("arena_settings", [{"move_timeout": 60.0}], indirect=True)
def test_a_client_that_leaves_mid_match_plays_defaults_and_the_match_finishes(arena_url, arena_settings):
    url = platform_url(arena_url, "leaver", seed=9)

    async def scenario() -> list[PlatformBot]:
        bots = await connect_four(url)
        await asyncio.gather(*(bot.play(random_chooser(seat)) for seat, bot in enumerate(bots[:3])),
                             bots[3].play(random_chooser(3), leave_after_acts=1))
        return bots

    bots = run(scenario())

    assert bots[0].notices("gameResult")
    [(_, record)] = stored_games(arena_settings)
    state = load_game("guandan").new_state(record["seed"])
    defaults = 0
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        if seat == 3:
            legal = state.legal_actions()
            assert action == legal[messages.default_index(legal)]
            defaults += 1
        state.apply(action, seat)
    assert defaults > 0 and state.is_terminal()


def test_a_client_that_leaves_before_the_match_gives_up_its_place(arena_url):
    url = platform_url(arena_url, "queue")

    async def scenario() -> list[PlatformBot]:
        quitter = await PlatformBot.connect(url)
        await quitter.connection.close()
        await asyncio.sleep(0.2)  # the server sees the close before the next client connects
        return await _connect_and_play(url, [random_chooser(seat) for seat in range(4)])

    bots = run(scenario())

    for seat, bot in enumerate(bots):
        assert bot.received[0]["stage"] == "beginning" and bot.received[0]["myPos"] == seat
        assert bot.notices("gameResult")


def test_a_malformed_seed_is_refused(arena_url):
    async def scenario() -> tuple[dict[str, Any], int | None]:
        bot = await PlatformBot.connect(platform_url(arena_url, "odd") + "?seed=twelve")
        message = await bot.receive()
        with pytest.raises(websockets.ConnectionClosed):
            await bot.receive()
        return message, bot.connection.close_code

    message, code = run(scenario())

    assert message == {"type": "error", "message": "seed must be an integer, got 'twelve'"}
    assert code == 1008


def test_a_failing_match_does_not_disturb_another(arena_url, arena_settings, monkeypatch):
    add_finished = GameStore.add_finished

    def failing_for_broken(store, game, seats, record, result):
        if seats[0].startswith("platform:broken#"):
            raise OSError("disk full")
        return add_finished(store, game, seats, record, result)

    monkeypatch.setattr(GameStore, "add_finished", failing_for_broken)

    async def scenario() -> tuple[list[PlatformBot], list[PlatformBot]]:
        broken = await connect_four(platform_url(arena_url, "broken"))
        sound = await connect_four(platform_url(arena_url, "sound"))
        await asyncio.gather(play_match(broken, [random_chooser(seat) for seat in range(4)]),
                             play_match(sound, [random_chooser(seat) for seat in range(4)]))
        return broken, sound

    broken, sound = run(scenario())

    for bot in broken:
        assert bot.received[-1] == messages.error(SERVER_ERROR)
        assert "disk full" not in json.dumps(bot.received)
        assert not bot.notices("gameOver", "gameResult")
    for bot in sound:
        assert bot.received[-1]["stage"] == "gameResult"
    [(listing, _)] = stored_games(arena_settings)
    assert listing["seats"][0] == "platform:sound#0"
