"""The command line, run as a user would (through typer's test runner)."""

import json
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import AgentError

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def test_legal_answers_each_line_sorted_and_reports_bad_lines():
    queries = "\n".join([
        json.dumps({"hand": "33344455BR", "last": "3"}),
        json.dumps({"hand": "3456789", "last": ""}),
        json.dumps({"hand": "3X"}),
        "not json",
    ])
    result = runner.invoke(app, ["legal", "doudizhu"], input=queries + "\n")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {"legal": ["", "4", "5", "B", "R", "BR"]}
    assert lines[1]["legal"][:3] == ["3", "4", "5"] and "3456789" in lines[1]["legal"] and "" not in lines[1]["legal"]
    assert "unknown card 'X'" in lines[2]["error"]
    assert "not JSON" in lines[3]["error"]
    assert result.exit_code == 1


def test_legal_respects_rule_options():
    query = json.dumps({"hand": "3333BR"}) + "\n"
    standard = json.loads(runner.invoke(app, ["legal", "doudizhu"], input=query).stdout)["legal"]
    variant = json.loads(runner.invoke(app, ["legal", "doudizhu", "--rules", '{"rocket_as_kickers": true}'],
                                       input=query).stdout)["legal"]
    assert "3333BR" not in standard and "3333BR" in variant


def test_selfcheck_plays_and_reports():
    result = runner.invoke(app, ["selfcheck", "doudizhu", "--games", "5"])
    assert result.exit_code == 0, result.output
    assert "doudizhu (research): 5 games" in result.output and "0 failures" in result.output
    assert "doudizhu (full): 5 games" in result.output


def test_eval_writes_a_report(tmp_path):
    out = tmp_path / "report.json"
    result = runner.invoke(app, ["eval", "doudizhu", "rules", "random", "--decks", "6", "--seed", "3",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["decks"] == 6 and report["games"] == 12
    assert report["agents"]["A"]["spec"] == "rules"


def test_replay_prints_every_action(tmp_path):
    from paiju import load_game
    from paiju.core.record import save_record

    game = load_game("doudizhu")
    state = game.new_state(5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    path = tmp_path / "game.json"
    save_record(path, state)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("seat") >= len(state.actions)
    assert "winner" in result.output


def _finished_record(seed: int = 5) -> dict:
    from paiju import load_game

    state = load_game("doudizhu").new_state(seed)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state.to_record()


RECORD = _finished_record()


def _changed(**change: object) -> str:
    return json.dumps({**RECORD, **change})


def _without(key: str) -> str:
    return json.dumps({k: v for k, v in RECORD.items() if k != key})


@pytest.mark.parametrize(("name", "content", "problem"), [
    ("truncated.json", json.dumps(RECORD)[:60], "not JSON: Unterminated string"),
    ("list.json", "[1, 2]", "a record is a JSON object, got a JSON list"),
    ("no-deals.json", _without("deals"), '"deals" is a list, got none'),
    ("no-game.json", _without("game"), 'the record names no game (expected a "game" string field)'),
    ("deals.json", _changed(deals={"hands": []}), '"deals" is a list, got {"hands": []}'),
    ("huge-seed.json", _changed(seed=2**128), "the seed is an integer from 0 to 2**128 - 1 or null, got 3402823"),
    ("negative-seed.json", _changed(seed=-3), "the seed is an integer from 0 to 2**128 - 1 or null, got -3"),
    ("seat.json", _changed(actions=[["0", "3"]]), 'action 0 is [seat, action] with an integer seat, got ["0", "3"]'),
    ("action.json", _changed(actions=[[0, 5]]), "action 0 ([0, 5]) does not replay: a play is a string"),
    ("rules.json", _changed(rules=[]), "bad DouDizhu record header: DouDizhu rules must be a JSON object"),
    ("nested.json", "[" * 100_000, "JSON nested too deeply to read"),
    ("long-number.json", '{"game": "doudizhu", "seed": ' + "7" * 5000 + "}", "integer longer than 4300 digits"),
    ("latin1.json", b"\xe9t\xe9", "cannot read the record: 'utf-8' codec can't decode byte 0xe9"),
    ("empty.json", "", "not JSON: Expecting value: line 1 column 1 (char 0)"),
    ("folder.json", None, "cannot read the record: [Errno 21] Is a directory"),
    ("no-format.json", _without("format"),
     'not a paiju record: expected "format": 1 (paiju\'s record format), got none'),
    ("format.json", _changed(format="deeprocket"), 'expected "format": 1 (paiju\'s record format), got "deeprocket"'),
    ("empty.txt", "", "DeepRocket cards '': expected 4 parts"),
    ("latin1.txt", b"\xff", "cannot read the DeepRocket record: 'utf-8' codec can't decode byte 0xff"),
])
def test_replay_refuses_a_bad_record_in_one_line_naming_the_file(tmp_path: Path, name: str,
                                                                  content: str | bytes | None, problem: str) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"error: {path}: ") and result.output.count("\n") == 1
    assert problem in result.output


def test_replay_reads_a_deeprocket_record():
    result = runner.invoke(app, ["replay", str(ROOT / "tests" / "data" / "deeprocket_example.txt")])
    assert result.exit_code == 0, result.output
    assert "winner: peasants" in result.output


@st.composite
def damaged_records(draw: st.DrawFn) -> str:
    """A record's text cut short, with a span replaced by other text, or with one field replaced by any JSON."""
    text = json.dumps(RECORD)
    damage = draw(st.sampled_from(["cut", "splice", "field"]))
    if damage == "cut":
        return text[:draw(st.integers(0, len(text) - 1))]
    if damage == "splice":
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 20)))
        return text[:start] + draw(st.text(max_size=8)) + text[end:]
    values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                          lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                      max_size=3), max_leaves=6)
    return json.dumps({**RECORD, draw(st.sampled_from([*RECORD, "start"])): draw(values)})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=damaged_records())
