"""The move-by-move account of a record, built from the core interface alone."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju
import paiju.core.replay
import paiju.games.guandan
from paiju.core.errors import RecordError
from paiju.core.game import State
from paiju.core.record import RECORD_FORMAT
from paiju.core.replay import replay_lines
from paiju.games.doudizhu import DouDizhuRules, format_cards, parse_cards
from paiju.records.deeprocket_text import load_deeprocket_file

GAME = paiju.load_game("doudizhu")
FULL = DouDizhuRules(mode="full")
DATA = Path(__file__).parents[1] / "data"


def _random_game(seed: int, rules: DouDizhuRules, steps: int | None = None) -> State:
    state = GAME.new_state(seed, rules)
    rng = random.Random(seed)
    while not state.is_terminal() and steps != 0:
        state.apply(rng.choice(state.legal_actions()))
        steps = None if steps is None else steps - 1
    return state


def _action_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line[:4].strip().isdigit()]


def test_research_game_account() -> None:
    state = _random_game(11, DouDizhuRules())
    record = state.to_record()
    lines = replay_lines(record)
    assert lines[:3] == ["game: doudizhu", "seed: 11", f"rules: {json.dumps(record['rules'])}"]
    hands = record["deals"][0]["hands"]
    landlord_hand = format_cards(parse_cards(hands[0] + record["deals"][0]["public"]))  # research: 20 cards at once
    assert lines[3:7] == ["deal 0:", f"  seat 0: {landlord_hand}", f"  seat 1: {hands[1]}", f"  seat 2: {hands[2]}"]
    assert f"  public: {record['deals'][0]['public']}" in lines
    actions = _action_lines(lines)
    assert len(actions) == len(record["actions"])
    for line, (seat, value) in zip(actions, record["actions"], strict=True):
        position = ("landlord", "down", "up")[seat]
        assert line.split() == [line.split()[0], "play", "seat", str(seat), position, value or "pass"]
    assert "pass" in " ".join(actions)
    footer = lines[lines.index("result:"):]
    assert footer[1] == f"  payoffs: {json.dumps(state.payoffs())}"
    assert f"  winner: {state.result()['winner']}" in footer


def test_redeal_starts_a_new_deal_header() -> None:
    state = next(s for s in (_random_game(seed, FULL) for seed in range(100)) if s.deal_number > 0)
    lines = replay_lines(state.to_record())
    deal_headers = [line for line in lines if line.startswith("deal ")]
    assert deal_headers == [f"deal {n}:" for n in range(state.deal_number + 1)]
    second = lines.index("deal 1:")
    assert lines[second + 1] == f"  seat 0: {state.to_record()['deals'][1]['hands'][0]}"
    assert [line.split()[1] for line in _action_lines(lines)[:3]] == ["bid", "bid", "bid"]


def test_unfinished_game_says_who_is_to_act() -> None:
    state = _random_game(12, FULL, steps=5)
    lines = replay_lines(state.to_record())
    assert lines[-1] == f"unfinished: seat {state.current_player} to act ({state.phase})"
    assert len(_action_lines(lines)) == 5


def test_deeprocket_game_account() -> None:
    lines = replay_lines(load_deeprocket_file(DATA / "deeprocket_example.txt").to_record())
    actions = _action_lines(lines)
    assert actions[0].split()[1:] == ["play", "seat", "0", "landlord", "33"]
    assert actions[-1].split()[1:] == ["play", "seat", "2", "up", "5"]
    assert "  winner: peasants" in lines


def test_bad_record_raises_record_error() -> None:
    record = _random_game(13, DouDizhuRules()).to_record()
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay_lines({**record, "game": "chess"})
    with pytest.raises(RecordError, match="action 1"):
        replay_lines({**record, "actions": [record["actions"][0], [1, "RR"], *record["actions"][2:]]})


def test_replay_imports_no_specific_game() -> None:
    tree = ast.parse(Path(paiju.core.replay.__file__).read_text())
    modules = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    modules += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert modules and not [m for m in modules if m.startswith("paiju.games")]


def test_multi_round_guandan_record_replays_round_by_round() -> None:
    from paiju.games.guandan.rules import GuanDanRules

    guandan = paiju.load_game("guandan")
    state, rng = guandan.new_state(3, GuanDanRules(rounds=2)), random.Random(3)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    lines = replay_lines(record)
    assert [line for line in lines if line.startswith("deal ")] == ["deal 0:", "deal 1:"]
    assert len([line for line in lines if line[:4].strip().isdigit()]) == len(record["actions"])
    opening = guandan.opening_state(record)
    assert opening.deal_number == 0 and not opening.to_record()["actions"]


def _finished(name: str, seed: int, rules: object = None) -> dict:
    game = paiju.load_game(name)
    state, rng = game.new_state(seed, rules), random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.to_record()


RECORDS = [_finished("doudizhu", 21), _finished("doudizhu", 22, FULL), _finished("gongzhu", 23),
           _finished("guandan", 24, paiju.games.guandan.GuanDanRules(rounds=1))]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8)


@st.composite
def mutated_records(draw: st.DrawFn) -> dict:
    """A finished game's record with one part (a field, an entry of a list, a field of an entry) replaced by any
    JSON, or a field removed."""
    record = json.loads(json.dumps(draw(st.sampled_from(RECORDS))))
    key = draw(st.sampled_from([*record, "start"]))
    part = draw(st.sampled_from(["replace", "remove", "entry", "field"]))
    if part == "remove":
        record.pop(key, None)
    elif part in ("entry", "field") and isinstance(record.get(key), list) and record[key]:
        index = draw(st.integers(0, len(record[key]) - 1))
        entry = record[key][index]
        if part == "field" and isinstance(entry, list) and entry:
            entry[draw(st.integers(0, len(entry) - 1))] = draw(JSON_VALUES)
        elif part == "field" and isinstance(entry, dict) and entry:
            entry[draw(st.sampled_from(sorted(entry)))] = draw(JSON_VALUES)
        else:
            record[key][index] = draw(JSON_VALUES)
    else:
        record[key] = draw(JSON_VALUES)
    return record


@settings(max_examples=300, deadline=None)
@given(mutated_records())
def test_a_mutated_record_replays_or_raises_record_error(record: dict) -> None:
    try:
        lines = replay_lines(record)
    except RecordError as error:
        assert str(error) and "\n" not in str(error)
    else:
        assert lines[0] == f"game: {record['game']}"


@pytest.mark.parametrize(("change", "problem"), [
    ({"format": ...}, 'not a paiju record: expected "format": 1 (paiju\'s record format), got none'),
    ({"format": None}, 'not a paiju record: expected "format": 1 (paiju\'s record format), got null'),
    ({"format": 2}, 'expected "format": 1 (paiju\'s record format), got 2'),
    ({"format": True}, 'expected "format": 1 (paiju\'s record format), got true'),
    ({"seed": 2**128}, "the seed is an integer from 0 to 2**128 - 1 or null, "
                       "got 340282366920938463463374607431768211456"),
    ({"seed": -1}, "the seed is an integer from 0 to 2**128 - 1 or null, got -1"),
    ({"seed": "5"}, "the seed is an integer from 0 to 2**128 - 1 or null, got \"5\""),
    ({"deals": {"hands": []}}, '"deals" is a list, got {"hands": []}'),
    ({"actions": [[0]]}, "action 0 is [seat, action] with an integer seat, got [0]"),
    ({"actions": [["0", "3"]]}, 'action 0 is [seat, action] with an integer seat, got ["0", "3"]'),
    ({"actions": [[0, ["3"]]]}, 'action 0 ([0, ["3"]]) does not replay: a play is a string of rank letters'),
])
def test_a_bad_header_or_action_is_named(change: dict, problem: str) -> None:
    """``...`` removes the field."""
    record = {key: value for key, value in {**_random_game(13, DouDizhuRules()).to_record(), **change}.items()
              if value is not ...}
    with pytest.raises(RecordError) as caught:
        replay_lines(record)
    assert problem in str(caught.value)


def test_records_of_every_game_are_in_paiju_format() -> None:
    assert {record["format"] for record in RECORDS} == {RECORD_FORMAT}


def test_a_record_dealt_from_128_random_bits_replays() -> None:
    state = paiju.load_game("gongzhu").new_state(2**128 - 1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert replay_lines(state.to_record())
