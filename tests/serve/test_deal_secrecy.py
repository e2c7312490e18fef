"""No seat learns a card it may not see: deals from full-entropy seeds, bots with seeds of their own, and
GuanDan gifts sealed until their phase ends."""

from __future__ import annotations

import asyncio
import logging

from paiju import load_game
from paiju.eval.seeds import derive_seed
from paiju.serve.limits import TokenRedaction, redact_tokens_in_server_logs


def test_a_table_without_a_chosen_seed_is_dealt_from_128_random_bits(arena):
    for _ in range(3):
        arena.create_table("gongzhu", ["random"] * 4)
    seeds = [arena.record(entry["record_id"])["seed"] for entry in arena.wait_for_records(3)]
    assert len(set(seeds)) == 3
    assert all(seed.bit_length() > 64 for seed in seeds)  # each fails with probability 2**-64


def test_bots_do_not_share_the_deal_s_random_stream():
    seeds = {derive_seed(table_seed, "agent", seat) for table_seed in range(50) for seat in range(4)}
    assert len(seeds) == 200 and not seeds & set(range(60))


DOUBLE_TRIBUTE_SEED = 0
"""With every seat playing its first legal action, this seed's second round opens with a double tribute
(two sealed gifts, then two sealed returns)."""


def first_legal(act: dict) -> object:
    return act["legal"][0]


def second_round_gifts():
    """The GuanDan game of ``DOUBLE_TRIBUTE_SEED`` at the start of its second round's tribute."""
    state = load_game("guandan").new_state(DOUBLE_TRIBUTE_SEED)
    while state.deal_number == 0:
        state.apply(state.legal_actions()[0])
    return state


def test_a_gift_is_seen_only_by_its_giver_until_the_phase_ends():
    state = second_round_gifts()
    sealed_gifts = 0
    while state.phase in ("tribute", "back"):
        giver, phase = state.current_player, state.phase
        gift = state.legal_actions()[0]
        state.apply(gift)
        sealed = state.phase == phase
        sealed_gifts += sealed
        for viewer in range(4):
            expected = None if sealed and viewer != giver else state.action_to_json(gift)
            assert state.action_seen_by(viewer, giver, gift) == expected
    assert sealed_gifts == 2


def test_plays_are_public():
    state = load_game("guandan").new_state(1)
    play = state.legal_actions()[0]
    seat = state.current_player
    state.apply(play)
    assert all(state.action_seen_by(viewer, seat, play) == state.action_to_json(play) for viewer in range(4))


def test_arena_updates_never_show_a_sealed_gift_to_another_seat(arena):
    table = arena.create_table("guandan", ["human"] * 4, seed=DOUBLE_TRIBUTE_SEED, rules={"rounds": 2})

    async def play() -> dict:
        clients = await arena.connect_humans(table)
        await asyncio.gather(*(client.play(first_legal) for client in clients.values()))
        for client in clients.values():
            await client.close()
        return clients

    sealed_updates = 0
    for seat, client in asyncio.run(play()).items():
        for message in client.received:
            if message["type"] != "update" or message["last"] is None:
                continue
            actor, action = message["last"]["seat"], message["last"]["action"]
            if action is None:
                sealed_updates += 1
                assert actor != seat and message["phase"] in ("tribute", "back")
            elif message["phase"] in ("tribute", "back") and actor != seat:
                assert action[0] != message["phase"], f"seat {seat} saw seat {actor}'s sealed gift {action}"
    assert sealed_updates == 2 * 3  # each phase's first gift, hidden from the three other seats


def test_seat_tokens_are_redacted_from_the_server_log(caplog):
    redact_tokens_in_server_logs()
    with caplog.at_level(logging.INFO, logger="uvicorn.error"):
        logging.getLogger("uvicorn.error").info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5000",
                                                "/ws/tables/t-1?token=SECRET-token_value&x=1")
        logging.getLogger("uvicorn.access").info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET",
                                                 "/ws/tables/t-1?token=SECRET2", "1.1", 200)
    assert "SECRET" not in caplog.text and "token=[redacted]&x=1" in caplog.text
    assert TokenRedaction().filter(logging.makeLogRecord({"msg": "token=abc"}))
