"""The ladder's HTTP API: bot accounts, the ladder's standings and each bot's page, as JSON, and their pages.

==========================================  ==========================================================
``POST /api/bots``                          ``{"name", "owner", "game"}`` → 201 ``{"bot": {...}, "key"}``: the key
                                            is shown this once. 400 malformed name, contact or game, or a
                                            reserved name; 409 the name is taken; 429 this address registered
                                            ``registrations_per_hour`` bots this hour
``POST /api/bots/key``                      header ``Authorization: Bearer KEY`` → ``{"bot", "key"}``: a new key;
                                            the old one stops working. 401 unknown or revoked key
``POST /api/admin/bots/{name}``             header ``X-Admin-Token``; ``{"status": "active" | "paused" |
                                            "banned", "reason"}`` → the bot. 403 no or wrong admin token, or
                                            admin calls off (``paiju serve --admin-token``); 404 unknown bot
``GET /api/ladder``                         ``{"model", "games": {game: {"ruleset", "waiting", "playing", "house",
                                            "standings": [{"name", "rating", "mu", "sigma", "games", "wins",
                                            "mean_payoff", "house", "status"}]}}}``
``GET /api/ladder/bots/{name}``             a bot's page: ``{"bot", "rating", "history": [{"record_id",
                                            "finished", "rating", "mu", "sigma"}], "games": [{"record_id",
                                            "finished", "seat", "seats", "payoff"}] (newest first, at most
                                            ``GAMES_LISTED``), "opponents": [{"name", "house", "games", "won",
                                            "mean_payoff"}]}``; 404 unknown bot
``GET /ladder``, ``GET /ladder/bots/{name}``  the ladder's page and a bot's page
==========================================  ==========================================================

Against an opponent a game counts as *won* when the bot's payoff is above the opponent's (partners are not
opponents). A key is read from a header, never from the URL (which servers log), and never logged.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, status
from pydantic import BaseModel, ConfigDict, Field

from paiju.serve.accounts import (
    AccountError,
    BotAccounts,
    BotStatus,
    NameTaken,
    RegistrationsLimited,
    UnknownBot,
    UnknownKey,
)
from paiju.serve.http_api import client_address
from paiju.serve.ladder import Ladder, ruleset
from paiju.serve.leaderboard import MODEL, Leaderboard
from paiju.serve.store import GameStore

GAMES_LISTED = 200


class BotRequest(BaseModel):
    """``POST /api/bots``."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=64)]
    owner: Annotated[str, Field(max_length=200)]
    game: Annotated[str, Field(max_length=64)]


class StatusRequest(BaseModel):
    """``POST /api/admin/bots/{name}``."""

    model_config = ConfigDict(extra="forbid")

    status: BotStatus
    reason: Annotated[str, Field(max_length=200)] = ""


def account_refusal(error: AccountError) -> HTTPException:
    """The HTTP status of a refused account request."""
    if isinstance(error, NameTaken):
        return HTTPException(status.HTTP_409_CONFLICT, str(error))
    if isinstance(error, RegistrationsLimited):
        return HTTPException(status.HTTP_429_TOO_MANY_REQUESTS, str(error))
    if isinstance(error, UnknownKey):
        return HTTPException(status.HTTP_401_UNAUTHORIZED, str(error))
    if isinstance(error, UnknownBot):
        return HTTPException(status.HTTP_404_NOT_FOUND, str(error))
    return HTTPException(status.HTTP_400_BAD_REQUEST, str(error))


