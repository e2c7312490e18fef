"""A corpus: a folder of game records, the input of supervised training and of ``paiju records stats``.

A generated corpus (``paiju.records.generate``) holds ``corpus.json`` (its settings: ``CORPUS_FORMAT``, game,
agents, seed, rules, record format, shard size) and shards ``games-KKKKK.<ext>``, shard ``k`` holding games
``k·size`` .. ``(k+1)·size − 1`` in order:

- ``paiju`` format: ``games-KKKKK.jsonl.gz``, one JSON record (``State.to_record()``) per line;
- ``deeprocket`` format (DouDizhu only): ``games-KKKKK.txt.gz``, two lines per game — ``Cards: …`` and
  ``Game process: …`` (DeepRocket appendix A).

The last shard may hold fewer games (a corpus whose size is not a multiple of the shard size). Shards are
gzip files written with a zero timestamp, so the same settings give the same bytes.

``CorpusReader`` reads any corpus — a generated folder, any folder of record files (recursively, sorted), or
one file — and replays every record through its game's engine: paiju shards ``*.jsonl`` / ``*.jsonl.gz`` (one
record a line), paiju record files ``*.json`` (``paiju.core.record``), and DeepRocket text ``*.txt`` /
``*.txt.gz`` (one or more games, each ``Cards: …`` then ``Game process: …``). A record that does not read or
replay is reported in ``skipped`` with its file and line, never yielded.
"""

from __future__ import annotations

import bisect
import gzip
import json
import os
import re
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paiju.core.errors import PaijuError, RecordError
from paiju.core.game import State
from paiju.core.record import MALFORMED, check_header, read_json
from paiju.core.registry import load_game

CORPUS_FORMAT = "paiju-corpus-1"
MANIFEST = "corpus.json"
FORMATS = ("paiju", "deeprocket")
SHARD_SUFFIX = {"paiju": ".jsonl.gz", "deeprocket": ".txt.gz"}


@dataclass(frozen=True)
class CorpusSettings:
    """What decides a generated corpus's games: the same settings give the same games, shard by shard."""

    game: str
    agents: tuple[str, ...]
    seed: int
    record_format: str = "paiju"
    rules: dict[str, Any] = field(default_factory=dict)
    shard_size: int = 1000

    def to_json(self) -> dict[str, Any]:
        return {"format": CORPUS_FORMAT, **asdict(self), "agents": list(self.agents)}

    @classmethod
    def from_json(cls, value: dict[str, Any], where: Path) -> CorpusSettings:
        if not isinstance(value, dict) or value.get("format") != CORPUS_FORMAT:
            raise PaijuError(f"{where}: not a paiju corpus manifest (expected \"format\": \"{CORPUS_FORMAT}\")")
        try:
            return cls(game=value["game"], agents=tuple(value["agents"]), seed=int(value["seed"]),
                       record_format=value["record_format"], rules=dict(value["rules"]),
                       shard_size=int(value["shard_size"]))
        except (KeyError, TypeError, ValueError) as error:
            raise PaijuError(f"{where}: corpus manifest is missing or has a bad {error}") from None


def shard_path(folder: Path, index: int, record_format: str) -> Path:
    return folder / f"games-{index:05d}{SHARD_SUFFIX[record_format]}"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and one ``os.replace``: a reader
    (or a resumed run) never sees half a file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes the file private; a corpus is read by anyone
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def gzip_lines(lines: list[str]) -> bytes:
    """The lines, newline-terminated, gzip-compressed with a zero timestamp (reproducible bytes)."""
    return gzip.compress("".join(line + "\n" for line in lines).encode(), mtime=0)


