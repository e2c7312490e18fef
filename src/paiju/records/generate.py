"""``paiju records generate``: a corpus of seeded games between any agents, in shards, resumable.

Game ``i`` is dealt from ``derive_seed(seed, "game", i)``; the agents of shard ``k`` are built with the seeds
``derive_seed(seed, "agent", k, s)`` (seat ``s``) and play its games in order. A shard is written in one
step when all its games are played (``paiju.records.corpus.write_atomically``), so a run stopped at any
point continues with the missing shards and never writes a game twice; shards do not depend on each
other, so the corpus is the same for any number of workers, any backend and any interruptions. On a Ray
cluster the corpus folder must be one that every node sees (a shared file system).

A games count that is not a multiple of the shard size makes the last shard smaller. A later run asking for
more games writes that shard again in full (its first games come out the same) and adds the shards after it;
a shard holding at least the games asked of it is kept.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from paiju.agents import agent_names, make_agent
from paiju.core.errors import PaijuError
from paiju.core.game import State
from paiju.core.match import play_game
from paiju.core.registry import load_game
from paiju.eval.parallel import Backend, Parallelism, map_units
from paiju.eval.seeds import derive_seed
from paiju.records.annotations import SearchLog
from paiju.records.corpus import (
    FORMATS,
    MANIFEST,
    CorpusSettings,
    gzip_lines,
    read_settings,
    shard_games,
    shard_path,
    write_atomically,
)


@dataclass(frozen=True)
class GenerateConfig:
    """A corpus to make: ``games`` games with ``settings`` in ``out``, played by ``workers`` processes or Ray
    tasks."""

    settings: CorpusSettings
    games: int
    out: Path
    workers: int = 1
    backend: Backend = "local"
    """``local`` (processes here) or ``ray`` (Ray tasks, here or on a cluster); the corpus does not depend on it."""
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""


def seat_agents(game: str, agents: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """One agent name per seat from ``A`` (every seat) or ``A,B,C`` (seat by seat)."""
    names = [name.strip() for name in agents.split(",")] if isinstance(agents, str) else list(agents)
    seats = load_game(game).num_players
    if len(names) == 1:
        names *= seats
    if len(names) != seats or not all(names):
        raise PaijuError(f"{game} has {seats} seats: name one agent for all of them or {seats} separated by commas, "
                         f"got {','.join(names)!r}")
    return tuple(names)


def generate(config: GenerateConfig, progress: bool = True) -> list[int]:
    """Play and write the missing (or too short) shards of the corpus; returns the indices of the shards
    written now."""
    settings = config.settings
    check_settings(settings)
    if config.games < 1 or settings.shard_size < 1:
        raise PaijuError(f"need at least one game and one game a shard, got games={config.games}, "
                         f"shard size={settings.shard_size}")
    parallelism = Parallelism.of(config)
    if config.out.exists() and not config.out.is_dir():
        raise PaijuError(f"{config.out} is a file; a corpus is a folder")
    existing = read_settings(config.out) if config.out.is_dir() else None
    if existing is not None and existing != settings:
        raise PaijuError(f"{config.out} holds a corpus made with other settings ({config.out / MANIFEST}); "
                         "generate into a new folder, or repeat that corpus's settings to extend it")
    with parallelism.ready():
        config.out.mkdir(parents=True, exist_ok=True)
        if existing is None:
            write_atomically(config.out / MANIFEST, _manifest_text(settings).encode())
        plan = shard_plan(settings, config.out, config.games)
        work = partial(_play_shards, settings, config.out, tuple(plan))
        map_units(work, len(plan), parallelism, progress=progress, description="shards")
    return [index for index, _ in plan]


def check_settings(settings: CorpusSettings) -> None:
    """``PaijuError`` naming the first setting no corpus can be made with: an unknown game, agent, rules option
    or record format, or DeepRocket's format for a game other than DouDizhu."""
    game = load_game(settings.game)
    if settings.record_format not in FORMATS:
        raise PaijuError(f"record format must be one of {', '.join(FORMATS)}, got {settings.record_format!r}")
    if settings.record_format == "deeprocket" and settings.game != "doudizhu":
        raise PaijuError(f"the deeprocket record format holds DouDizhu games only, not {settings.game}")
    known = agent_names(settings.game)
    for name in settings.agents:
        if name.partition(":")[0] not in known:
            raise PaijuError(f"unknown agent {name!r} for {settings.game}; known: {', '.join(known)}")
    if len(settings.agents) != game.num_players:
        raise PaijuError(f"{settings.game} has {game.num_players} seats, got {len(settings.agents)} agents")
    if settings.rules:
        game.rules_from_json(settings.rules)


def shard_plan(settings: CorpusSettings, out: Path, games: int) -> list[tuple[int, int]]:
    """(shard index, games in it) of each shard to write for a corpus of ``games`` games in ``out``: those
    missing, unreadable, or holding fewer games than asked (a smaller last shard of an earlier run)."""
    size = settings.shard_size
    plan = []
    for index in range(math.ceil(games / size)):
        wanted = min(size, games - index * size)
        held = shard_games(shard_path(out, index, settings.record_format), settings.record_format)
        if held is None or held < wanted:
            plan.append((index, wanted))
    return plan


def _manifest_text(settings: CorpusSettings) -> str:
    return json.dumps(settings.to_json(), indent=2) + "\n"


def _play_shards(settings: CorpusSettings, out: Path, shards: tuple[tuple[int, int], ...],
                 chunk: range) -> list[int]:
    for unit in chunk:
        write_shard(settings, out, *shards[unit])
    return list(chunk)


def write_shard(settings: CorpusSettings, out: Path, index: int, games: int | None = None) -> None:
    """Play the first ``games`` games of shard ``index`` (default: the shard size) and write the shard."""
    game = load_game(settings.game)
    rules = game.rules_from_json(settings.rules) if settings.rules else None
    agents = [make_agent(name, settings.game, derive_seed(settings.seed, "agent", index, seat))
              for seat, name in enumerate(settings.agents)]
    lines: list[str] = []
    try:
        first = index * settings.shard_size
        for number in range(first, first + (settings.shard_size if games is None else games)):
            log = SearchLog(game, agents, settings.agents)
            state = play_game(game, agents, derive_seed(settings.seed, "game", number), rules, on_action=log)
            lines.extend(_record_lines(state, settings.record_format, log))
    finally:
        for agent in agents:
            agent.close()
    write_atomically(shard_path(out, index, settings.record_format), gzip_lines(lines))


def _record_lines(state: State, record_format: str, log: SearchLog) -> list[str]:
    """A game's lines in a shard: its JSON record with its searched decisions' values
    (``paiju.records.annotations``), or DeepRocket's cards and game process."""
    if record_format == "deeprocket":
        from paiju.records.deeprocket_text import to_deeprocket

        cards, process = to_deeprocket(state)  # type: ignore[arg-type]
        return [f"Cards: {cards}", f"Game process: {process}"]
    return [json.dumps(log.annotate(state.to_record()), separators=(",", ":"))]
