"""DeepRocket's text records: the paper's own records (appendix C, body examples), conversions, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import paiju
from paiju.agents.random_agent import RandomAgent
from paiju.core.errors import RecordError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules, DouDizhuState, format_cards
from paiju.records.deeprocket_text import (
    load_deeprocket_file,
    paiju_to_deeprocket_cards,
    parse_deeprocket,
    to_deeprocket,
)

DATA = Path(__file__).parents[1] / "data"
APPENDIX = json.loads((DATA / "deeprocket_appendix_c.json").read_text())
EXAMPLES = {e["name"]: e for e in json.loads((DATA / "deeprocket_examples.json").read_text())["examples"]}
STOPS = {(s["number"], s["table"]): s for s in APPENDIX["stops_before_the_end"]}
FULL = DouDizhuRules(mode="full")
COOPERATION = EXAMPLES["cooperation"]


def _plays(process: str) -> list[str]:
    return [p for p in "".join(process.split()).split(";") if p]


def _hands_left(state: DouDizhuState) -> list[str]:
    return [paiju_to_deeprocket_cards(state.hands[(state.landlord + role) % 3]) for role in range(3)]


def _random_game(seed: int, rules: DouDizhuRules) -> DouDizhuState:
    game = paiju.load_game("doudizhu")
    return play_game(game, [RandomAgent(seed * 3 + seat) for seat in range(3)], seed, rules)  # type: ignore[return-value]


# -- the paper's records -------------------------------------------------------------------------------------


def test_appendix_c_scores_add_up_to_the_match_result() -> None:
    """Table 7 as copied: DeepRocket's landlords scored 30, the humans' 24 (section 5.3)."""
    assert sum(g["score_dr"] for g in APPENDIX["games"]) == APPENDIX["total_dr"] == 30
    assert sum(g["score_human"] for g in APPENDIX["games"]) == APPENDIX["total_human"] == 24


@pytest.mark.parametrize(("number", "table"), [(g["number"], t) for g in APPENDIX["games"] for t in ("dr", "human")],
                         ids=lambda v: str(v))
def test_appendix_c_record_replays_legally_with_table_7_score(number: int, table: str) -> None:
    """Every record of Tables 9 and 10 replays legally on its Table 8 deal; the landlord's full-mode score
    (bid 3) is Table 7's. The records that stop before the end are named in the data file, each with the
    hands left and the forced completion that gives Table 7's score."""
    game = APPENDIX["games"][number - 1]
    assert game["number"] == number
    process, score = game[f"process_{table}"], game[f"score_{table}"]
    state = parse_deeprocket(game["cards"], process, FULL)
    stop = STOPS.get((number, table))
    if stop is not None:
        assert not state.is_terminal(), f"game {number} ({table}) is listed as stopping before the end"
        assert _hands_left(state) == stop["hands_left"]
        state = parse_deeprocket(game["cards"], process + ";" + stop["completion"], FULL)
    assert state.is_terminal()
    assert state.payoffs()[0] == score
    research = parse_deeprocket(game["cards"], process + (";" + stop["completion"] if stop else ""))
    assert research.payoffs()[0] * APPENDIX["base_score"] == score


def test_appendix_c_lists_exactly_three_unfinished_records() -> None:
    assert sorted(STOPS) == [(4, "human"), (5, "human"), (9, "human")]
    assert all(stop["note"] for stop in STOPS.values())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_body_example_replays_to_the_hands_the_paper_quotes(name: str) -> None:
    example = EXAMPLES[name]
    cards = example["cards"]
    if "error" in example:
        with pytest.raises(RecordError) as error:
            parse_deeprocket(cards, example["process"])
        assert str(error.value) == example["error"]
        cards = example["corrected_cards"]
    snapshot = example["snapshot"]
    partial = ";".join(_plays(example["process"])[: snapshot["after_play"] + 1])
    assert _hands_left(parse_deeprocket(cards, partial)) == snapshot["hands"]
    state = parse_deeprocket(cards, example["process"])
    assert state.is_terminal()
    assert state.result()["winner"] == example["winner"]


def test_example_file_with_labels_matches_the_example() -> None:
    state = load_deeprocket_file(DATA / "deeprocket_example.txt")
    assert state.to_record() == parse_deeprocket(COOPERATION["cards"], COOPERATION["process"]).to_record()


def test_file_without_labels_and_with_broken_lines(tmp_path: Path) -> None:
    plays = _plays(COOPERATION["process"])
    path = tmp_path / "game.txt"
    path.write_text(COOPERATION["cards"] + "\n" + ";".join(plays[:9]) + ";\n  " + ";".join(plays[9:]) + "\n")
    assert load_deeprocket_file(path).history == parse_deeprocket(COOPERATION["cards"], COOPERATION["process"]).history


# -- notation ------------------------------------------------------------------------------------------------


