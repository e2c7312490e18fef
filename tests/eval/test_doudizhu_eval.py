import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from paiju import load_game
from paiju.agents import register_agent
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.eval.behaviour import BehaviourSummary, GameBehaviour
from paiju.eval.doudizhu import DouDizhuEvalConfig, DouDizhuEvalReport, evaluate_doudizhu
from paiju.games.doudizhu import Deal, DouDizhuRules, Move, parse_cards


class LongestPlay(Agent):
    """Bids 3 and plays the legal play with the most cards (lowest first): far stronger than random."""

    name = "test-longest"

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        if isinstance(legal[0], int):
            return max(legal)
        return max(legal, key=lambda move: (move.size, -move.rank))


register_agent("doudizhu", "test-longest", lambda argument, seed: LongestPlay())


def figures(report: DouDizhuEvalReport) -> dict[str, Any]:
    result = report.to_json()
    del result["wall_time_s"]
    return result


def run(decks: int = 20, **options: Any) -> DouDizhuEvalReport:
    return evaluate_doudizhu(DouDizhuEvalConfig(**{"agent_a": "random", "agent_b": "random", "decks": decks,
                                                   "seed": 3, **options}), progress=False)


# -- reproducibility ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["research", "full"])
def test_same_seed_gives_identical_figures_for_any_number_of_workers(mode: str) -> None:
    one = figures(run(mode=mode, workers=1))
    two = figures(run(mode=mode, workers=2))
    del one["config"]["workers"], two["config"]["workers"]
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert figures(run(mode=mode, seed=4)) != one


def test_report_json_holds_config_version_and_wall_time() -> None:
    report = evaluate_doudizhu(DouDizhuEvalConfig("random", "random", decks=2, seed=1), progress=True)
    result = json.loads(json.dumps(report.to_json()))
    assert result["config"] == {"agent_a": "random", "agent_b": "random", "decks": 2, "mode": "research",
                                "seed": 1, "workers": 1, "protocol": "role-swap", "backend": "local", "address": None,
                                "rules": {}}
    assert result["paiju_version"]
    assert result["wall_time_s"] > 0
    assert result["two_table"] is None


def test_report_lists_every_deck_and_the_paired_duplicate_score() -> None:
    report = evaluate_doudizhu(DouDizhuEvalConfig("rules", "random", decks=6, seed=3), progress=False)
    result = json.loads(json.dumps(report.to_json()))
    assert [deck["deck"] for deck in result["per_deck"]] == list(range(6))
    totals = [sum(sum(p for seat, p in enumerate(game["payoffs"]) if game["seats"][seat] == "A")
                  for game in deck["games"]) for deck in result["per_deck"]]
    assert all(sorted(game["seats"] for game in deck["games"]) == ["ABB", "BAA"] for deck in result["per_deck"])
    assert result["duplicate_score_a"]["value"] == pytest.approx(sum(totals) / 6)
    assert result["duplicate_score_a"]["value"] == pytest.approx(2 * result["agents"]["A"]["overall"]["adp"]["value"])
    itself = evaluate_doudizhu(DouDizhuEvalConfig("rules", "rules", decks=4, seed=3), progress=False)
    assert itself.duplicate_score.value == 0


# -- role-swapped duplicate ----------------------------------------------------------------------------


def test_random_against_random_research_role_swap_is_symmetric_with_correct_counts() -> None:
    report = run(decks=30)
    a, b = report.agents["A"], report.agents["B"]
    assert report.games == 60
    assert set(a.roles) == set(b.roles) == {"landlord", "peasants"}
    for agent in (a, b):
        assert agent.roles["landlord"].games == agent.roles["peasants"].games == 30
        assert agent.overall.games == 60
    # A's landlord games are B's peasant games: the figures mirror each other.
    assert a.roles["landlord"].wins + b.roles["peasants"].wins == 30
    assert a.roles["landlord"].adp.value == pytest.approx(-b.roles["peasants"].adp.value)
    assert a.overall.adp.value == pytest.approx(-b.overall.adp.value)
    assert a.overall.wp.value + b.overall.wp.value == pytest.approx(1)
    # The same agent with the same seeds replays the same games from both sides.
    assert a.roles["landlord"] == b.roles["landlord"]
    assert a.overall.adp.value == 0
    assert set(report.behaviour) == {"A/B/B", "B/A/A"}


