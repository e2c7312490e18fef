"""Short runs of the arena's load, fault, leak and fuzz harness (``benchmarks/arena_load.py``, whose full runs
measure; these assert).

- The leak checker (``benchmarks/arena_leaks.py``) on message sequences made here from replayed games: clean
  ones pass; another hand shown, or a sealed GuanDan tribute or return card shown in ``last``, is caught.
- A few tables of every game for a few seconds, every seat a network client: no error, no leak, every game
  stored; a GuanDan game dealt so that its second round has two tributes and two returns, checked for
  leaks.
- Abusive clients beside that load: the server still serves a new table after them, logs no uncaught
  exception, and answers each nasty message with one ``error``.
- Fuzzed messages (hypothesis) to a live seat: each answered, the connection kept, the game stored.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju import load_game

sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))
import arena_leaks
import arena_load

GUANDAN_RULES = {"rounds": 2}
SEALED = ("tribute", "back")


def seeded_game(game_name: str, seed: int, rules: dict[str, Any] | None) -> dict[str, Any]:
    """The record of the game dealt from ``seed`` that the harness's clients play when seat ``s`` chooses with
    ``random.Random(s)`` among the ``legal`` of each ``act`` (the engine's legal actions, in its order)."""
    game = load_game(game_name)
    state = game.new_state(seed, game.rules_from_json(rules) if rules else None)
    choosers = [random.Random(seat) for seat in range(game.num_players)]
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        chosen = choosers[seat].choice([game.action_to_json(action) for action in legal])
        state.apply(state.action_from_json(chosen), seat=seat)
    return state.to_record()


def gifts_of(record: dict[str, Any], kind: str) -> int:
    return sum(1 for _, action in record["actions"] if isinstance(action, list) and action[:1] == [kind])


def double_down_seed() -> int:
    """The first deal whose seeded game has two tributes and two returns (the losing team finished 3rd and
    4th in round one), so that the first gift of each phase must stay sealed until the second is chosen."""
    return next(seed for seed in range(500)
                if gifts_of(seeded_game("guandan", seed, GUANDAN_RULES), "tribute") == 2)


def server_messages(record: dict[str, Any], seat: int, shows: Callable[[arena_leaks.Position, int], bool]
                    ) -> list[dict[str, Any]]:
    """What a server following the protocol sends ``seat`` over the game of ``record``, each ``last`` action
    shown when ``shows(position, seat)`` (else ``None``), as JSON text carries it."""
    game = load_game(record["game"])
    positions = arena_leaks.replay_positions(record)
    messages: list[dict[str, Any]] = [{"type": "welcome", "game": game.name, "seat": seat, "table_id": "t-0"},
                                      {"type": "start", "game": game.name, "seat": seat}]
    for position in positions:
        state = position.state
        obs = state.observation(seat).to_json()
        last = None if position.actor is None else {
            "seat": position.actor, "action": position.action_json if shows(position, seat) else None}
        messages.append({"type": "update", "seat": seat, "phase": state.phase, "obs": obs,
                         "to_act": state.current_player, "last": last, "deal": state.deal_number})
        if state.current_player == seat:
            messages.append({"type": "act", "seat": seat, "phase": state.phase, "obs": obs, "deadline": 5.0,
                             "legal": [game.action_to_json(action) for action in state.legal_actions()]})
    messages.append({"type": "end", "seat": seat, "result": positions[-1].state.result(), "record_id": "r-0"})
    return json.loads(json.dumps(messages))


def shows_everything(position: arena_leaks.Position, seat: int) -> bool:
    return True


def keeps_gifts_sealed(position: arena_leaks.Position, seat: int) -> bool:
    """A gift is shown to its giver only while its phase lasts (the rule of ``paiju.games.guandan.tribute``)."""
    kind = getattr(position.action, "kind", None)
    return not (kind in SEALED and position.state.phase == kind and seat != position.actor)


def check(record: dict[str, Any], shows: Callable[[arena_leaks.Position, int], bool]) -> arena_leaks.LeakReport:
    players = load_game(record["game"]).num_players
    return arena_leaks.check_game(record, {seat: server_messages(record, seat, shows) for seat in range(players)})


@pytest.mark.parametrize(("game_name", "rules"), [("doudizhu", {"mode": "full"}), ("guandan", GUANDAN_RULES),
                                                  ("gongzhu", None)])
def test_the_checker_passes_a_clean_game_and_catches_another_hand(game_name, rules):
    record = seeded_game(game_name, 11, rules)
    clean = check(record, keeps_gifts_sealed)
    assert clean.leaked_cards == 0 and clean.mismatches == 0, clean.to_json()
    assert clean.messages > 4 * len(record["actions"])

    received = {seat: server_messages(record, seat, keeps_gifts_sealed) for seat in range(2)}
    update = next(message for message in received[0] if message["type"] == "update")
    update["peek"] = next(message for message in received[1] if message["type"] == "update")["obs"]["hand"]
    leaky = arena_leaks.check_game(record, received)
    assert leaky.leaked_cards == sum(arena_leaks.card_counts(game_name, update["peek"]).values()) > 0
    assert all(any(path.startswith("peek") for path in leak.paths) for leak in leaky.leaks)


def test_the_checker_catches_a_tribute_or_return_card_shown_before_its_phase_ends():
    record = seeded_game("guandan", double_down_seed(), GUANDAN_RULES)
    assert gifts_of(record, "tribute") == gifts_of(record, "back") == 2
    assert check(record, keeps_gifts_sealed).leaked_cards == 0

    leaky = check(record, shows_everything)
    # The first tribute and the first return are each shown to the three seats that did not give them.
    assert leaky.leaked_cards == 2 * 3
    assert dict(leaky.leaks_by_kind) == {"guandan update": 6}
    assert {leak.seat for leak in leaky.leaks} == {0, 1, 2, 3}
    assert all("last.action.2.0" in leak.paths for leak in leaky.leaks)
    assert leaky.mismatches == 0


def test_a_copy_from_the_second_deck_counts():
    record = seeded_game("guandan", 3, GUANDAN_RULES)
    messages = server_messages(record, 0, keeps_gifts_sealed)
    update = next(message for message in messages if message["type"] == "update")
    held = update["obs"]["hand"][0]
    update["peek"] = [held]  # seat 0 holds one copy; showing it again tells where the other one is
    report = arena_leaks.check_game(record, {0: messages})
    assert report.leaked_cards == 1 and report.leaks[0].card == held and report.leaks[0].allowed == 1


def run_harness(config: arena_load.LoadConfig, workdir: Path, **settings: Any) -> dict[str, Any]:
    """``config`` run against a fresh arena process; the results, with the server's log summary."""
    with arena_load.arena_process({**arena_load.serve_settings(config), **settings}, workdir) as server:
        results = asyncio.run(arena_load.run_load(config, server))
    results["server_log"] = arena_load.log_summary(server.log_path)
    return results


def test_a_short_load_has_no_error_no_leak_and_stores_every_game(tmp_path):
    config = arena_load.LoadConfig(tables=3, seconds=4.0, seed=5, warm_up=False, check_workers=0)
    results = run_harness(config, tmp_path)
    load = results["load"]
    assert load["errors"] == {}, load["error_examples"]
    assert set(load["games_finished"]) == set(arena_load.GAMES)
    finished = sum(load["games_finished"].values())
    assert load["games_stored"] == finished == sum(load["tables"].values())
    assert load["latency_ms"]["count"] == load["moves"] > 100
    leaks = results["leaks"]
    assert leaks["games"] == finished and leaks["checker_failures"] == []
    assert leaks["leaked_cards"] == 0, leaks["leaks"]
    assert leaks["mismatches"] == 0, leaks["mismatch_examples"]
    assert results["server_log"]["tracebacks"] == 0, results["server_log"]


def test_clients_that_think_pause_before_each_move_and_still_play_cleanly(tmp_path):
    """``think`` 0.05: each of a Gongzhu game's 52 moves waits 0-0.1 s (about 2.6 s in all; without it the game
    takes a fraction of a second); the game is played and stored without an error."""
    config = arena_load.LoadConfig(tables=1, seconds=0.2, seed=3, games=("gongzhu",), warm_up=False,
                                   check_workers=0, think=0.05)
    results = run_harness(config, tmp_path)
    load = results["load"]
    assert load["errors"] == {}, load["error_examples"]
    assert load["games_stored"] == load["games_finished"]["gongzhu"] >= 1
    assert results["seconds"] > 1.5, results["seconds"]


def test_a_guandan_round_with_two_tributes_and_two_returns_leaks_nothing(tmp_path):
    seed = double_down_seed()

    async def play(url: str) -> tuple[arena_load.Group, list[arena_load.SeatRun], arena_leaks.LeakReport]:
        async with httpx.AsyncClient(base_url=url, trust_env=False, timeout=30) as http:
            checker = arena_load.Checker(0)
            run = arena_load.Run(url, http, arena_load.LoadConfig(), checker, random.Random(0))
            group = arena_load.Group()
            table = await arena_load.create_table(run, group, "guandan", "human", seed=seed)
            assert table is not None
            seats = await arena_load.play_table(run, group, table, {seat: random.Random(seat) for seat in range(4)})
            await checker.wait()
            return group, seats, checker.report

    with arena_load.arena_process(arena_load.serve_settings(arena_load.LoadConfig()), tmp_path) as server:
        group, seats, report = asyncio.run(play(server.url))
    assert group.errors == {} and group.stored == 1, group.error_examples
    record_actions = sum(json.loads(text)["type"] == "update" for text in seats[0].messages) - 1
    assert record_actions == len(seeded_game("guandan", seed, GUANDAN_RULES)["actions"])
    assert report.games == 1 and report.mismatches == 0, report.mismatch_examples
    assert report.leaked_cards == 0, [leak.describe() for leak in report.leaks]


def test_the_server_survives_abusive_clients(tmp_path):
    config = arena_load.LoadConfig(tables=1, seconds=2.0, faults=True, seed=2, games=("gongzhu",),
                                   fault_games=("gongzhu",), move_timeout=0.3, warm_up=False, check_workers=0,
                                   nonreader_pings=100_000, nonreader_hold=3.0, flood_bursts=12)
    results = run_harness(config, tmp_path, send_timeout=1.0)
    assert results["survived"] is True
    assert results["server_log"]["tracebacks"] == 0, results["server_log"]["exceptions"]
    faults = results["faults"]
    assert all(faults[kind]["tables"] >= 1 for kind in arena_load.FAULT_KINDS), faults
    assert [problem for found in faults.values() for problem in found["problems"]] == []
    assert all(answers == {"error": len(arena_load.NASTY)} for answers in
               (outcome["answers"] for outcome in faults["garbage"]["outcomes"]))


def test_a_client_that_stops_reading_is_disconnected_once_the_server_gives_up_on_it(tmp_path):
    """Pings until the server's answers fill the socket: the server stops reading, drops the client after
    ``send_timeout`` and closes the connection, although its unsent answers are still queued (or drops it
    sooner, its outbox full)."""
    config = arena_load.LoadConfig(tables=1, seconds=2.0, faults=True, seed=2, games=("gongzhu",),
                                   fault_games=("gongzhu",), fault_kinds=("nonreader",), move_timeout=0.3,
                                   warm_up=False, check_workers=0, nonreader_pings=1_000_000, nonreader_hold=3.0)
    results = run_harness(config, tmp_path, send_timeout=1.0)
    [outcome] = results["faults"]["nonreader"]["outcomes"]
    assert outcome["disconnected"], repr(outcome)
    assert results["faults"]["nonreader"]["problems"] == []
    assert results["survived"] is True


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8)
FUZZED = st.one_of(
    st.sampled_from([payload for _, payload in arena_load.NASTY]),
    st.text(max_size=60),
    st.binary(max_size=64),
    JSON_VALUES.map(json.dumps),
    st.builds(lambda action: json.dumps({"action": action}), JSON_VALUES | st.sampled_from(arena_load.CARD_WORDS)),
    st.builds(lambda kind: json.dumps({"type": kind}), JSON_VALUES | st.sampled_from(["ping", "explain", "act"])),
    st.builds(lambda agent: json.dumps({"type": "explain", "agent": agent}),
              JSON_VALUES | st.sampled_from(["random", "rules", "mr-if", "ext:sh"])),
    st.integers(0, 2**32).map(lambda seed: arena_load.fuzz_message(random.Random(seed))),
)


@pytest.fixture(scope="module")
def fuzzed_arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[arena_load.ArenaServer]:
    """One arena for every fuzzing example; moves never time out."""
    settings = {**arena_load.serve_settings(arena_load.LoadConfig()), "move_timeout": 600.0}
    with arena_load.arena_process(settings, tmp_path_factory.mktemp("fuzzed-arena")) as server:
        yield server


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payloads=st.lists(FUZZED, min_size=1, max_size=20), seed=st.integers(0, 2**16))
def test_fuzzed_messages_are_each_answered_and_the_game_goes_on(fuzzed_arena, payloads, seed):
    report = asyncio.run(arena_load.fuzz_seat(fuzzed_arena.url, payloads, seed, games=("gongzhu", "doudizhu")))
    assert report.unexpected_count == 0 and not report.closes, report.to_json()
    assert report.sent + report.skipped_legal == len(payloads)
    assert report.games_stored == report.games >= 1
    log = arena_load.log_summary(fuzzed_arena.log_path)
    assert log["tracebacks"] == 0, log["exceptions"]