def test_jokers_are_converted_at_the_boundary() -> None:
    """DeepRocket's S (small) and B (big) are paiju's B and R."""
    state = parse_deeprocket(COOPERATION["cards"], COOPERATION["process"])
    assert state.deals[0].hands[0][14] == 1 and state.deals[0].hands[0][13] == 0  # landlord's "B": big joker
    assert state.deals[0].hands[2][13] == 1  # up peasant's "S": small joker
    assert (2, "B") in [(seat, move.cards) for seat, move in state.history]  # "2,S"
    assert to_deeprocket(state)[0].startswith("4456777889JKKAA2B;")


def test_passes_are_implied_by_turn_order() -> None:
    state = parse_deeprocket(COOPERATION["cards"], "0,33;1,55;0,77;0,88")
    assert [(seat, move.cards) for seat, move in state.history] == [
        (0, "33"), (1, "55"), (2, ""), (0, "77"), (1, ""), (2, ""), (0, "88")]


@pytest.mark.parametrize("seed", range(12))
def test_research_game_round_trips_through_the_text(seed: int) -> None:
    state = _random_game(seed, DouDizhuRules())
    cards, process = to_deeprocket(state)
    again = parse_deeprocket(cards, process)
    assert again.to_record() == {**state.to_record(), "seed": None}
    assert to_deeprocket(again) == (cards, process)


def test_full_mode_game_maps_seats_to_roles_from_the_landlord() -> None:
    state = next(s for s in (_random_game(seed, FULL) for seed in range(50)) if s.landlord == 2)
    cards, process = to_deeprocket(state)
    again = parse_deeprocket(cards, process, FULL)
    seats = [(2 + role) % 3 for role in range(3)]
    assert [format_cards(again.deals[0].hands[role]) for role in range(3)] == [
        format_cards(state.deals[-1].hands[seat]) for seat in seats]
    assert [((seat - 2) % 3, move) for seat, move in state.history] == again.history
    assert again.payoffs() == [state.payoffs()[seat] / state.bid * 3 for seat in seats]


def test_a_bidding_state_has_no_deeprocket_record() -> None:
    state = paiju.load_game("doudizhu").new_state(1, FULL)
    with pytest.raises(RecordError, match="still bidding"):
        to_deeprocket(state)


# -- errors --------------------------------------------------------------------------------------------------

DEAL = COOPERATION["cards"]


@pytest.mark.parametrize(("cards", "process", "message"), [
    (DEAL.replace("2B;", "2R;"), "", "landlord's part '4456777889JKKAA2R': unknown card 'R'"),
    (DEAL.replace("4456777889", "456777889"), "", "landlord's part '456777889JKKAA2B': 16 cards, expected 17"),
    (DEAL.replace("33Q", "34Q"), "", "not one 54-card deck (extra 4, missing 3)"),
    ("4456777889JKKAA2B;335567899TTJJKAA2;", "", "expected 4 parts"),
    (DEAL.replace("4456689TTJQQQK22S", "4444456TTJQQQK22S"), "", "up peasant's part '4444456TTJQQQK22S': too many 4"),
    (DEAL, "0,33;3,44", "DeepRocket play 1 ('3,44'): expected 'role,cards'"),
    (DEAL, "0,33;;1,55", "DeepRocket play 1 (''): expected 'role,cards'"),
    (DEAL, "1,55", "play 0 (1,55): the down peasant cannot play here: the landlord (role 0) leads and may not pass"),
    (DEAL, "2,66", "play 0 (2,66): the up peasant cannot play here: the landlord (role 0) leads"),
    (DEAL, "0,34", "play 0 (0,34): '34' is not a DouDizhu combination"),
    (DEAL, "0,33;1,4", "play 1 (1,4): the down peasant does not hold 4 (holds 335567899TTJJKAA2)"),
    (DEAL, "0,33;1,S", "play 1 (1,S = paiju B): the down peasant does not hold S"),
    (DEAL, "0,77;1,55", "play 1 (1,55): '55' (pair) does not beat '77' (pair)"),
    (DEAL, "0,33;1,5", "play 1 (1,5): '5' (solo) does not beat '33' (pair)"),
    (DEAL, COOPERATION["process"] + "0,4", "play 21 (0,4): the game is already over"),
])
def test_bad_record_is_named(cards: str, process: str, message: str) -> None:
    with pytest.raises(RecordError) as error:
        parse_deeprocket(cards, process)
    assert message in str(error.value)


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"missing\.txt: cannot read"):
        load_deeprocket_file(tmp_path / "missing.txt")
    path = tmp_path / "bad.txt"
    path.write_text(f"Cards: {DEAL}\nGame process: 1,55;\n")
    with pytest.raises(RecordError, match=r"bad\.txt: DeepRocket play 0 \(1,55\)"):
        load_deeprocket_file(path)
