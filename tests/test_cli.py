"""The command line, run as a user would (through typer's test runner)."""

import json

from typer.testing import CliRunner

from paiju.cli import app

runner = CliRunner()


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