def test_intervals_contain_the_estimates_and_shrink_with_more_decks() -> None:
    small, large = run(decks=10), run(decks=80)
    for role in ("landlord", "peasants"):
        few, many = small.agents["A"].roles[role], large.agents["A"].roles[role]
        for estimate in (few.wp, few.adp, many.wp, many.adp):
            assert estimate.low <= estimate.value <= estimate.high
        assert many.wp.high - many.wp.low < few.wp.high - few.wp.low
        assert many.adp.high - many.adp.low < few.adp.high - few.adp.low


def test_a_stronger_agent_wins_clearly_in_both_roles() -> None:
    report = evaluate_doudizhu(DouDizhuEvalConfig("test-longest", "random", decks=30, seed=5), progress=False)
    a, b = report.agents["A"], report.agents["B"]
    assert a.overall.adp.low > 0 > b.overall.adp.high
    assert a.overall.wp.low > 0.5
    assert a.roles["landlord"].wp.value > b.roles["landlord"].wp.value
    assert a.roles["peasants"].wp.value > b.roles["peasants"].wp.value


def test_full_mode_role_swap_plays_six_games_a_deck_and_counts_every_role() -> None:
    report = evaluate_doudizhu(DouDizhuEvalConfig("test-longest", "random", decks=10, mode="full", seed=2),
                               progress=False)
    assert report.games == 60
    for agent in report.agents.values():
        assert sum(role.games for role in agent.roles.values()) == agent.overall.games == 60
    a, b = report.agents["A"], report.agents["B"]
    assert a.roles["landlord"].games == b.roles["peasants"].games
    assert a.roles["mixed"].games == b.roles["mixed"].games
    assert a.overall.adp.value == pytest.approx(-b.overall.adp.value)
    assert sum(summary.games for summary in report.behaviour.values()) == 60


# -- two-table duplicate -------------------------------------------------------------------------------


def test_two_table_research_sums_landlord_scores_of_the_role_swapped_games() -> None:
    config = DouDizhuEvalConfig("test-longest", "random", decks=12, seed=8, protocol="two-table")
    report = evaluate_doudizhu(config, progress=False)
    swap = evaluate_doudizhu(DouDizhuEvalConfig("test-longest", "random", decks=12, seed=8), progress=False)
    assert report.agents == swap.agents
    duplicate = report.two_table
    assert duplicate is not None
    a, b = report.agents["A"].roles["landlord"], report.agents["B"].roles["landlord"]
    assert duplicate.landlord_score_a == pytest.approx(a.adp.value * 12)
    assert duplicate.landlord_score_b == pytest.approx(b.adp.value * 12)
    assert duplicate.difference.value == pytest.approx((duplicate.landlord_score_a - duplicate.landlord_score_b) / 12)
    assert duplicate.difference.n == 12
    assert duplicate.winner == "A"
    assert report.to_json()["two_table"]["winner"] == "A"


def test_two_table_full_mode_has_the_referee_bid_three_for_the_first_bidder() -> None:
    report = run(decks=15, mode="full", protocol="two-table")
    assert report.games == 30
    assert set(report.behaviour) == {"A/B/B", "B/A/A"}
    landlord = report.agents["A"].roles["landlord"]
    assert landlord.games == 15
    # Base score 3: the landlord wins or loses 2 x 3, doubled per bomb and spring.
    duplicate = report.two_table
    assert duplicate is not None
    assert duplicate.landlord_score_a % 6 == 0
    assert duplicate.winner == "tie"  # the same agent on the same seeds at both tables


# -- report and configuration ---------------------------------------------------------------------------


def test_tables_render_every_section() -> None:
    console = Console(record=True, width=250)
    console.print(*run(decks=4, protocol="two-table").table())
    text = console.export_text()
    for expected in ("landlord", "peasants", "overall", "Two-table", "cumulative landlord score", "A/B/B", "control"):
        assert expected in text
    console = Console(record=True, width=250)
    console.print(*run(decks=4).table())
    assert "Two-table" not in console.export_text()


@pytest.mark.parametrize(("options", "message"), [
    ({"decks": 0}, "decks must be a positive integer"),
    ({"workers": 0}, "workers must be a positive integer"),
    ({"mode": "classic"}, "unknown DouDizhu mode"),
    ({"protocol": "three-table"}, "unknown evaluation protocol"),
    ({"agent_b": ""}, "agent_b must be a non-empty agent spec"),
    ({"seed": 1.5}, "seed must be an integer"),
])
def test_bad_configuration_is_rejected(options: dict[str, Any], message: str) -> None:
    with pytest.raises(PaijuError, match=message):
        DouDizhuEvalConfig(**{"agent_a": "random", "agent_b": "random", **options})


