"""External agents play Gongzhu: four random bot processes, each receiving exactly its seat's view."""

import json
import shlex
import sys
from pathlib import Path

from paiju import load_game, make_agent
from paiju.core.match import play_game

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "examples" / "ext_random_bot.py"
GAME = load_game("gongzhu")


def test_four_external_bots_play_gongzhu_seeing_only_their_own_hands(tmp_path, monkeypatch):
    monkeypatch.setenv("PAIJU_EXT_TIMEOUT", "5")
    logs = [tmp_path / f"seat{seat}.jsonl" for seat in range(4)]
    agents = [make_agent("ext:" + " ".join(shlex.quote(str(p)) for p in (
        sys.executable, RANDOM_BOT, "--seed", seat, "--log", logs[seat])), "gongzhu") for seat in range(4)]
    try:
        final = play_game(GAME, agents, 21)
    finally:
        for agent in agents:
            agent.close()
    assert final.is_terminal()
    replay = GAME.new_state(21)
    requests = {seat: [json.loads(line) for line in logs[seat].read_text().splitlines()] for seat in range(4)}
    acts = {seat: [m for m in requests[seat] if m["type"] == "act"] for seat in range(4)}
    assert all(len(acts[seat]) == 13 for seat in range(4))
    seen = {seat: 0 for seat in range(4)}
    for seat, card in final.to_record()["actions"]:
        message = acts[seat][seen[seat]]
        seen[seat] += 1
        assert message["phase"] == "play" and message["game"] == "gongzhu" and message["seat"] == seat
        assert message["obs"] == replay.observation(seat).to_json()
        assert set(message["obs"]) == {"hand", "leader", "trick", "history", "taken"}
        assert message["legal"] == replay.legal_actions()
        replay.apply(card, seat=seat)
    for seat in range(4):
        assert requests[seat][0]["type"] == "start" and requests[seat][-1]["type"] == "end"
        assert requests[seat][-1]["result"]["payoffs"] == final.payoffs()