def read_settings(folder: Path) -> CorpusSettings | None:
    """The manifest of the corpus in ``folder``, or ``None`` when it has none."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        value = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise PaijuError(f"{path}: cannot read the corpus manifest: {error}") from None
    return CorpusSettings.from_json(value, path)


def shard_games(path: Path, record_format: str) -> int | None:
    """Games in a generated shard (its lines; two a game in DeepRocket format), ``None`` when it is missing or
    does not read to its end (a shard to write again)."""
    try:
        with gzip.open(path, "rb") as stream:
            lines = sum(1 for _ in stream)
    except (OSError, EOFError, zlib.error):
        return None
    return lines // 2 if record_format == "deeprocket" else lines


@dataclass
class CorpusGame:
    """One game read from a corpus: where it is (``FILE:LINE``), its paiju record and its replayed final state."""

    source: str
    record: dict[str, Any]
    state: State


KINDS = {".jsonl": "jsonl", ".jsonl.gz": "jsonl", ".json": "json", ".txt": "deeprocket", ".txt.gz": "deeprocket"}
"""Record files by name ending: paiju shards, single paiju records, DeepRocket text."""
_CARDS_LABEL = re.compile(r"cards\s*:", re.IGNORECASE)
_PROCESS_LABEL = re.compile(r"game\s*process\s*:", re.IGNORECASE)
_UNREADABLE = (OSError, EOFError, zlib.error)
_SHARD_NAME = re.compile(r"games-\d{5}\.(jsonl|txt)\.gz")


def file_kind(path: Path) -> str | None:
    """``jsonl``, ``json`` or ``deeprocket`` by the file's name ending, ``None`` for any other file."""
    name = path.name.lower()
    return next((kind for ending, kind in KINDS.items() if name.endswith(ending)), None)


def corpus_files(path: Path) -> list[Path]:
    """The record files of ``path``: the file itself, or every record file under the folder, sorted, leaving out
    hidden files and folders (a generated corpus's files being written) and manifests (``corpus.json``)."""
    if not path.exists():
        raise PaijuError(f"{path}: no such file or folder")
    if path.is_file():
        if file_kind(path) is None:
            raise PaijuError(f"{path}: not a record file (expected {', '.join('*' + end for end in KINDS)})")
        return [path]
    return sorted(file for file in path.rglob("*")
                  if file.is_file() and file_kind(file) is not None and file.name != MANIFEST
                  and not any(part.startswith(".") for part in file.relative_to(path).parts))


