"""``paiju records``: make corpora of seeded games, summarise any corpus, export the arena's finished games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from paiju.core.errors import PaijuError
from paiju.train.cli import AddressOption, BackendOption

records_app = typer.Typer(help="Corpora of game records: generate them from agents' games, summarise them.",
                          no_args_is_help=True)
console = Console(highlight=False)


@records_app.command("generate")
def generate_records(
    game: Annotated[str, typer.Option(help="Game: doudizhu, guandan or gongzhu.")],
    agents: Annotated[str, typer.Option(help="One agent for every seat, or one per seat separated by commas.")],
    games: Annotated[int, typer.Option(help="Games in the corpus (the last shard holds the rest when not a "
                                            "multiple of --shard-size; a rerun with more extends it).")],
    out: Annotated[Path, typer.Option(help="Corpus folder (created; a rerun continues it).")],
    seed: Annotated[int, typer.Option(help="Seed of the corpus: the same seed gives the same games.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    record_format: Annotated[str, typer.Option("--format", help="paiju (JSON records) or deeprocket (DouDizhu "
                                                                "text records).")] = "paiju",
    rules: Annotated[str | None, typer.Option(help='Ruleset options as JSON, e.g. \'{"mode": "full"}\' for '
                                                   'DouDizhu with bidding.')] = None,
    shard_size: Annotated[int, typer.Option(help="Games per shard file.")] = 1000,
) -> None:
    """Play seeded games of the agents and write them as a corpus, then print its summary (as `records stats`)."""
    from paiju.records.corpus import CorpusSettings
    from paiju.records.generate import GenerateConfig, generate, seat_agents
    from paiju.records.stats import summarize

    try:
        rules_json = json.loads(rules) if rules else {}
    except ValueError as error:
        raise PaijuError(f"--rules is not JSON: {error}") from None
    if not isinstance(rules_json, dict):
        raise PaijuError(f"--rules is a JSON object of ruleset options, got {rules}")
    settings = CorpusSettings(game=game, agents=seat_agents(game, agents), seed=seed, record_format=record_format,
                              rules=rules_json, shard_size=shard_size)
    written = generate(GenerateConfig(settings, games, out, workers, backend, address))
    console.print(f"{len(written)} shards written to {out}" + ("" if written else " (the corpus was complete)"))
    console.print(summarize(out, game, progress=True, workers=workers).table())


@records_app.command("stats")
def corpus_stats(
    path: Annotated[Path, typer.Argument(help="A corpus folder, any folder of record files (*.jsonl[.gz], *.json, "
                                              "DeepRocket *.txt[.gz]), or one such file.")],
    game: Annotated[str | None, typer.Option(help="Read only this game's records (others are skipped).")] = None,
    out: Annotated[Path | None, typer.Option(help="Also write the summary as JSON to this file.")] = None,
    workers: Annotated[int, typer.Option(help="Processes reading the files.")] = 1,
) -> None:
    """Summarise a corpus: files, games, skipped records, and actions and decisions (actions taken with two or
    more legal actions) by category."""
    from paiju.records.stats import summarize

    summary = summarize(path, game, progress=True, workers=workers)
    console.print(summary.table())
    if out is not None:
        try:
            out.write_text(json.dumps(summary.to_json(), indent=2) + "\n")
        except OSError as error:
            raise PaijuError(f"{out}: cannot write the summary: {error}") from None


@records_app.command("export")
def export(
    db: Annotated[Path, typer.Argument(help="The arena's SQLite file (paiju serve --db).")],
    out: Annotated[Path, typer.Option(help="Folder to write the records into (created).")],
    game: Annotated[str | None, typer.Option(help="Only this game's records.")] = None,
    since: Annotated[str | None, typer.Option(help="Only games finished at or after this UTC date or time "
                                                   "(ISO 8601, e.g. 2026-11-25).")] = None,
    until: Annotated[str | None, typer.Option(help="Only games finished before this UTC date or time.")] = None,
) -> None:
    """Write the arena's finished games as paiju JSON records (for paiju replay, records stats, train sl)."""
    from paiju.records.export import export_records

    written = export_records(db, out, game, since, until)
    console.print(f"{len(written)} records written to {out}")