def ladder_api_router(ladder: Ladder, accounts: BotAccounts, store: GameStore, ratings: Leaderboard,
                      admin_token: str | None) -> APIRouter:
    """The routes above over ``ladder``, ``accounts``, ``store`` and the ladder's ``ratings``."""
    router = APIRouter(prefix="/api")

    @router.post("/bots", status_code=status.HTTP_201_CREATED)
    async def register(request: BotRequest, http: Request) -> dict[str, Any]:
        """Register a ladder bot; the reply holds its key, shown this once."""
        try:
            account, key = await asyncio.to_thread(accounts.register, request.name, request.owner, request.game,
                                                   client_address(http))
        except AccountError as error:
            raise account_refusal(error) from None
        return {"bot": account.public_json(), "key": key}

    @router.post("/bots/key")
    async def rotate(authorization: Annotated[str, Header()] = "") -> dict[str, Any]:
        """Replace the bot's key (``Authorization: Bearer KEY``) by a new one."""
        try:
            new = await asyncio.to_thread(accounts.rotate, bearer(authorization))
            account = await asyncio.to_thread(accounts.authenticate, new)
        except AccountError as error:
            raise account_refusal(error) from None
        return {"bot": account.public_json(), "key": new}

    @router.post("/admin/bots/{name}")
    async def set_status(name: str, request: StatusRequest,
                         x_admin_token: Annotated[str, Header()] = "") -> dict[str, Any]:
        """An admin pauses, bans or resumes a bot; a bot on the ladder is sent off at once."""
        if admin_token is None:
            raise HTTPException(status.HTTP_403_FORBIDDEN, "admin calls are off: start paiju serve with --admin-token")
        if not secrets.compare_digest(x_admin_token.encode(), admin_token.encode()):
            raise HTTPException(status.HTTP_403_FORBIDDEN, "admin calls need the X-Admin-Token header with the "
                                                           "server's admin token")
        try:
            account = await asyncio.to_thread(accounts.set_status, name, request.status, request.reason)
        except AccountError as error:
            raise account_refusal(error) from None
        ladder.enforce(account.name)
        return {"bot": account.public_json()}

    @router.get("/ladder")
    async def standings() -> dict[str, Any]:
        """Every game's queue and ladder standings."""
        queues = ladder.status_json()
        listed = await asyncio.to_thread(_standings, accounts, ratings, {game: set(bots)
                                                                          for game, bots in ladder.house.items()})
        return {"model": MODEL,
                "games": {game: {"ruleset": ruleset(game)} | queues[game] | {"house": ladder.house[game],
                                                                             "standings": listed[game]}
                          for game in queues}}

    @router.get("/ladder/bots/{name}")
    async def bot_page(name: str) -> dict[str, Any]:
        """A bot's rating over time, its games, and its results against each opponent."""
        try:
            return await asyncio.to_thread(_bot_page, accounts, store, ratings, name)
        except AccountError as error:
            raise account_refusal(error) from None

    return router


def bearer(authorization: str) -> str:
    """The key of an ``Authorization: Bearer KEY`` header; ``UnknownKey`` when there is none."""
    scheme, _, key = authorization.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise UnknownKey("the bot's key goes in the header Authorization: Bearer KEY")
    return key.strip()


def _standings(accounts: BotAccounts, ratings: Leaderboard, house: dict[str, set[str]]
               ) -> dict[str, list[dict[str, Any]]]:
    statuses = {account.name: account.status.value for account in accounts.bots()}
    return {game: [row | {"house": row["name"] in house[game] and row["name"] not in statuses,
                          "status": statuses.get(row["name"], "house")}
                   for row in ratings.standings(f"{game}/{ruleset(game)}")]
            for game in house}


def _bot_page(accounts: BotAccounts, store: GameStore, ratings: Leaderboard, name: str) -> dict[str, Any]:
    account = accounts.standing(name)
    board = f"{account.game}/{ruleset(account.game)}"
    row = next((row for row in ratings.standings(board) if row["name"] == account.name), None)
    games, opponents = [], {}
    for summary in store.ladder_games_of(account.name):
        seats, payoffs = summary["seats"], summary["result"]["payoffs"]
        seat = seats.index(account.name)
        games.append({"record_id": summary["record_id"], "finished": summary["finished"], "seat": seat,
                      "seats": seats, "payoff": payoffs[seat]})
        faced = {opponent: payoff for other, (opponent, payoff) in enumerate(zip(seats, payoffs, strict=True))
                 if opponent != account.name and not _partners(payoffs, seat, other)}
        for opponent, payoff in faced.items():
            tally = opponents.setdefault(opponent, {"name": opponent, "games": 0, "won": 0, "payoff": 0.0})
            tally["games"] += 1
            tally["won"] += payoffs[seat] > payoff
            tally["payoff"] += payoffs[seat]
    registered = {bot.name for bot in accounts.bots(account.game)}
    return {"bot": account.public_json(), "rating": row, "history": ratings.history(board, account.name),
            "games": games[::-1][:GAMES_LISTED],
            "opponents": sorted(({"name": tally["name"], "house": tally["name"] not in registered,
                                  "games": tally["games"], "won": tally["won"],
                                  "mean_payoff": round(tally["payoff"] / tally["games"], 3)}
                                 for tally in opponents.values()), key=lambda entry: (-entry["games"], entry["name"]))}


def _partners(payoffs: list[float], seat: int, other: int) -> bool:
    """Whether seats ``seat`` and ``other`` play on one side: GuanDan's and Gongzhu's partners sit opposite;
    DouDizhu's peasants share a payoff (the landlord's differs)."""
    if len(payoffs) == 4:
        return (seat - other) % 2 == 0
    return payoffs[seat] == payoffs[other]
