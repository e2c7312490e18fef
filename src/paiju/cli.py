"""The ``paiju`` command line. Thin: it parses arguments and calls library functions."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from paiju.agents.bridge_cli import bot, connect
from paiju.core.errors import PaijuError
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.solve_cli import solve_doudizhu
from paiju.records.cli import records_app
from paiju.train.cli import AddressOption, BackendOption, plot, train_app

app = typer.Typer(help="paiju: engines, bots and evaluation for DouDizhu, GuanDan and Gongzhu.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
play_app = typer.Typer(help="Play a game against bots in the terminal.", no_args_is_help=True)
eval_app = typer.Typer(help="Evaluate agents against each other.", no_args_is_help=True)
legal_app = typer.Typer(help="Rules oracle: legal plays for JSON-lines queries on stdin.", no_args_is_help=True)
solve_app = typer.Typer(help="Exact endgame solvers: who wins with every hand visible.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(eval_app, name="eval")
app.add_typer(legal_app, name="legal")
app.add_typer(train_app, name="train")
app.add_typer(solve_app, name="solve")
app.add_typer(records_app, name="records")
solve_app.command("doudizhu")(solve_doudizhu)
app.command("plot")(plot)
app.command("bot")(bot)
app.command("connect")(connect)
console = Console(highlight=False)

def _print_version(value: bool) -> None:
    if value:
        from paiju import __version__

        console.print(f"paiju {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                   help="Print paiju's version and exit.")] = False) -> None:
    """Options before any command."""


RulesOption = Annotated[str | None, typer.Option(help='Ruleset options as JSON, e.g. \'{"bomb_as_kickers": true}\'; '
                                                     'DouDizhu also a preset: laizi (癞子), tiandi (two wild ranks).')]


def _doudizhu_rules(mode: str, rules_json: str | None) -> DouDizhuRules:
    return DouDizhuRules.from_text(rules_json, mode)  # type: ignore[arg-type]


@app.command()
def demo(decks: Annotated[int, typer.Option(help="Decks per pairing.")] = 1000,
         seed: Annotated[int, typer.Option(help="Seed of the whole tournament.")] = 2026,
         workers: Annotated[int, typer.Option(help="Worker processes.")] = 2) -> None:
    """A seeded round-robin among the built-in DouDizhu agents, role-swapped, with result tables."""
    from paiju.eval.tournament import TournamentConfig, run_tournament

    _report(run_tournament(TournamentConfig(("rules", "random"), decks=decks, seed=seed, workers=workers),
                           console=console), None)


@app.command("serve")
def serve(host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
          port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
          db: Annotated[Path, typer.Option(help="SQLite file of finished games (created on first run).")]
          = Path("paiju-arena.sqlite3"),
          move_timeout: Annotated[float, typer.Option(help="Seconds a person or network bot has per move; then "
                                                           "the default action is played.")] = 60.0,
          bot_delay: Annotated[float, typer.Option(help="Seconds a built-in bot waits before acting.")] = 0.5,
          platform_games: Annotated[int, typer.Option(help="GuanDan platform endpoint: games per match.")] = 1,
          platform_group_by_name: Annotated[bool, typer.Option(
              help="GuanDan platform endpoint: match only clients connected under the same name.")] = False,
          max_tables: Annotated[int, typer.Option(help="Tables waiting or playing at once.")] = 256,
          max_tables_per_client: Annotated[int, typer.Option(
              help="Tables in progress one client address may have created.")] = 8,
          max_reservations_per_client: Annotated[int, typer.Option(
              help="Open seats one client address may hold reserved.")] = 8,
          requests_per_minute: Annotated[int, typer.Option(
              help="Table creations and seat reservations per client address per minute.")] = 120,
          reservation_timeout: Annotated[float, typer.Option(
              help="Seconds a seat token may go unused before the seat is given up.")] = 300.0,
          keep_games: Annotated[int, typer.Option(
              help="Finished games kept in the database, oldest deleted first (0: keep all).")] = 0,
          admin_token: Annotated[str | None, typer.Option(
              envvar="PAIJU_ADMIN_TOKEN", help="Secret for admin calls (pause, ban, resume a ladder bot), at least "
                                               "16 characters (default: $PAIJU_ADMIN_TOKEN; none: admin calls off).")]
          = None,
          ws_compression: Annotated[bool, typer.Option(
              help="Compress websocket messages (permessage-deflate) for clients that offer it: less traffic, "
                   "more server CPU.")] = False,
          ladder_move_timeout: Annotated[float, typer.Option(help="Ladder: seconds a bot has per move.")] = 10.0,
          ladder_house: Annotated[str | None, typer.Option(
              help="Ladder: comma-separated house bots that fill tables (default: each game's graded set, random "
                   "to search; '' for none).")] = None,
          open_browser: Annotated[bool, typer.Option(
              help="Open the arena's page in the browser once it listens (where a graphical browser can be).")]
          = False,
          ) -> None:
    """The arena: a browser table for people, websocket seats for bots, a rated ladder for registered bots, the
    GuanDan platform endpoint."""
    from paiju.serve.cli import serve as run_server
    from paiju.serve.settings import ServeSettings

    try:
        settings = ServeSettings(
            db_path=db, move_timeout=move_timeout, bot_delay=bot_delay, platform_games=platform_games,
            platform_group_by_name=platform_group_by_name, max_tables=max_tables,
            max_tables_per_client=max_tables_per_client, max_reservations_per_client=max_reservations_per_client,
            requests_per_minute=requests_per_minute, reservation_timeout=reservation_timeout,
            max_stored_games=keep_games, ws_compression=ws_compression, admin_token=admin_token,
            ladder_move_timeout=ladder_move_timeout,
            ladder_house=None if ladder_house is None else tuple(name for name in ladder_house.split(",") if name))
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None
    run_server(settings, host, port, open_browser)


@play_app.command("doudizhu")
def play_doudizhu(
    mode: Annotated[str, typer.Option(help="full (with bidding) or research (you are not bidding).")] = "full",
    seat: Annotated[int, typer.Option(help="Your seat, 0-2.")] = 0,
    bot: Annotated[str, typer.Option(help="Agent for the other two seats (dmc: the shipped DouZero-style "
                                          "networks).")] = "dmc",
    seed: Annotated[int | None, typer.Option(help="Deal seed (random if omitted).")] = None,
    rules: RulesOption = None,
    bidding: Annotated[str, typer.Option(help="rules (each agent's own bids) or learned (the bots bid with the "
                                              "learned bid model, learned-bid:BOT; full mode only).")] = "rules",
) -> None:
    """Play DouDizhu in the terminal against two bots (bidding, then play; 'hint' suggests a play)."""
    from paiju.agents.bidding.cli import with_bidding
    from paiju.play.doudizhu_view import DouDizhuView

    bot = with_bidding(bot, bidding, mode)
    _play_terminal("doudizhu", DouDizhuView(), seat, bot, "rules", seed, _doudizhu_rules(mode, rules),
                   f"DouDizhu, {mode} mode")


@play_app.command("gongzhu")
def play_gongzhu(
    seat: Annotated[int, typer.Option(help="Your seat, 0-3 (your partner sits opposite).")] = 0,
    bot: Annotated[str, typer.Option(help="Agent for the other three seats.")] = "mr-greed",
    seed: Annotated[int | None, typer.Option(help="Deal seed (random if omitted).")] = None,
    leader: Annotated[int, typer.Option(help="Seat that leads the first trick.")] = 0,
) -> None:
    """Play Gongzhu in the terminal with a bot partner against two bots ('hint' suggests a card)."""
    from paiju.games.gongzhu import GongzhuRules
    from paiju.play.gongzhu_view import GongzhuView

    _play_terminal("gongzhu", GongzhuView(), seat, bot, "mr-greed", seed, GongzhuRules(first_leader=leader),
                   "Gongzhu")


@play_app.command("guandan")
def play_guandan(
    seat: Annotated[int, typer.Option(help="Your seat, 0-3 (your partner sits opposite).")] = 0,
    bot: Annotated[str, typer.Option(help="Agent for the other three seats (dmc: the shipped DanZero-style "
                                          "network).")] = "dmc",
    seed: Annotated[int | None, typer.Option(help="Deal seed (random if omitted).")] = None,
    rounds: Annotated[int, typer.Option(help="Rounds to play, levels carried from round to round (tribute from "
                                             "round 2); 0: a whole game, until a team wins at A.")] = 1,
    start_level: Annotated[str, typer.Option(help="Level of the first round.")] = "2",
) -> None:
    """Play GuanDan in the terminal with a bot partner against two bots (tribute included from round 2)."""
    from paiju.games.guandan import GuanDanRules
    from paiju.play.guandan_view import GuanDanView

    _play_terminal("guandan", GuanDanView(), seat, bot, "rules", seed,
                   GuanDanRules(rounds=rounds or None, start_level=start_level), "GuanDan")


def _play_terminal(game_name: str, view: object, seat: int, bot: str, hint: str, seed: int | None, rules: object,
                   title: str) -> None:
    import random

    from paiju import load_game, make_agent
    from paiju.eval.seeds import derive_seed
    from paiju.play.terminal import play_terminal

    game = load_game(game_name)
    if not 0 <= seat < game.num_players:
        raise PaijuError(f"seat must be 0..{game.num_players - 1}, got {seat}")
    seed = random.randrange(2**31) if seed is None else seed
    console.print(f"{title}, deal seed {seed}. You are seat {seat}.")
    bots = [None if s == seat else make_agent(bot, game_name, derive_seed(seed, "agent", s))
            for s in range(game.num_players)]
    try:
        play_terminal(game, view, bots, seat, seed, hint_agent=make_agent(hint, game_name, seed),  # type: ignore[arg-type]
                      rules=rules, console=console)
    finally:
        for agent in bots:
            if agent is not None:
                agent.close()


@eval_app.command("doudizhu")
def eval_doudizhu(
    agent_a: Annotated[str, typer.Argument(help="Agent A (random, rules, ext:COMMAND, ...).")],
    agent_b: Annotated[str, typer.Argument(help="Agent B.")],
    decks: Annotated[int, typer.Option(help="Number of decks; each is played with roles swapped.")] = 1000,
    mode: Annotated[str, typer.Option(help="research (fixed landlord) or full (bidding).")] = "research",
    seed: Annotated[int, typer.Option(help="Seed of the evaluation.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    protocol: Annotated[str, typer.Option(help="role-swap (DouZero/PerfectDou) or two-table (DeepRocket).")]
    = "role-swap",
    out: Annotated[Path | None, typer.Option(help="Write the full report as JSON here.")] = None,
    bidding: Annotated[str, typer.Option(help="rules (each agent's own bids) or learned (every agent bids with "
                                              "the learned bid model, learned-bid:AGENT; --mode full only).")]
    = "rules",
    rules: RulesOption = None,
) -> None:
    """Role-swapped duplicate evaluation of A against B: WP and ADP per role with 95 % intervals."""
    from paiju.agents.bidding.cli import with_bidding
    from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu

    agent_a, agent_b = with_bidding(agent_a, bidding, mode), with_bidding(agent_b, bidding, mode)
    options = {k: v for k, v in _doudizhu_rules(mode, rules).to_json().items() if k != "mode"}
    config = DouDizhuEvalConfig(agent_a=agent_a, agent_b=agent_b, decks=decks, mode=mode, seed=seed,
                                workers=workers, protocol=protocol, backend=backend, address=address,
                                rules=options)
    _report(evaluate_doudizhu(config, progress=True), out)


@eval_app.command("gongzhu")
def eval_gongzhu(
    agent_a: Annotated[str, typer.Argument(help="Agent A, both partners (random, mr-if, mr-greed, ext:COMMAND).")],
    agent_b: Annotated[str | None, typer.Argument(help="Agent B (with --wpg: mr-greed).")] = None,
    deals: Annotated[int, typer.Option(help="Deals; each is played twice, hands rotated one seat.")] = 1024,
    seed: Annotated[int, typer.Option(help="Seed of the evaluation.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    wpg: Annotated[bool, typer.Option(help="Winning points over Greed: A against two mr-greed, 1024 x 2.")] = False,
    ms: Annotated[int | None, typer.Option(help="Milliseconds per decision, given as ms=N to every agent with a "
                                                "time budget (scrofazero, search); the others play as named. Results "
                                                "then depend on the machine's speed.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the full report as JSON here.")] = None,
) -> None:
    """Duplicate evaluation of team A against team B: mean points per game with its standard error, and each
    team's decision times."""
    from dataclasses import replace

    from paiju.eval.gongzhu import GongzhuEvalConfig, evaluate_gongzhu, wpg_config

    if wpg:
        config = wpg_config(agent_a, seed)
    elif agent_b is None:
        raise PaijuError("name agent B, or use --wpg to play against mr-greed")
    else:
        config = GongzhuEvalConfig(agent_a, agent_b, deals, seed)
    config = replace(config, workers=workers, backend=backend, address=address, ms=ms)
    _report(evaluate_gongzhu(config, progress=True), out)


