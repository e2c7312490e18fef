"""A short run of the ladder's load harness (``benchmarks/ladder_load.py``, whose full runs measure; this asserts):
a few bots of every kind on two games for a few seconds, a short move timeout and a pause after two misbehaving
games. Every stored ladder game is rated, no well-behaved bot is paused or sees a problem, the sleepy bot is paused
with its reason, and the server logs no traceback."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))
import arena_load
import ladder_load

CONFIG = ladder_load.LadderConfig(bots=7, seconds=10.0, sleepy=1, vanish=1, garbage=1, games=("gongzhu", "doudizhu"),
                                  seed=4, move_timeout=1.0, pause=3.0, strikes=2, fill_after=0.3, sleep_share=1.0,
                                  vanish_away=(0.2, 0.5), message_limit=20.0, drain_limit=30.0)


def test_a_short_ladder_run_rates_every_game_and_pauses_only_misbehaving_bots(tmp_path):
    with arena_load.arena_process(ladder_load.ladder_settings(CONFIG), tmp_path) as server:
        results = asyncio.run(ladder_load.run_ladder(CONFIG, server, tmp_path / "arena.sqlite3"))
    log = arena_load.log_summary(server.log_path)

    assert results["bots_registered"] == 7
    assert results["harness"] == {"bots_unfinished_at_drain_limit": 0, "tables_unfinished": 0, "bot_crashes": []}
    games = results["games"]
    stored = {game: counts["games"] for game, counts in games["stored"].items()}
    assert stored == games["tables_seated"] and sum(stored.values()) >= 4, games
    assert {game: games["rated"][game] for game in stored} == stored
    assert games["rating_mismatches"] == [] and games["records_seen_not_stored"] == 0
    assert games["non_ladder_stored"] == 0

    assert results["problems"] == {kind: {} for kind in (*ladder_load.KINDS, ladder_load.NO_BOT)}, \
        results["problem_examples"]
    kinds = results["kinds"]
    assert kinds["well"]["pauses"] == 0 and kinds["well"]["join_refusals"] == {}
    assert results["timeouts"]["by_kind"].get("well", 0) == 0
    assert results["timeouts"]["most_at_one_seat"] <= ladder_load.effective_settings(CONFIG)["ladder_forfeit_after"]
    sleepy = [pause for pause in results["pauses"] if pause["kind"] == "sleepy"]
    assert sleepy and "moves played by timeout" in sleepy[0]["reason"], results["pauses"]
    assert kinds["garbage"]["junk_sent"] >= kinds["garbage"]["junk_refused"] > 0
    assert kinds["vanish"]["vanishings"] > 0
    assert results["waits_s"]["all"]["count"] > 0
    assert log["tracebacks"] == 0, log["exceptions"]
