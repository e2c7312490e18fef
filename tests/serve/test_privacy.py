"""Hidden information stays hidden: every seat's client is sent its own observation and nothing more.

Full games of every game, every seat a websocket client: each ``update`` and ``act`` a seat receives must
carry exactly the engine's observation of that seat at that position (checked by replaying the stored
record), its ``hand`` must be that seat's true hand (from the perfect view), and no message may hold a
``hands`` field or another seat's token.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest

from paiju import load_game

GAMES = [("doudizhu", {"mode": "full"}), ("guandan", {"rounds": 2}), ("gongzhu", None)]
PHASES = {"doudizhu": {"bid", "play"}, "guandan": {"play", "tribute", "back"}, "gongzhu": {"play"}}
"""Phases the games below pass through (so that every kind of decision is checked)."""


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in keys_anywhere(item)}
    if isinstance(value, list):
        return {key for item in value for key in keys_anywhere(item)}
    return set()


def cards(hand: str | list[str]) -> Counter[str]:
    return Counter(hand)


@pytest.mark.parametrize(("game_name", "rules"), GAMES)
def test_each_seat_sees_only_its_own_hand(arena, seat_policy, game_name, rules):
    game = load_game(game_name)
    table = arena.create_table(game_name, ["human"] * game.num_players, seed=77, rules=rules)
    tokens = [seat["token"] for seat in table["seats"]]

    async def play() -> list[list[dict]]:
        clients = await arena.connect_humans(table)
        await asyncio.gather(*(client.play(seat_policy(seat)) for seat, client in clients.items()))
        for client in clients.values():
            await client.close()
        return [clients[seat].received for seat in range(game.num_players)]

    received = asyncio.run(play())
    end = received[0][-1]
    record = arena.record(end["record_id"])
    assert len(record["actions"]) > 20

    positions = [game.new_state(record["seed"], game.rules_from_json(record["rules"]))]
    for seat, value in record["actions"]:
        state = positions[-1].clone()
        state.apply(state.action_from_json(value), seat=seat)
        positions.append(state)
    assert {state.phase for state in positions} >= PHASES[game_name]

    for seat, messages in enumerate(received):
        text = json.dumps(messages)
        assert "hands" not in set().union(*(keys_anywhere(message) for message in messages))
        assert all(token not in text for other, token in enumerate(tokens) if other != seat)
        updates = [message for message in messages if message["type"] == "update"]
        assert len(updates) == len(positions)
        acts = iter(message for message in messages if message["type"] == "act")
        for state, update in zip(positions, updates, strict=True):
            obs = state.observation(seat).to_json()
            assert update["obs"] == obs and update["seat"] == seat
            assert cards(obs["hand"]) == cards(state.perfect_view()["hands"][seat])
            if state.current_player == seat:
                act = next(acts)
                assert act["obs"] == obs
                assert act["legal"] == [game.action_to_json(action) for action in state.legal_actions()]
        assert next(acts, None) is None


def test_the_lobby_shows_no_tokens(arena):
    table = arena.create_table("gongzhu", ["human", "open", "human", "random"])
    reserved = arena.http.post(f"/api/tables/{table['table_id']}/seats/1").json()["token"]
    lobby = arena.http.get("/api/tables").text
    for token in [reserved] + [seat["token"] for seat in table["seats"] if "token" in seat]:
        assert token not in lobby
    assert "token" not in lobby