def test_a_damaged_record_replays_or_fails_in_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "damaged.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    result = runner.invoke(app, ["replay", str(path)])
    if result.exit_code == 0:
        assert result.output.startswith("game: doudizhu\n")
    else:
        assert result.exit_code == 2 and isinstance(result.exception, SystemExit), result.output
        assert result.output.startswith(f"error: {path}: ") and result.output.count("\n") == 1


def test_eval_with_workers_names_the_faulty_agent_its_seat_and_the_cause():
    bot = ROOT / "tests" / "agents" / "bots" / "faulty_bot.py"
    spec = "ext:" + shlex.join([sys.executable, str(bot), "--after", "2", "answer", "{not json"])
    result = runner.invoke(app, ["eval", "doudizhu", spec, "random", "--decks", "4", "--workers", "2"])
    assert result.exit_code != 0
    error = result.exception
    assert isinstance(error, AgentError), repr(error)
    assert error.agent == spec and error.seat in (0, 1, 2)
    assert "answered something that is not JSON" in error.problem and "'{not json'" in error.problem


def test_play_accepts_a_scripted_game_and_reprompts_on_bad_input():
    # Research mode: seat 0 (the landlord) types two bad plays, asks for a hint, then quits.
    script = "33X\n2222222\nhint\n"
    result = runner.invoke(app, ["play", "doudizhu", "--mode", "research", "--seed", "4", "--bot", "random"],
                           input=script + "quit\n")
    assert result.exit_code == 0, result.output
    assert "unknown card 'X'" in result.output
    assert "too many 2" in result.output
    assert "hint: seat 0 (landlord):" in result.output
    assert "Game abandoned." in result.output


def test_unknown_agent_is_a_clear_error():
    result = runner.invoke(app, ["eval", "doudizhu", "rules", "nobody", "--decks", "1"])
    assert result.exit_code != 0
    assert "unknown agent 'nobody'" in str(result.exception) + result.output


def test_eval_gongzhu_and_matrix(tmp_path):
    out = tmp_path / "gongzhu.json"
    result = runner.invoke(app, ["eval", "gongzhu", "random", "random", "--deals", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["config"]["deals"] == 4
    result = runner.invoke(app, ["eval", "gongzhu", "random"])
    assert result.exit_code != 0
    assert "name agent B" in str(result.exception) + result.output
    result = runner.invoke(app, ["eval", "gongzhu", "search:worlds=2", "random", "--deals", "1", "--ms", "2",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["time_budget"] == {"ms": 2, "timed": ["search:worlds=2,ms=2"],
                                                          "untimed": ["random"]}
    assert "median ms" in result.output
    result = runner.invoke(app, ["eval", "gongzhu", "search:sims=4", "mr-greed", "--deals", "1", "--ms", "5"])
    assert result.exit_code != 0
    assert "sets its own budget (sims=)" in str(result.exception) + result.output
    matrix = tmp_path / "matrix.json"
    result = runner.invoke(app, ["eval", "matrix", "gongzhu", "random", "ext:" + _bot(), "--deals",
                                 "3", "--bootstrap", "20", "--out", str(matrix)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(matrix.read_text())["agents"]) == 2


def _bot() -> str:
    import shlex
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "examples" / "ext_random_bot.py"
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(bot))} --seed 3"


def test_legal_guandan_and_gongzhu_oracles():
    query = {"hand": ["S9", "C9", "D9", "H9", "S2", "C2", "D2", "H2", "SK"], "level": "9",
             "last": ["Bomb", "A", ["SA", "CA", "DA", "HA"]]}
    result = runner.invoke(app, ["legal", "guandan"], input=json.dumps(query) + "\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"legal": [["PASS", "PASS", "PASS"], ["Bomb", "9", ["H9", "S9", "C9", "D9"]],
                                                   ["Bomb", "2", ["H2", "S2", "C2", "D2", "H9"]]]}
    result = runner.invoke(app, ["legal", "gongzhu"], input=json.dumps({"hand": ["SQ", "S2", "H5"],
                                                                        "trick": ["S9"]}) + "\n")
    assert json.loads(result.stdout) == {"legal": ["S2", "SQ"]}


def test_play_guandan_and_gongzhu_start_and_quit():
    for game, first_line in (("guandan", "Round 1 at level 2"), ("gongzhu", "Trick 1 of 13")):
        result = runner.invoke(app, ["play", game, "--seed", "3", "--seat", "1"], input="hint\nquit\n")
        assert result.exit_code == 0, result.output
        assert first_line in result.output and "hint:" in result.output and "Game abandoned." in result.output
    result = runner.invoke(app, ["play", "gongzhu", "--seat", "4"])
    assert result.exit_code != 0
    assert "seat must be 0..3" in str(result.exception) + result.output


def test_version_is_printed():
    import paiju

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"paiju {paiju.__version__}"


@pytest.mark.parametrize(("given", "rounds"), [([], 1), (["--rounds", "3"], 3), (["--rounds", "0"], None)])
def test_play_guandan_rounds_zero_is_a_whole_game(monkeypatch, given, rounds):
    import paiju.cli

    seen = {}
    monkeypatch.setattr(paiju.cli, "_play_terminal", lambda *arguments: seen.update(rules=arguments[6]))
    result = runner.invoke(app, ["play", "guandan", *given])
    assert result.exit_code == 0, result.output
    assert seen["rules"].rounds == rounds
