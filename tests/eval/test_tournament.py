import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.eval import tournament
from paiju.eval.doudizhu import DouDizhuEvalConfig, evaluate_doudizhu
from paiju.eval.tournament import (
    PAIRS_FOLDER,
    TournamentConfig,
    TournamentReport,
    pair_file_name,
    parse_decks_with,
    run_tournament,
    write_tournament,
)

AGENTS = ("random", "rules", "dmc")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[TournamentReport, Path]:
    """A three-agent tournament on three decks (four for the pair without ``rules``), written to a folder."""
    folder = tmp_path_factory.mktemp("tournament")
    config = TournamentConfig(AGENTS, decks=3, seed=5, decks_with=(("ran", 4), ("dm", 4), ("rul", 3)))
    report = run_tournament(config, folder)
    write_tournament(report, folder)
    return report, folder


def without_wall_time(report: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in report.items() if key != "wall_time_s"}


# -- results -----------------------------------------------------------------------------------------


def test_json_holds_every_pair_report_as_a_lone_evaluation_gives_it(played: tuple[TournamentReport, Path]) -> None:
    _, folder = played
    result = json.loads((folder / "tournament.json").read_text())
    assert [(pair["agent_a"], pair["agent_b"]) for pair in result["pairs"]] == [
        ("random", "rules"), ("random", "dmc"), ("rules", "dmc")]
    first = result["pairs"][0]["report"]
    alone = evaluate_doudizhu(DouDizhuEvalConfig("random", "rules", decks=3, seed=5), progress=False).to_json()
    assert without_wall_time(first) == without_wall_time(json.loads(json.dumps(alone)))
    for pair in result["pairs"]:
        assert len(pair["report"]["per_deck"]) == pair["decks"]
        saved = json.loads((folder / PAIRS_FOLDER / pair_file_name(pair["agent_a"], pair["agent_b"])).read_text())
        assert saved == pair["report"]


def test_adp_matrix_is_antisymmetric_with_zero_diagonal_and_each_pairs_overall_adp(
        played: tuple[TournamentReport, Path]) -> None:
    _, folder = played
    result = json.loads((folder / "tournament.json").read_text())
    adp = [[cell["value"] for cell in row] for row in result["matrices"]["adp"]]
    agents = result["agents"]
    assert agents == list(AGENTS)
    for i in range(3):
        assert adp[i][i] == 0
        assert result["matrices"]["wp"][i][i] is None
        for j in range(3):
            assert adp[i][j] == pytest.approx(-adp[j][i])
    assert any(adp[i][j] != 0 for i in range(3) for j in range(3))
    for pair in result["pairs"]:
        i, j = agents.index(pair["agent_a"]), agents.index(pair["agent_b"])
        figures = pair["report"]["agents"]
        assert result["matrices"]["adp"][i][j] == figures["A"]["overall"]["adp"]
        assert result["matrices"]["adp"][j][i] == figures["B"]["overall"]["adp"]
        assert result["matrices"]["wp"][i][j] == figures["A"]["overall"]["wp"]
        assert result["matrices"]["decks"][i][j] == result["matrices"]["decks"][j][i] == pair["decks"]


def test_decks_with_changes_only_the_matching_pairs_and_the_tables_show_it(
        played: tuple[TournamentReport, Path]) -> None:
    report, folder = played
    assert {(p.config.agent_a, p.config.agent_b): p.config.decks for p in report.pairs} == {
        ("random", "rules"): 3, ("random", "dmc"): 4, ("rules", "dmc"): 3}  # the smallest matching count
    markdown = (folder / "tournament.md").read_text()
    assert "| random | dmc | landlord | 4 |" in markdown
    assert "| dmc | rules | peasants | 3 |" in markdown
    assert "| random | rules | overall | 3 |" in markdown
    plain = TournamentConfig(AGENTS, decks=7)
    assert [p.decks for p in plain.pairings()] == [7, 7, 7]
    assert [p.decks for p in TournamentConfig(AGENTS, decks=7, decks_with=(("dmc", 2),)).pairings()] == [7, 2, 2]


def test_markdown_has_both_matrices_and_the_role_table(played: tuple[TournamentReport, Path]) -> None:
    report, folder = played
    markdown = (folder / "tournament.md").read_text()
    assert markdown == report.markdown()
    adp = report.adp_matrix()
    assert f"| rules | {adp[1][0]} | – | {adp[1][2]} |" in markdown
    assert markdown.count("| agent \\ opponent | random | rules | dmc |") == 2
    roles = [line for line in markdown.splitlines() if line.startswith(("| random |", "| rules |", "| dmc |"))
             and line.count("|") == 7]
    assert len(roles) == 6 * 3  # each agent against each opponent: landlord, peasants, overall
    assert len(report.table()) == 3


def test_png_is_written_and_valid(played: tuple[TournamentReport, Path]) -> None:
    _, folder = played
    image = (folder / "tournament.png").read_bytes()
    assert image.startswith(PNG_SIGNATURE)
    assert image[12:16] == b"IHDR" and int.from_bytes(image[16:20], "big") > 100


