"""A table's observation texts (``paiju.serve.table_texts``) and the shared observations they encode
(``State.observation_json``) stay what a from-scratch build gives: at every position of random games of every game,
across DouDizhu redeals and GuanDan rounds with sealed tributes and returns, for a seat encoded at every move, a
seat whose encoder starts fresh (a reconnect) and a clone that plays on differently; ``protocol.encode`` spells an
``Encoded`` value in place; and an item's text is reused only for the very same object."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from paiju import load_game
from paiju.core.game import State
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.gongzhu.rules import GongzhuRules
from paiju.games.guandan import GuanDanRules
from paiju.serve.protocol import Encoded, encode, encode_value
from paiju.serve.table_texts import ObservationEncoder, TableTexts

CASES = [
    pytest.param("doudizhu", DouDizhuRules(mode="full", redeal_limit=2), 12, {"bid", "play"}, id="doudizhu-full"),
    pytest.param("doudizhu", DouDizhuRules(), 3, {"play"}, id="doudizhu-research"),
    pytest.param("guandan", GuanDanRules(rounds=3), 3, {"tribute", "back", "play"}, id="guandan-rounds"),
    pytest.param("gongzhu", GongzhuRules(), 3, {"play"}, id="gongzhu"),
]
"""(game, rules, games played at random, phases the games must reach)."""


def scratch(state: State, seat: int) -> str:
    """What the server sent before texts were cached: the observation built and encoded whole."""
    return json.dumps(state.observation(seat).to_json(), separators=(",", ":"))


def check_position(state: State, texts: TableTexts) -> None:
    for seat in range(state.num_players):
        assert texts.observation(seat) == scratch(state, seat)
        assert json.dumps(state.observation_json(seat), separators=(",", ":")) == scratch(state, seat)


@pytest.mark.parametrize(("name", "rules", "games", "phases"), CASES)
def test_every_text_is_the_observation_encoded_from_scratch(name: str, rules: Any, games: int, phases: set[str]):
    game, seen = load_game(name), set()
    for seed in range(games):
        state, rng = game.new_state(seed, rules), random.Random(seed)
        texts, deals = TableTexts(state), set()
        moves = 0
        while True:
            seen.add(state.phase)
            deals.add(state.deal_number)
            check_position(state, texts)
            if moves % 9 == 4:  # a reconnect after a while: a fresh encoder, every seat from scratch
                check_position(state, TableTexts(state))
            if moves % 13 == 6:  # a clone plays on differently; neither disturbs the other's shared entries
                other = state.clone()
                for _ in range(3):
                    if other.current_player is not None:
                        other.apply(rng.choice(other.legal_actions()))
                check_position(other, TableTexts(other))
            if state.current_player is None:
                break
            legal = state.legal_actions()
            # The table matches an answer to these by Python equality first: they must be plain JSON.
            assert all(json.loads(json.dumps(value)) == value for value in map(game.action_to_json, legal))
            state.apply(rng.choice(legal))
            texts.moved()
            moves += 1
        texts.forget()  # the game is over: a reconnect to the ended table is encoded from scratch
        check_position(state, texts)
        assert name != "guandan" or len(deals) == 3
    assert phases <= seen


def test_an_item_s_text_is_reused_only_for_the_very_same_object():
    encoder, shared = ObservationEncoder(), [1, "S2"]
    assert encoder.encode({"h": [shared, [1]], "n": 1}) == '{"h":[[1,"S2"],[1]],"n":1}'
    assert encoder.encode({"h": [shared, [True], [3.0]], "n": True}) == '{"h":[[1,"S2"],[true],[3.0]],"n":true}'
    assert encoder.encode({"h": [(1, "S2"), (2, ("x", ()))]}) == '{"h":[[1,"S2"],[2,["x",[]]]]}'
    assert encoder.encode({"h": [[1, "S2"]], "n": 2}) == '{"h":[[1,"S2"]],"n":2}'  # shorter: a new round
    assert encoder.encode({"h": [], "n": 2}) == '{"h":[],"n":2}'
    assert encoder.encode({"h": [{"b": 1, "a": 2}], "n": None}) == '{"h":[{"b":1,"a":2}],"n":null}'


@pytest.mark.parametrize("message", [
    {"v": 1, "obs": Encoded('{"a":[1]}')},
    {"obs": Encoded("[]"), "v": 1, "x": None},
    {"v": 1, "a": "é", "obs": Encoded("{}"), "legal": Encoded('[["Single","3",["S3"]]]'), "deadline": 2.5},
    {"v": 1, "type": "pong"},
    {},
])
def test_encode_spells_an_encoded_value_in_place(message: dict[str, Any]):
    plain = {key: json.loads(value) if isinstance(value, Encoded) else value for key, value in message.items()}
    assert encode(message) == json.dumps(plain, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize("value", [
    {"seat": 2, "name": "庄家", "scores": [0.5, -1.25, 1e-07, 3.0], "none": None, "ok": True},
    [(1, "S2"), (2, ("x", ()))],
    {"packed": 2**70, "cards": [1]},  # beyond 64 bits: the standard encoder writes it
    {1: "a key that is not a string"},
    "plain text",
])
def test_encode_value_reads_back_as_the_value_json_reads(value: Any):
    text = encode_value(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert ", " not in text and '": ' not in text
