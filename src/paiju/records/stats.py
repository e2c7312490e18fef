"""``paiju records stats``: what a corpus holds — files, games, skipped records, actions by category.

Every good record (``CorpusReader``) is replayed once more from its opening position to count, for each
action, its category and whether it was a *decision*: a position where the player had two or more legal
actions (forced moves — a single legal action — are actions but not decisions). Categories:

- DouDizhu: the play's category (``Category.label``: ``solo``, ``pair``, ``trio+solo``, …, ``pass``) and the
  bids (``bid 0`` .. ``bid 3``) in full mode;
- GuanDan: the play's combination type (``single``, ``three with two``, ``straight flush``, …, ``pass``) and
  the gifts (``tribute``, ``back``);
- Gongzhu: ``lead`` (first card of a trick), ``follow suit``, ``discard`` (another suit, having none of the
  led one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from paiju.core.game import State
from paiju.core.registry import load_game
from paiju.eval.parallel import map_units
from paiju.records.corpus import CorpusReader

SKIPPED_KEPT = 20
"""Skipped records' messages kept in a summary (the count covers them all)."""
SKIPPED_SHOWN = 5
"""Of those, shown in the table."""


@dataclass
class GameCounts:
    """Counts over the games of one game name: ``categories[label] = [actions, decisions]``."""

    games: int = 0
    unfinished: int = 0
    actions: int = 0
    decisions: int = 0
    categories: dict[str, list[int]] = field(default_factory=dict)

    def add(self, other: GameCounts) -> None:
        """Add ``other``'s counts to these."""
        self.games += other.games
        self.unfinished += other.unfinished
        self.actions += other.actions
        self.decisions += other.decisions
        for label, (actions, decisions) in other.categories.items():
            entry = self.categories.setdefault(label, [0, 0])
            entry[0] += actions
            entry[1] += decisions

    def to_json(self) -> dict[str, Any]:
        mean = self.actions / self.games if self.games else 0.0
        return {"games": self.games, "unfinished": self.unfinished, "actions": self.actions,
                "decisions": self.decisions, "mean_actions": round(mean, 3),
                "categories": {label: {"actions": counts[0], "decisions": counts[1]}
                               for label, counts in self.categories.items()}}


@dataclass
class CorpusSummary:
    """A corpus's summary: ``per_game`` counts by game name, ``manifest`` of a generated corpus."""

    path: str
    files: int
    games: int = 0
    skipped: int = 0
    skipped_messages: list[str] = field(default_factory=list)
    per_game: dict[str, GameCounts] = field(default_factory=dict)
    manifest: dict[str, Any] | None = None

    @property
    def actions(self) -> int:
        return sum(counts.actions for counts in self.per_game.values())

    @property
    def decisions(self) -> int:
        return sum(counts.decisions for counts in self.per_game.values())

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "files": self.files, "games": self.games, "skipped": self.skipped,
                "skipped_messages": self.skipped_messages, "actions": self.actions, "decisions": self.decisions,
                "decision_rule": "an action taken with two or more legal actions",
                "per_game": {name: counts.to_json() for name, counts in self.per_game.items()},
                "manifest": self.manifest}

    def table(self) -> Group:
        """The summary as rich tables: an overview, then actions by category for each game."""
        overview = Table(title=f"Corpus {self.path}", show_header=False, title_justify="left")
        overview.add_column(style="bold")
        overview.add_column(overflow="fold")
        overview.add_row("files", str(self.files))
        overview.add_row("games", str(self.games))
        overview.add_row("skipped records", str(self.skipped))
        for message in self.skipped_messages[:SKIPPED_SHOWN]:
            overview.add_row("", message)
        if self.skipped > SKIPPED_SHOWN:
            overview.add_row("", f"... and {self.skipped - SKIPPED_SHOWN} more")
        overview.add_row("actions", str(self.actions))
        overview.add_row("decisions", f"{self.decisions} (actions with 2+ legal actions)")
        if self.manifest is not None:
            for key in ("game", "agents", "seed", "rules", "record_format", "shard_size"):
                value = self.manifest.get(key)
                overview.add_row(key.replace("_", " "), ", ".join(value) if isinstance(value, list) else str(value))
        parts: list[Table | Text] = [overview]
        for name, counts in self.per_game.items():
            mean = counts.actions / counts.games if counts.games else 0.0
            decisions = counts.decisions / counts.games if counts.games else 0.0
            caption = f"{counts.games} games, {mean:.1f} actions and {decisions:.1f} decisions a game"
            if counts.unfinished:
                caption += f", {counts.unfinished} unfinished"
            table = Table(title=f"{name}: actions by category", title_justify="left")
            for column in ("category", "actions", "share", "decisions"):
                table.add_column(column, justify="left" if column == "category" else "right")
            for label, (actions, chosen) in sorted(counts.categories.items(), key=lambda item: -item[1][0]):
                share = 100 * actions / counts.actions if counts.actions else 0.0
                table.add_row(label, str(actions), f"{share:.1f}%", str(chosen))
            table.add_row("all", str(counts.actions), "100.0%" if counts.actions else "", str(counts.decisions),
                          style="bold")
            parts += [table, Text(caption)]
        return Group(*parts)


