"""The move-by-move account of a record, built from the core interface alone."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

import paiju
import paiju.core.replay
from paiju.core.errors import RecordError
from paiju.core.game import State
from paiju.core.replay import replay_lines
from paiju.games.doudizhu import DouDizhuRules, format_cards, parse_cards
from paiju.games.doudizhu.deeprocket import load_deeprocket_file

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
