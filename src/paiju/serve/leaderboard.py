"""The arena's leaderboard: a rating of every agent, person and network bot over the finished games it played.

Ratings are OpenSkill's Plackett-Luce model (Weng & Lin 2011, the ``openskill`` library), one table per game
(skill at DouDizhu says little about Gongzhu), and one per rule variant (``paiju.serve.variants``: 癞子 DouDizhu's
games on ``doudizhu/laizi``, apart from the classic games on ``doudizhu``). Each finished game is one match
between *sides*: the seats with the same payoff (DouDizhu's landlord alone against the two peasants; GuanDan's and
Gongzhu's partners), ranked by payoff, equal payoffs tied. A name that sits on two sides of one game (``rules``
against ``rules``, a ladder bot with ``random`` for partner against two more ``random``) learns nothing from it and
keeps its rating; the game still counts as played, and the others in it are rated against that name as it stands.
A side's members are its distinct names.

Shown per name: the rating as the ordinal μ − 3σ (a conservative estimate: 99.7 % of the belief lies above it),
μ and σ, games played (once a game, however many of its seats the name took), games won (every seat it took had a
positive payoff), and its mean payoff a seat and game.

The ladder's ratings (``Leaderboard(store, ladder=True)``) are the same over the ladder's games alone, one table
per game and ruleset (``doudizhu/standard``), and keep each name's rating after every game it played (``history``)
for the bot pages' plots.

Incremental: the leaderboard remembers the last stored game it has rated and, when asked, rates only the games
stored since (``refresh``), in the order they were stored, so ratings are the same as a recomputation from
scratch. A store that has deleted games (``paiju serve --keep-games``) is rated over the games it still holds
when the leaderboard starts.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from paiju.serve.store import GameStore
from paiju.serve.variants import board_name


@dataclass
class Standing:
    """One name's record at one game."""

    rating: PlackettLuceRating
    games: int = 0
    wins: int = 0
    payoff: float = 0.0

    def to_json(self, name: str) -> dict[str, Any]:
        return {"name": name, "rating": round(self.rating.ordinal(), 3), "mu": round(self.rating.mu, 3),
                "sigma": round(self.rating.sigma, 3), "games": self.games, "wins": self.wins,
                "mean_payoff": round(self.payoff / self.games, 3) if self.games else 0.0}


@dataclass
class GameTable:
    """The standings at one game (or one game and ruleset)."""

    standings: dict[str, Standing] = field(default_factory=dict)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Name → ``{"record_id", "finished", "rating", "mu", "sigma"}`` after each game it played (ladder only)."""


def sides(seats: list[str], payoffs: list[float]) -> list[tuple[float, list[str]]]:
    """The game's sides, best payoff first: ``(payoff, distinct names)`` per group of seats with equal payoffs."""
    grouped: dict[float, list[str]] = {}
    for name, payoff in zip(seats, payoffs, strict=True):
        members = grouped.setdefault(payoff, [])
        if name not in members:
            members.append(name)
    return sorted(grouped.items(), key=lambda side: -side[0])


class Leaderboard:
    """Ratings over the finished games of ``store``, brought up to date by ``refresh``."""

    def __init__(self, store: GameStore, ladder: bool = False) -> None:
        self.store = store
        self.ladder = ladder
        self.model = PlackettLuce()
        self.tables: dict[str, GameTable] = {}
        self.last = 0
        self.rated = 0
        self.lock = threading.Lock()

    def refresh(self) -> None:
        """Rate the games stored since the last refresh."""
        with self.lock:
            for number, summary in self.store.finished_since(self.last, ladder_only=self.ladder):
                self._rate(summary)
                self.last = number
                self.rated += 1

    def _rate(self, summary: dict[str, Any]) -> None:
        board = f"{summary['game']}/{summary['ladder']}" if self.ladder else board_name(summary["game"],
                                                                                          summary["ruleset"])
        table = self.tables.setdefault(board, GameTable())
        seats, payoffs = summary["seats"], summary["result"]["payoffs"]
        for name in dict.fromkeys(seats):
            mine = [payoff for seated, payoff in zip(seats, payoffs, strict=True) if seated == name]
            standing = self._standing(table, name)
            standing.games += 1
            standing.wins += all(payoff > 0 for payoff in mine)
            standing.payoff += sum(mine) / len(mine)
        teams = sides(seats, payoffs)
        twice = {name for _, members in teams for name in members
                 if sum(name in others for _, others in teams) > 1}
        learners = {name for _, members in teams for name in members} - twice
        if len(teams) >= 2 and learners:
            ranks = [sum(1 for other, _ in teams if other > payoff) for payoff, _ in teams]
            rated = self.model.rate([[table.standings[name].rating for name in members] for _, members in teams],
                                    ranks=ranks)
            for (_, members), ratings in zip(teams, rated, strict=True):
                for name, rating in zip(members, ratings, strict=True):
                    if name in learners:
                        table.standings[name].rating = rating
        if self.ladder:
            for name in dict.fromkeys(seats):
                rating = table.standings[name].rating
                table.history.setdefault(name, []).append(
                    {"record_id": summary["record_id"], "finished": summary["finished"],
                     "rating": round(rating.ordinal(), 3), "mu": round(rating.mu, 3), "sigma": round(rating.sigma, 3)})

    def _standing(self, table: GameTable, name: str) -> Standing:
        if name not in table.standings:
            table.standings[name] = Standing(self.model.rating(name=name))
        return table.standings[name]

    def standings(self, board: str) -> list[dict[str, Any]]:
        """One board's standings (a game, ``game/variant``; ladder: ``game/ruleset``), best rating first, brought up
        to date."""
        self.refresh()
        with self.lock:
            return _ranked(self.tables.get(board, GameTable()))

    def history(self, board: str, name: str) -> list[dict[str, Any]]:
        """``name``'s rating after each of its games on ``board``, oldest first (ladder only)."""
        self.refresh()
        with self.lock:
            return list(self.tables.get(board, GameTable()).history.get(name, []))

    def to_json(self) -> dict[str, Any]:
        """Every game's standings, best rating first (after a ``refresh``)."""
        self.refresh()
        with self.lock:
            return {"games_rated": self.rated, "model": MODEL,
                    "games": {game: _ranked(table) for game, table in sorted(self.tables.items())}}


MODEL = "OpenSkill Plackett-Luce; rating = mu - 3 sigma"


def _ranked(table: GameTable) -> list[dict[str, Any]]:
    return sorted((standing.to_json(name) for name, standing in table.standings.items()),
                  key=lambda row: (-row["rating"], row["name"]))


__all__ = ["Leaderboard", "Standing", "sides"]