def test_unknown_agent_is_rejected_before_playing() -> None:
    with pytest.raises(PaijuError, match="unknown agent 'nobody' for agent B"):
        evaluate_doudizhu(DouDizhuEvalConfig("random", "nobody", decks=1), progress=False)


# -- behaviour statistics -------------------------------------------------------------------------------


def short_game() -> Any:
    """A research game of 13 turns with a known history (landlord seat 0)."""
    hands = ("333456789TJQKA222", "344455577788899TT", "6669TJJJQQQKKKAAA")
    deal = Deal(hands=tuple(tuple(parse_cards(hand)) for hand in hands), public=tuple(parse_cards("2BR")),
                first_bidder=0)
    state = load_game("doudizhu").from_deal(deal, DouDizhuRules())
    for text in ["3456789TJQKA", "", "",  # trick 1: the landlord's chain stands
                 "33", "44", "", "",  # trick 2: won by down
                 "5", "6", "2222", "", "",  # trick 3: the landlord bombs
                 "BR"]:  # trick 4: the rocket ends the game
        state.apply(state.action_from_json(text))
    return state


def test_short_game_fixture_is_the_intended_deal() -> None:
    state = short_game()
    assert [sum(hand) for hand in state.deals[0].hands] == [17, 17, 17]
    assert state.is_terminal() and state.winner == 0
    assert isinstance(state.history[-1][1], Move) and state.history[-1][1].cards == "BR"


def test_behaviour_of_a_hand_made_game() -> None:
    behaviour = GameBehaviour.of(short_game())
    assert behaviour == GameBehaviour(turns=13, plays=7, tricks=4, landlord_control=3, bombs=(2, 0, 0),
                                      rockets=(1, 0, 0), held_bombs=(2, 0, 0))


def test_behaviour_summary_averages_per_game_and_per_position() -> None:
    played = GameBehaviour.of(short_game())
    quiet = GameBehaviour(turns=21, plays=11, tricks=6, landlord_control=1, bombs=(0, 1, 0), rockets=(0, 0, 0),
                          held_bombs=(0, 2, 0))
    summary = BehaviourSummary.of([played, quiet])
    assert (summary.games, summary.turns, summary.plays, summary.tricks, summary.landlord_control) == (
        2, 17, 9, 5, 2)
    landlord, down, up = (summary.positions[p] for p in ("landlord", "down", "up"))
    assert (landlord.bombs_per_game, landlord.rockets_per_game, landlord.bomb_game_rate) == (1, 0.5, 0.5)
    assert landlord.held_bombs_played == 1
    assert (down.bombs_per_game, down.bomb_game_rate, down.held_bombs_played) == (0.5, 0.5, 0.5)
    assert up.held_bombs_played is None
    assert summary.to_json()["positions"]["up"]["held_bombs_played"] is None


@pytest.mark.parametrize("wild_ranks", [1, 2])
def test_no_position_plays_more_bombs_than_it_held_under_laizi(wild_ranks: int) -> None:
    """Soft and wild bombs count as held: a hand with a trio and a wild card holds a bomb."""
    rules = DouDizhuRules(laizi=True, wild_ranks=wild_ranks, mode="research")
    game, rng = load_game("doudizhu"), random.Random(wild_ranks)
    games = [GameBehaviour.of(play_out(game.new_state(seed, rules), rng)) for seed in range(300)]
    assert all(played <= held for g in games for played, held in zip(g.bombs, g.held_bombs, strict=True))
    assert sum(sum(g.bombs) for g in games) > 0


def play_out(state: Any, rng: random.Random) -> Any:
    """The game played to its end by uniformly random legal actions, longest plays first half the time (more
    bombs than uniform play alone)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(max(legal, key=lambda move: move.size) if rng.random() < 0.5 else rng.choice(legal))
    return state


def test_behaviour_needs_a_finished_game() -> None:
    state = load_game("doudizhu").new_state(1)
    with pytest.raises(ValueError, match="finished game"):
        GameBehaviour.of(state)
    with pytest.raises(ValueError, match="at least one game"):
        BehaviourSummary.of([])