# -- resuming ----------------------------------------------------------------------------------------


def test_rerun_reuses_the_pair_files_and_replays_only_missing_pairs(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    config = TournamentConfig(("random", "rules", "rules:"), decks=2, seed=1)
    first = run_tournament(config, tmp_path)
    played: list[tuple[str, str]] = []

    def counted(pairing: DouDizhuEvalConfig, progress: bool = True) -> Any:
        played.append((pairing.agent_a, pairing.agent_b))
        return evaluate_doudizhu(pairing, progress)

    monkeypatch.setattr(tournament, "evaluate_doudizhu", counted)
    again = run_tournament(config, tmp_path)
    assert played == []
    assert all(pair.reused for pair in again.pairs)
    assert again.markdown() == first.markdown()
    (tmp_path / PAIRS_FOLDER / pair_file_name("random", "rules:")).unlink()
    third = run_tournament(config, tmp_path)
    assert played == [("random", "rules:")]
    assert [pair.reused for pair in third.pairs] == [True, False, True]


def test_a_pair_file_with_other_settings_is_refused_before_anything_is_played(tmp_path: Path) -> None:
    run_tournament(TournamentConfig(("random", "rules"), decks=2, seed=1), tmp_path)
    path = tmp_path / PAIRS_FOLDER / pair_file_name("random", "rules")
    saved = path.read_text()
    with pytest.raises(PaijuError, match=r"random__rules\.json was played with other settings \(decks 2, not 3\)"):
        run_tournament(TournamentConfig(("random", "rules", "dmc"), decks=3, seed=1), tmp_path)
    assert path.read_text() == saved
    assert sorted(p.name for p in (tmp_path / PAIRS_FOLDER).iterdir()) == [path.name]
    path.write_text("{not json")
    with pytest.raises(PaijuError, match=r"random__rules\.json is not a readable pair report"):
        run_tournament(TournamentConfig(("random", "rules"), decks=2, seed=1), tmp_path)


def test_pair_file_names_are_safe_and_distinct() -> None:
    specs = ["ext:python bot.py --net=a,b", "search:algo=pimc,worlds=40", "dmc:/models/x_y.ckpt", "a__b", "a", "b__c"]
    names = {pair_file_name(a, b) for a in specs for b in specs if a != b}
    assert len(names) == len(specs) * (len(specs) - 1)
    for name in names:
        assert not set(name) & set(":/=, \\") and name.endswith(".json") and len(name) < 250
    assert pair_file_name("a__b", "c") != pair_file_name("a", "b__c")
    assert len(pair_file_name("ext:" + "x" * 400, "ext:" + "x" * 401)) < 250
    assert pair_file_name("ext:" + "x" * 400, "random") != pair_file_name("ext:" + "x" * 401, "random")


# -- bad input ---------------------------------------------------------------------------------------


def test_parse_decks_with() -> None:
    assert parse_decks_with("search=100") == ("search", 100)
    assert parse_decks_with("search:worlds=40=10") == ("search:worlds=40", 10)
    for bad in ("search", "=5", "search=0", "search=-1", "search=ten", "search=", "search=1.5"):
        with pytest.raises(PaijuError, match=f"--decks-with must be SPEC=N .*got '{bad}'"):
            parse_decks_with(bad)


@pytest.mark.parametrize(("options", "message"), [
    ({"agents": ("random",)}, "at least two agents"),
    ({"agents": ("random", "random")}, "repeated: random"),
    ({"agents": ("random", "nobody")}, "unknown agent 'nobody'"),
    ({"decks": 0}, "decks must be a positive integer, got 0"),
    ({"mode": "fast"}, "unknown DouDizhu mode 'fast'"),
    ({"decks_with": (("search", 10),)}, "override search=10 matches no agent"),
    ({"decks_with": (("rules", 0),)}, r"must be \(spec prefix, positive decks\), got \('rules', 0\)"),
])
def test_config_refuses_bad_input(options: dict[str, Any], message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        TournamentConfig(**{"agents": ("random", "rules"), **options})


# -- command line ------------------------------------------------------------------------------------


def test_cli_round_robin_writes_the_three_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["eval", "round-robin", "random", "rules", "--decks", "3", "--seed", "2",
                                 "--decks-with", "rul=2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == {"tournament.json", "tournament.md", "tournament.png", PAIRS_FOLDER}
    written = json.loads((out / "tournament.json").read_text())
    assert written["config"]["decks_with"] == {"rul": 2} and written["pairs"][0]["decks"] == 2
    assert "| random | rules | overall | 2 |" in (out / "tournament.md").read_text()
    assert "ADP per game of the row agent" in result.output
    bad = runner.invoke(app, ["eval", "round-robin", "random", "rules", "--decks-with", "rules:2"])
    assert bad.exit_code != 0
    assert "got 'rules:2'" in str(bad.exception)


def test_demo_prints_the_round_robin_tables() -> None:
    result = runner.invoke(app, ["demo", "--decks", "2", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "ADP per game of the row agent against the column agent" in result.output
    assert "By role" in result.output and "landlord" in result.output