def summarize(path: Path, game: str | None = None, progress: bool = False, workers: int = 1) -> CorpusSummary:
    """Read the corpus at ``path`` (only ``game``'s records when given) and count what it holds, its files read
    by ``workers`` processes."""
    reader = CorpusReader(Path(path), game)
    summary = CorpusSummary(path=str(path), files=len(reader.files),
                            manifest=reader.settings.to_json() if reader.settings else None)
    work = partial(_summarize_files, Path(path), game, tuple(reader.files))
    for part in map_units(work, len(reader.files), max(1, min(workers, len(reader.files))), progress=progress,
                          description="reading files"):
        for name, counts in part.per_game.items():
            summary.per_game.setdefault(name, GameCounts()).add(counts)
        summary.games += part.games
        summary.skipped += part.skipped
        summary.skipped_messages += part.skipped_messages[:SKIPPED_KEPT - len(summary.skipped_messages)]
    return summary


def _summarize_files(path: Path, game: str | None, files: tuple[Path, ...], chunk: range) -> list[CorpusSummary]:
    """One partial summary per file of ``chunk`` (run in a worker)."""
    reader = CorpusReader(path, game)
    parts = []
    for index in chunk:
        part = CorpusSummary(path=str(files[index]), files=1)
        before = len(reader.skipped)
        for corpus_game in reader.read_file(files[index]):
            name = corpus_game.record["game"]
            _count_game(part.per_game.setdefault(name, GameCounts()), name, corpus_game.record,
                        corpus_game.state.is_terminal())
            part.games += 1
        part.skipped_messages = reader.skipped[before:]
        part.skipped = len(part.skipped_messages)
        parts.append(part)
    return parts


def _count_game(counts: GameCounts, name: str, record: dict[str, Any], finished: bool) -> None:
    """Replay ``record`` (already checked by the reader) and count its actions and decisions by category."""
    game = load_game(name)
    label = CATEGORIES.get(name, _phase)
    state = game.opening_state(record)
    tally: Counter[tuple[str, bool]] = Counter()
    for seat, value in record["actions"]:
        action = state.action_from_json(value)
        tally[label(state, action), len(state.legal_actions()) >= 2] += 1
        state.apply(action, seat=seat)
    counts.games += 1
    counts.unfinished += not finished
    for (category, decided), number in tally.items():
        entry = counts.categories.setdefault(category, [0, 0])
        entry[0] += number
        counts.actions += number
        if decided:
            entry[1] += number
            counts.decisions += number


def _doudizhu(state: State, action: Any) -> str:
    from paiju.games.doudizhu.moves import Move

    return action.category.label if isinstance(action, Move) else f"bid {action}"


def _guandan(state: State, action: Any) -> str:
    from paiju.games.guandan.combos import Play

    return action.type.name.lower().replace("_", " ") if isinstance(action, Play) else state.phase


def _gongzhu(state: Any, action: Any) -> str:
    trick = state.trick
    if not trick:
        return "lead"
    from paiju.games.gongzhu.cards import CARD_INDEX

    return "follow suit" if CARD_INDEX[action] // 13 == trick[0] // 13 else "discard"


def _phase(state: State, action: Any) -> str:
    return state.phase


CATEGORIES: dict[str, Callable[[State, Any], str]] = {"doudizhu": _doudizhu, "guandan": _guandan,
                                                      "gongzhu": _gongzhu}
"""Each game's category of an action, from the position it is taken in; other games: the phase."""