class CorpusReader:
    """The games of a corpus at ``path``, optionally only those of ``game``, each replayed by its engine.

    Iterating yields a ``CorpusGame`` per good record in file order; afterwards ``games`` counts them and
    ``skipped`` holds one ``FILE:LINE: problem`` message per record that did not read or replay (bad JSON, a
    bad card, an illegal play, another game than ``game``) and one ``FILE: problem`` per file that did not
    read to its end (a truncated gzip file: the records before the damage are still read). ``files`` lists the
    record files; ``settings`` is the manifest of a generated corpus, the folder read or the one holding the shard
read (its rules apply to its DeepRocket files: a full-mode game replays with the landlord's bid).
    """

    def __init__(self, path: Path, game: str | None = None) -> None:
        self.path = Path(path)
        self.files = corpus_files(self.path)
        if not self.files:
            raise PaijuError(f"{self.path}: no record files in this folder (expected "
                             f"{', '.join('*' + end for end in KINDS)})")
        self.settings = read_settings(self.path if self.path.is_dir() else self.path.parent) \
            if self.path.is_dir() or _SHARD_NAME.fullmatch(self.path.name) else None
        if game is not None:
            load_game(game)
            if self.settings is not None and self.settings.game != game:
                raise PaijuError(f"{self.path} is a corpus of {self.settings.game} games, not {game}")
        self.game = game if game is not None else (self.settings.game if self.settings else None)
        self.skipped: list[str] = []
        self.games = 0

    def __iter__(self) -> Iterator[CorpusGame]:
        self.skipped, self.games = [], 0
        for file in self.files:
            yield from self.read_file(file)

    def read_file(self, file: Path) -> Iterator[CorpusGame]:
        """The good games of one record file; ``skipped`` and ``games`` count on."""
        kind = file_kind(file)
        items = self._jsonl(file) if kind == "jsonl" else self._json(file) if kind == "json" else self._deeprocket(file)
        for item in items:
            if isinstance(item, str):
                self.skipped.append(item)
            else:
                self.games += 1
                yield item

    def _jsonl(self, file: Path) -> Iterator[CorpusGame | str]:
        number = 0
        try:
            with _open(file) as stream:
                for number, line in enumerate(stream, 1):
                    if line.strip():
                        yield self._paiju(f"{file}:{number}", line)
        except _UNREADABLE as error:
            yield f"{file}: unreadable after line {number} (truncated or damaged file): {error}"

    def _json(self, file: Path) -> Iterator[CorpusGame | str]:
        try:
            text = file.read_bytes()
        except OSError as error:
            yield f"{file}: cannot read the file: {error}"
            return
        yield self._paiju(f"{file}:1", text)

    def _paiju(self, source: str, data: bytes) -> CorpusGame | str:
        """A paiju JSON record's game, or the message saying why it is skipped."""
        try:
            record = check_header(read_json(data.decode("utf-8")))
        except UnicodeDecodeError as error:
            return f"{source}: not UTF-8 text: {error}"
        except RecordError as error:
            return f"{source}: {error}"
        if self.game is not None and record["game"] != self.game:
            return f"{source}: a {record['game']} record, not {self.game}"
        try:
            return CorpusGame(source, record, load_game(record["game"]).from_record(record))
        except MALFORMED as error:
            return f"{source}: the record does not replay: {error}"

    def _deeprocket(self, file: Path) -> Iterator[CorpusGame | str]:
        lines: list[str] = []
        damage = None
        try:
            with _open(file) as stream:
                for line in stream:
                    lines.append(line.decode("utf-8", errors="replace"))
        except _UNREADABLE as error:
            damage = f"{file}: unreadable after line {len(lines)} (truncated or damaged file): {error}"
        for line, cards, process in _deeprocket_games("".join(lines)):
            yield self._deeprocket_game(f"{file}:{line}", cards, process)
        if damage:
            yield damage

    def _deeprocket_game(self, source: str, cards: str, process: str | None) -> CorpusGame | str:
        if self.game is not None and self.game != "doudizhu":
            return f"{source}: a DeepRocket record (doudizhu), not {self.game}"
        if process is None:
            return f"{source}: DeepRocket cards without a 'Game process:' after them"
        from paiju.games.doudizhu.rules import DouDizhuRules
        from paiju.records.deeprocket_text import parse_deeprocket

        try:
            rules = (DouDizhuRules.from_json(self.settings.rules)
                     if self.settings is not None and self.settings.game == "doudizhu" else None)
            state = parse_deeprocket(cards, process, rules)
        except MALFORMED as error:
            return f"{source}: {error}"
        return CorpusGame(source, state.to_record(), state)


def _open(file: Path) -> Any:
    """The file as binary lines, gunzipped for ``*.gz``."""
    return gzip.open(file, "rb") if file.name.lower().endswith(".gz") else open(file, "rb")


def _deeprocket_games(text: str) -> Iterator[tuple[int, str, str | None]]:
    """(line, cards text, process text or ``None``) of each game of a DeepRocket text: a game runs from one
    ``Cards:`` label to the next, its process after ``Game process:``; text before the first label is not a
    game. A text without ``Cards:`` labels is one game, its cards on the first non-blank line (as
    ``load_deeprocket_file`` reads it)."""
    starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    labels = list(_CARDS_LABEL.finditer(text))
    if not labels:
        stripped = text.lstrip()
        if not stripped:
            return
        offset = len(text) - len(stripped)
        label = _PROCESS_LABEL.search(stripped)
        if label is not None:
            cards, process = stripped[:label.start()], stripped[label.end():]
        else:
            cards, _, process = stripped.partition("\n")
        yield bisect.bisect_right(starts, offset), cards, process
        return
    for number, label in enumerate(labels):
        end = labels[number + 1].start() if number + 1 < len(labels) else len(text)
        block = text[label.end():end]
        process_label = _PROCESS_LABEL.search(block)
        line = bisect.bisect_right(starts, label.start())
        if process_label is None:
            yield line, block, None
        else:
            yield line, block[:process_label.start()], block[process_label.end():]
