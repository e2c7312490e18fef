"""Watching a table of bots alone while it plays (``GET /api/tables/{id}/frames``): every hand face up, frames
fetched incrementally, the last of them the stored game's replay; a table with a person or open seat is refused."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

WATCH_LIMIT = 30.0
"""Seconds a watched test game may take."""


def watch_to_the_end(arena, table_id: str, pause: float = 0.05) -> tuple[list[dict[str, Any]], list[int], dict]:
    """Poll the table's frames with ``since`` until it is over: every frame, the size of each poll's batch, and
    the last reply."""
    frames: list[dict[str, Any]] = []
    batches: list[int] = []
    deadline = time.monotonic() + WATCH_LIMIT
    while True:
        reply = arena.http.get(f"/api/tables/{table_id}/frames", params={"since": len(frames)})
        assert reply.status_code == 200, reply.text
        body = reply.json()
        steps = [frame["step"] for frame in body["frames"]]
        assert steps == list(range(len(frames), len(frames) + len(steps)))
        frames += body["frames"]
        batches.append(len(body["frames"]))
        if body["status"] in ("finished", "aborted"):
            return frames, batches, body
        assert body["record_id"] is None
        assert time.monotonic() < deadline, "the watched game did not end in time"
        time.sleep(pause)


@pytest.mark.parametrize(("game", "seats"), [("doudizhu", ["random", "rules", "random"]),
                                             ("gongzhu", ["random"] * 4)])
def test_a_table_of_bots_is_watched_move_by_move_and_ends_as_its_replay(arena, game, seats):
    table = arena.create_table(game, seats, bot_delay=0.03)
    table_id = table["table_id"]
    assert arena.table(table_id)["watchable"] is True
    frames, batches, last = watch_to_the_end(arena, table_id)
    assert last["status"] == "finished" and last["game"] == game and last["seats"] == seats
    assert len([size for size in batches if size > 0]) > 3, "the frames came in several polls, as the moves were made"
    assert frames[0]["step"] == 0 and frames[0]["seat"] is None and frames[0]["action"] is None
    assert all(len(frame["view"]["hands"]) == len(seats) for frame in frames)  # every hand, face up
    replay = arena.http.get(f"/api/records/{last['record_id']}/frames").json()
    assert replay["frames"] == frames
    assert replay["seats"] == last["seats"]
    again = arena.http.get(f"/api/tables/{table_id}/frames", params={"since": len(frames)}).json()
    assert again["frames"] == [] and again["record_id"] == last["record_id"]
    whole = arena.http.get(f"/api/tables/{table_id}/frames").json()
    assert whole["frames"] == frames


def test_a_guandan_table_of_bots_is_watched_across_its_deals(arena):
    table = arena.create_table("guandan", ["random"] * 4, rules={"rounds": 2}, bot_delay=0.0)
    frames, _, last = watch_to_the_end(arena, table["table_id"], pause=0.0)
    assert last["status"] == "finished" and len(arena.record(last["record_id"])["deals"]) == 2
    assert arena.http.get(f"/api/records/{last['record_id']}/frames").json()["frames"] == frames


def test_since_past_the_frames_made_or_negative_is_refused(arena):
    table = arena.create_table("doudizhu", ["random"] * 3, bot_delay=0.5)
    path = f"/api/tables/{table['table_id']}/frames"
    made = len(arena.http.get(path).json()["frames"])
    past = arena.http.get(path, params={"since": made + 50})
    assert past.status_code == 400 and f"since={made + 50} is past the" in past.json()["detail"]
    for bad in ("-1", "two"):
        refused = arena.http.get(path, params={"since": bad})
        assert refused.status_code == 422 and "since" in refused.json()["detail"]


@pytest.mark.parametrize("seats", [["human", "random", "random"], ["random", "open", "random"]])
def test_a_table_with_a_person_or_open_seat_keeps_its_hands_hidden(arena, seats):
    table = arena.create_table("doudizhu", seats)
    table_id = table["table_id"]
    assert arena.table(table_id)["watchable"] is False
    reply = arena.http.get(f"/api/tables/{table_id}/frames")
    assert reply.status_code == 403
    assert reply.json() == {"detail": f"table {table_id} has a person or network seat: its hands stay hidden "
                                      "while it plays; its replay opens when it ends"}


def test_a_table_with_a_person_shows_its_hands_only_in_its_replay_once_over(arena, seat_policy):
    table = arena.create_table("doudizhu", ["human", "random", "random"])

    async def play() -> dict[str, Any]:
        clients = await arena.connect_humans(table)
        try:
            return await clients[0].play(seat_policy(3))
        finally:
            await clients[0].close()

    end = asyncio.run(play())
    reply = arena.http.get(f"/api/tables/{table['table_id']}/frames")
    assert reply.status_code == 403 and list(reply.json()) == ["detail"] and "frames" not in reply.text
    assert arena.http.get(f"/api/records/{end['record_id']}/frames").status_code == 200  # the replay shows them


def test_an_unknown_table_is_not_found(arena):
    reply = arena.http.get("/api/tables/t-missing/frames")
    assert reply.status_code == 404 and "'t-missing'" in reply.json()["detail"]
