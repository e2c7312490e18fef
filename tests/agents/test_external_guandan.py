"""External agents play GuanDan: four random bot processes, each receiving exactly its seat's view, over one
round and over three rounds with tribute and return gifts."""

import json
import shlex
import sys
from pathlib import Path

import pytest

from paiju import load_game, make_agent
from paiju.core.match import play_game
from paiju.games.guandan import GuanDanRules

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "ext_random_bot.py"
GAME = load_game("guandan")
OBS_KEYS = {"hand", "level", "self_level", "oppo_level", "history", "greater", "cards_left", "finished", "round",
            "previous_order", "tribute", "back", "anti_tribute"}


def as_json(value):
    """``value`` as it reads after a trip through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("rules", "seed", "rounds", "tribute"), [
    (GuanDanRules(rounds=1), 21, 1, False),
    (GuanDanRules(rounds=3, start_level="Q", a_attempts=1), 1, 3, True),
])
def test_four_external_bots_play_guandan_seeing_only_their_own_hands(tmp_path, monkeypatch, rules, seed, rounds,
                                                                     tribute):
    monkeypatch.setenv("PAIJU_EXT_TIMEOUT", "5")
    logs = [tmp_path / f"seat{seat}.jsonl" for seat in range(4)]
    agents = [make_agent("ext:" + " ".join(shlex.quote(str(p)) for p in (
        sys.executable, RANDOM_BOT, "--seed", seat, "--log", logs[seat])), "guandan") for seat in range(4)]
    try:
        final = play_game(GAME, agents, seed, rules)
    finally:
        for agent in agents:
            agent.close()
    assert final.is_terminal()
    result = final.result()
    assert len(result["rounds"]) == rounds
    assert any(played["tribute"] for played in result["rounds"]) is tribute
    replay = GAME.new_state(seed, rules)
    requests = {seat: [json.loads(line) for line in logs[seat].read_text().splitlines()] for seat in range(4)}
    acts = {seat: [m for m in requests[seat] if m["type"] == "act"] for seat in range(4)}
    seen = {seat: 0 for seat in range(4)}
    phases = set()
    for seat, form in final.to_record()["actions"]:
        message = acts[seat][seen[seat]]
        seen[seat] += 1
        phases.add(message["phase"])
        assert message["game"] == "guandan" and message["seat"] == seat
        assert message["phase"] == replay.phase
        assert message["obs"] == as_json(replay.observation(seat).to_json())
        assert set(message["obs"]) == OBS_KEYS
        assert message["legal"] == as_json([GAME.action_to_json(action) for action in replay.legal_actions()])
        assert form in message["legal"]
        replay.apply(replay.action_from_json(form), seat=seat)
    assert replay.is_terminal() and replay.payoffs() == final.payoffs()
    assert seen == {seat: len(acts[seat]) for seat in range(4)}
    assert ({"tribute", "back"} <= phases) is tribute and "play" in phases
    for seat in range(4):
        kinds = [m["type"] for m in requests[seat]]
        assert kinds.count("start") == rounds and kinds[0] == "start" and kinds[-1] == "end"
        assert all(m["rules"] == as_json(rules.to_json()) for m in requests[seat] if m["type"] == "start")
        assert requests[seat][-1]["result"]["payoffs"] == final.payoffs()