@eval_app.command("guandan")
def eval_guandan(
    agent_a: Annotated[str, typer.Argument(help="Agent of team A, seats 0+2 (random, rules, ext:COMMAND).")],
    agent_b: Annotated[str, typer.Argument(help="Agent of team B, seats 1+3.")],
    games: Annotated[int, typer.Option(help="Games in all: half as many deals, each played as dealt and rotated.")]
    = 1000,
    rounds: Annotated[int | None, typer.Option(help="Rounds per game (1: quick single rounds); default: until a "
                                                    "team wins at A.")] = None,
    start_level: Annotated[str, typer.Option(help="Level of the first round.")] = "2",
    seed: Annotated[int, typer.Option(help="Seed of the evaluation.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    out: Annotated[Path | None, typer.Option(help="Write the full report as JSON here.")] = None,
) -> None:
    """Duplicate evaluation of two GuanDan teams: game win rate, round outcomes, levels gained per round."""
    from paiju.eval.guandan import GuanDanEvalConfig, evaluate_guandan

    config = GuanDanEvalConfig(agent_a, agent_b, deals=(games + 1) // 2, seed=seed, workers=workers, rounds=rounds,
                               start_level=start_level, backend=backend, address=address)
    _report(evaluate_guandan(config, progress=True), out)


@eval_app.command("matrix")
def eval_matrix(
    game: Annotated[str, typer.Argument(help="Game (gongzhu).")],
    agents: Annotated[list[str], typer.Argument(help="Two or more agents; three or more for the intransitivity.")],
    deals: Annotated[int, typer.Option(help="Deals per pair, each played twice.")] = 1024,
    seed: Annotated[int, typer.Option(help="Seed of the evaluation (the same deals for every pair).")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    backend: BackendOption = "local",
    address: AddressOption = None,
    bootstrap: Annotated[int, typer.Option(help="Bootstrap resamples of the deals for the uncertainty of ε.")]
    = 1000,
    out: Annotated[Path | None, typer.Option(help="Write the full report as JSON here.")] = None,
) -> None:
    """All pairs' mean scores and the intransitivity ε (ScrofaZero Eq. 17) with a bootstrap interval."""
    from paiju.eval.matrix import MatrixConfig, score_matrix

    config = MatrixConfig(game, tuple(agents), deals, seed, workers, bootstrap, backend=backend, address=address)
    _report(score_matrix(config, progress=True), out)


@eval_app.command("round-robin")
def eval_round_robin(
    agents: Annotated[list[str], typer.Argument(help="Two or more DouDizhu agents (random, rules, dmc, ...).")],
    decks: Annotated[int, typer.Option(help="Role-swapped decks per pair.")] = 1000,
    mode: Annotated[str, typer.Option(help="research (fixed landlord) or full (bidding).")] = "research",
    seed: Annotated[int, typer.Option(help="Seed of the tournament (the same decks in every pair).")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    decks_with: Annotated[list[str] | None, typer.Option(
        "--decks-with", metavar="SPEC=N",
        help="Pairs with an agent whose spec starts with SPEC play N decks, e.g. search=100 (repeatable).")] = None,
    out: Annotated[Path | None, typer.Option(help="Folder for tournament.json, .md and .png, and each pair's "
                                                  "report as it finishes (a rerun reuses them).")] = None,
    backend: BackendOption = "local",
    address: AddressOption = None,
) -> None:
    """Round robin: every pair role-swapped on the same decks; ADP and WP matrices, results by role."""
    from paiju.eval.tournament import TournamentConfig, parse_decks_with, run_tournament, write_tournament

    config = TournamentConfig(tuple(agents), decks=decks, mode=mode, seed=seed, workers=workers,
                              decks_with=tuple(parse_decks_with(text) for text in decks_with or ()),
                              backend=backend, address=address)
    report = run_tournament(config, out, console)
    _report(report, None)
    if out is not None:
        for path in write_tournament(report, out):
            console.print(f"written: {path}")


def _report(report: object, out: Path | None) -> None:
    """Print a report's tables and write its JSON to ``out`` if given."""
    for table in _tables(report.table()):  # type: ignore[attr-defined]
        console.print(table)
    if out is not None:
        out.write_text(json.dumps(report.to_json(), indent=2) + "\n")  # type: ignore[attr-defined]
        console.print(f"report written to {out}")


def _tables(tables: object) -> list[object]:
    return list(tables) if isinstance(tables, list | tuple) else [tables]


@legal_app.command("doudizhu")
def legal_doudizhu(rules: RulesOption = None,
                   mode: Annotated[str, typer.Option(help="Ruleset mode (does not change plays).")] = "research",
                   ) -> None:
    """Read {"hand": "...", "last": "..."} per line; write {"legal": [...]} per line, sorted ("" = pass)."""
    from paiju.games.doudizhu.oracle import answer

    ruleset = _doudizhu_rules(mode, rules)
    _answer_lines(lambda line: answer(line, ruleset))


def _answer_lines(answer: Callable[[str], dict[str, object]]) -> None:
    """Answer each non-empty stdin line with one JSON line; exit 1 if any line was refused."""
    failed = False
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = answer(line)
        failed |= "error" in reply
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    if failed:
        raise typer.Exit(1)


@legal_app.command("gongzhu")
def legal_gongzhu() -> None:
    """Read {"hand": [...], "trick": [...]} per line; write {"legal": [...]} per line, in card order."""
    from paiju.games.gongzhu.oracle import answer

    _answer_lines(answer)


@legal_app.command("guandan")
def legal_guandan() -> None:
    """Read {"hand": [...], "level": "7", "last": [type, rank, cards] | null} per line; write {"legal": [...]}."""
    from paiju.games.guandan.oracle import answer

    _answer_lines(answer)


@app.command()
def replay(path: Annotated[Path, typer.Argument(help="A paiju JSON record, or a DeepRocket record text file.")]
           ) -> None:
    """Print a recorded game move by move; a bad record is one line naming the file and the problem (exit 2)."""
    try:
        lines = _replay_lines(path)
    except PaijuError as error:
        report(error)
        raise typer.Exit(2) from None
    for line in lines:
        console.print(line)


def _replay_lines(path: Path) -> list[str]:
    """The account of the record at ``path``: paiju's JSON record format for a ``.json`` file, else DeepRocket's
    text; ``RecordError`` naming the file and the problem."""
    from paiju.core.errors import RecordError
    from paiju.core.record import load_record
    from paiju.core.replay import replay_lines

    if path.suffix.lower() == ".json":
        record = load_record(path)
    else:
        from paiju.records.deeprocket_text import load_deeprocket_file

        record = load_deeprocket_file(path).to_record()
    try:
        return replay_lines(record)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None


@app.command()
def selfcheck(game: Annotated[str, typer.Argument(help="Game name.")],
              games: Annotated[int, typer.Option(help="Number of random games.")] = 1000,
              seed: Annotated[int, typer.Option(help="First seed.")] = 0,
              mode: Annotated[str | None, typer.Option(help="DouDizhu mode (research or full); default both.")]
              = None) -> None:
    """Play random games checking the engine's invariants at every step (a soak test)."""
    import time

    from rich.progress import Progress

    from paiju import load_game
    from paiju.core.selfcheck import selfcheck as run_selfcheck

    engine = load_game(game)
    variants = [None]
    if game == "doudizhu":
        variants = [_doudizhu_rules(m, None) for m in ([mode] if mode else ["research", "full"])]
    failures = 0
    for rules in variants:
        label = getattr(rules, "mode", "default")
        start = time.perf_counter()
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"{game} {label}", total=games)
            report = run_selfcheck(engine, games, seed=seed, rules=rules,
                                   on_game=lambda _, task=task: progress.advance(task))
        elapsed = time.perf_counter() - start
        console.print(f"{game} ({label}): {report.games} games, {report.steps} steps, "
                      f"{len(report.failures)} failures, {elapsed:.1f} s")
        for failure in report.failures:
            console.print(f"[red]FAIL[/red] {failure}")
        failures += len(report.failures)
    if failures:
        raise typer.Exit(1)


def main() -> None:
    """Entry point: run the CLI, turning paiju's errors into a one-line message and exit code 2."""
    try:
        app()
    except PaijuError as error:
        report(error)
        sys.exit(2)


def report(error: PaijuError) -> None:
    """Print ``error`` as one line, verbatim (messages quote plays such as ``[seat, action]``, which rich
    would read as markup)."""
    from rich.markup import escape

    console.print(f"[red]error:[/red] {escape(str(error))}", soft_wrap=True)


if __name__ == "__main__":
    main()
