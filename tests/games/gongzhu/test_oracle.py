"""`paiju legal gongzhu`: follow the led suit when holding it, else any card; errors name the problem."""

import json

from paiju.games.gongzhu.oracle import answer


def ask(query: object) -> dict:
    return answer(json.dumps(query))


def test_follow_suit_when_holding_it():
    assert ask({"hand": ["SQ", "S2", "H5", "DA"], "trick": [[1, "S9"]]}) == {"legal": ["S2", "SQ"]}
    assert ask({"hand": ["SQ", "H5"], "trick": ["D3", "D9"]}) == {"legal": ["SQ", "H5"]}
    assert ask({"hand": ["h10", "sq"]}) == {"legal": ["SQ", "H10"]}


def test_bad_queries_are_named():
    assert "unknown card 'SX'" in ask({"hand": ["SX"]})["error"]
    assert "twice" in ask({"hand": ["SQ", "SQ"]})["error"]
    assert "twice" in ask({"hand": ["SQ"], "trick": ["SQ"]})["error"]
    assert "at most 3" in ask({"hand": ["SQ"], "trick": ["S2", "S3", "S4", "S5"]})["error"]
    assert "not JSON" in answer("{")["error"]
    assert "expected an object" in ask(["SQ"])["error"]
