"""The GuanDan competition platform endpoint ``/game/{name}``, end to end: four scripted ``websockets``
clients against the live arena (``conftest.arena_url``)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import itertools
import json
import os
import random
import socket
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from paiju import load_game
from paiju.games.guandan import GuanDanState, format_cards, parse_cards
from paiju.serve import platform
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
    ("[" * 100_000, "nested too deeply"),
    ('{"actIndex": ' + "9" * 5000 + "}", "too many digits"),
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
            check_act_types(message)
            assert message["handCards"] == format_cards(parse_cards(message["handCards"]))
            assert Counter(message["handCards"]) == +hand
            assert message["indexRange"] == len(message["actionList"]) - 1
            if message["stage"] in GIFT_STAGES:
                assert {action[0] for action in message["actionList"]} == {message["stage"]}
            if message["greaterPos"] == -1:  # a lead (or a gift): no trick in progress
                assert (message["curPos"], message["curAction"], message["greaterAction"]) == (-1, None, None)
                assert all(info["playArea"] is None for info in message["publicInfo"])
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


def check_act_types(act: dict[str, Any]) -> None:
    """The JSON types of the spec's ``act`` example: ranks as strings, positions as integers (``-1`` for none),
    actions as ``[type, rank, cards]`` lists or ``null``, ``publicInfo`` four ``{"rest", "playArea"}``."""
    assert all(isinstance(act[key], str) for key in ("stage", "selfRank", "oppoRank", "curRank"))
    assert all(type(act[key]) is int and -1 <= act[key] <= 3 for key in ("curPos", "greaterPos"))
    for position, action in (("curPos", "curAction"), ("greaterPos", "greaterAction")):
        assert (act[position] == -1) == (act[action] is None)
        assert act[action] is None or (isinstance(act[action], list) and len(act[action]) == 3)
    assert len(act["publicInfo"]) == 4
    for info in act["publicInfo"]:
        assert set(info) == {"rest", "playArea"} and type(info["rest"]) is int
        assert info["playArea"] is None or (isinstance(info["playArea"], list) and len(info["playArea"]) == 3)
    assert all(isinstance(action, list) and len(action) == 3 for action in act["actionList"])
    assert type(act["indexRange"]) is int


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
        assert record["seed"] == platform.game_seed(11, number) != 11 + number
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


def test_a_client_that_leaves_before_the_match_gives_up_its_place(arena_url, arena_settings):
    names = ["first", "second", "third", "fourth"]

    async def scenario() -> list[PlatformBot]:
        first = await PlatformBot.connect(platform_url(arena_url, names[0]))
        quitter = await PlatformBot.connect(platform_url(arena_url, "quitter"))
        await quitter.connection.close()
        await asyncio.sleep(0.2)  # the server sees the close before the next client connects
        bots = [first, *[await PlatformBot.connect(platform_url(arena_url, name)) for name in names[1:]]]
        await play_match(bots, [random_chooser(seat) for seat in range(4)])
        return bots

    bots = run(scenario())

    for seat, bot in enumerate(bots):
        assert bot.received[0]["stage"] == "beginning" and bot.received[0]["myPos"] == seat
        assert bot.notices("gameResult")
    [(listing, _)] = stored_games(arena_settings)
    assert listing["seats"] == [f"platform:{name}#{seat}" for seat, name in enumerate(names)]


def test_clients_under_different_names_are_matched_in_connection_order(arena_url, arena_settings):
    async def scenario() -> list[PlatformBot]:
        bots = [await PlatformBot.connect(platform_url(arena_url, f"client{seat}")) for seat in range(4)]
        await play_match(bots, [random_chooser(seat) for seat in range(4)])
        return bots

    bots = run(scenario())

    for seat, bot in enumerate(bots):
        assert bot.received[0]["stage"] == "beginning" and bot.received[0]["myPos"] == seat
        check_own_hand_only(bot, seat)
        assert bot.public_notices() == bots[0].public_notices()
    [(listing, record)] = stored_games(arena_settings)
    assert listing["seats"] == [f"platform:client{seat}#{seat}" for seat in range(4)]
    check_record_matches_notices(record, bots[0].public_notices())


@pytest.mark.parametrize("arena_settings", [{"platform_group_by_name": True}], indirect=True)
def test_grouped_by_name_only_clients_of_one_name_are_matched(arena_url, arena_settings):
    names = ("east", "west")

    async def scenario() -> dict[str, list[PlatformBot]]:
        groups: dict[str, list[PlatformBot]] = {name: [] for name in names}
        for _ in range(4):
            for name in names:
                groups[name].append(await PlatformBot.connect(platform_url(arena_url, name)))
        await asyncio.gather(*(play_match(group, [random_chooser(seat) for seat in range(4)])
                               for group in groups.values()))
        return groups

    groups = run(scenario())

    for group in groups.values():
        for seat, bot in enumerate(group):
            assert bot.received[0]["myPos"] == seat and bot.notices("gameResult")
            assert bot.public_notices() == group[0].public_notices()
    assert sorted(listing["seats"] for listing, _ in stored_games(arena_settings)) == [
        [f"platform:{name}#{seat}" for seat in range(4)] for name in names]


@pytest.mark.parametrize("arena_settings", [{"platform_group_by_name": True}], indirect=True)
def test_clients_beyond_the_waiting_limit_are_refused_until_places_free_up(arena_url, monkeypatch):
    monkeypatch.setattr(platform, "MAX_WAITING", 3)

    async def refusal(name: str) -> tuple[dict[str, Any], int | None]:
        bot = await PlatformBot.connect(platform_url(arena_url, name))
        message = await bot.receive()
        with pytest.raises(websockets.ConnectionClosed):
            await bot.receive()
        return message, bot.connection.close_code

    async def scenario() -> tuple[tuple[dict[str, Any], int | None], list[PlatformBot], PlatformBot]:
        north = [await PlatformBot.connect(platform_url(arena_url, "north")) for _ in range(3)]
        refused = await refusal("south")
        north.append(await PlatformBot.connect(platform_url(arena_url, "north")))  # it completes a match
        south = await PlatformBot.connect(platform_url(arena_url, "south"))  # nobody waits now
        await play_match(north, [random_chooser(seat) for seat in range(4)])
        with pytest.raises(TimeoutError):  # admitted: it waits for three more clients
            await asyncio.wait_for(south.connection.recv(), 0.3)
        await south.connection.close()
        return refused, north

    (message, code), north = run(scenario())

    assert message == messages.error("too many clients are waiting for a match (3); try again later")
    assert code == 1013
    assert all(bot.notices("gameResult") for bot in north)


@pytest.mark.parametrize("arena_settings", [{"platform_games": 3}], indirect=True)
def test_each_game_of_a_match_is_dealt_from_its_own_unpredictable_seed(arena_url, arena_settings):
    bots = run(_connect_and_play(platform_url(arena_url, "fresh"), [random_chooser(seat) for seat in range(4)]))

    games = stored_games(arena_settings)
    seeds = [record["seed"] for _, record in games]
    assert len(seeds) == 3
    # 128 random bits each: a seed below 2**64, or two within 2**64 of each other, once in 2**63 matches.
    assert all(2**64 <= seed < 2**128 for seed in seeds)
    assert all(abs(one - other) > 2**64 for one, other in itertools.combinations(seeds, 2))
    for (_, record), notices in zip(games, split_by_game(bots[0].public_notices()), strict=True):
        check_record_matches_notices(record, notices)


def test_seeds_asked_for_are_hashed_with_the_game_number() -> None:
    seeds = [platform.game_seed(11, number) for number in range(3)]
    assert seeds == [int.from_bytes(hashlib.sha256(f"paiju platform 11 {number}".encode()).digest()[:16], "big")
                     for number in range(3)]
    assert platform.game_seed(12, 0) not in seeds
    assert platform.game_seed(None, 0) != platform.game_seed(None, 0)


class StuckClient:
    """A platform client that completes the websocket handshake and then never reads. Its receive buffer and
    segment size are made small before it connects (the server sizes its send buffer by the segment size), so
    that the server's sends block after some kilobytes."""

    def __init__(self, url: str) -> None:
        address = urllib.parse.urlsplit(url)
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        self.socket.connect((address.hostname, address.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(f"GET {address.path} HTTP/1.1\r\nHost: {address.netloc}\r\nUpgrade: websocket\r\n"
                            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                            "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        response = b""
        while not response.endswith(b"\r\n\r\n"):  # the handshake alone, byte by byte
            response += self.socket.recv(1)
        assert response.startswith(b"HTTP/1.1 101")

    def close(self) -> None:
        self.socket.close()


@pytest.mark.parametrize("arena_settings", [{"send_timeout": 0.5, "move_timeout": 0.1}], indirect=True)
def test_a_client_that_stops_reading_is_dropped_and_its_match_finishes(arena_url, arena_settings):
    stuck = StuckClient(platform_url(arena_url, "stuck"))

    async def scenario() -> list[PlatformBot]:
        bots = [await PlatformBot.connect(platform_url(arena_url, f"reader{seat}")) for seat in (1, 2, 3)]
        await asyncio.gather(*(bot.play(random_chooser(seat)) for seat, bot in enumerate(bots, 1)))
        return bots

    try:
        bots = run(scenario())
    finally:
        stuck.close()

    assert all(bot.notices("gameResult") for bot in bots)
    [(listing, record)] = stored_games(arena_settings)
    assert listing["seats"][0] == "platform:stuck#0"
    state = load_game("guandan").new_state(record["seed"])
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        if seat == 0:
            legal = state.legal_actions()
            assert action == legal[messages.default_index(legal)]
        state.apply(action, seat)
    assert state.is_terminal()


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
