"""Duplicate team play on a one-trick partnership game small enough to check by hand."""

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import paiju.agents
from paiju import load_game
from paiju.core.agent import Agent
from paiju.core.errors import PaijuError
from paiju.core.game import Game, State
from paiju.eval.seeds import derive_seed
from paiju.eval.stats import t_quantile_975
from paiju.eval.team_duplicate import (
    DealOutcome,
    DuplicatePlan,
    DuplicateSummary,
    ScoreEstimate,
    WinDrawLoss,
    per_deal_scores,
    play_deal,
    play_pairings,
    summary_table,
    team_result,
)

# -- a one-trick partnership game: 8 cards, 2 per seat; each seat plays one card from the leader on; the
# -- highest card wins the trick, and its team scores the sum of the four cards, the other team minus that.


def toy_hands(deal_seed: int) -> list[list[int]]:
    cards = random.Random(deal_seed).sample(range(1, 9), 8)
    return [sorted(cards[2 * seat:2 * seat + 2]) for seat in range(4)]


@dataclass(frozen=True)
class TrickObservation:
    seat: int
    phase: str
    hand: tuple[int, ...]
    played: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": list(self.hand), "played": list(self.played)}


class OneTrickState(State):
    game_name = "one-trick"
    num_players = 4

    def __init__(self, hands: list[list[int]], leader: int) -> None:
        self.hands, self.leader, self.played = hands, leader, []

    @property
    def current_player(self) -> int | None:
        return None if self.is_terminal() else (self.leader + len(self.played)) % 4

    @property
    def phase(self) -> str:
        return "over" if self.is_terminal() else "play"

    def legal_actions(self) -> list[int]:
        return list(self.hands[self.current_player])

    def apply(self, action: Any, seat: int | None = None) -> None:
        self.hands[self.current_player].remove(action)
        self.played.append(action)

    def observation(self, seat: int) -> TrickObservation:
        return TrickObservation(seat, self.phase, tuple(self.hands[seat]), tuple(self.played))

    def perfect_view(self) -> dict[str, Any]:
        return {"hands": self.hands}

    def clone(self) -> State:
        copy = OneTrickState([list(hand) for hand in self.hands], self.leader)
        copy.played = list(self.played)
        return copy

    def is_terminal(self) -> bool:
        return len(self.played) == 4

    def payoffs(self) -> list[float]:
        winner = (self.leader + self.played.index(max(self.played))) % 4
        points = sum(self.played)
        return [points if seat % 2 == winner % 2 else -points for seat in range(4)]

    def to_record(self) -> dict[str, Any]:
        return {"rules": {}, "played": self.played}

    def action_from_json(self, value: Any) -> Any:
        return int(value)


class OneTrick(Game):
    name = "one-trick"
    num_players = 4

    def default_rules(self) -> None:
        return None

    def rules_from_json(self, value: dict[str, Any]) -> None:
        return None

    def new_state(self, seed: int, rules: Any = None) -> State:
        return rotated_deal(seed, 0)

    def from_record(self, record: dict[str, Any]) -> State:
        raise NotImplementedError

    def action_to_json(self, action: Any) -> Any:
        return action

    def determinize(self, observation: Any, rng: random.Random) -> State:
        raise NotImplementedError

    def observation_from_json(self, obs: dict[str, Any], seat: int, phase: str, rules: Any = None) -> Any:
        raise NotImplementedError


def rotated_deal(deal_seed: int, rotation: int) -> OneTrickState:
    hands = toy_hands(deal_seed)
    return OneTrickState([hands[(seat - rotation) % 4] for seat in range(4)], leader=rotation)


class Extreme(Agent):
    def __init__(self, pick: Any, seconds: float = 0.0) -> None:
        self.pick = pick
        self.seconds = seconds

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        time.sleep(self.seconds)
        return self.pick(legal)


@pytest.fixture(autouse=True)
def one_trick(monkeypatch: pytest.MonkeyPatch) -> None:
    paiju.agents.agent_names("one-trick")  # load the built-in agents before adding the test ones
    monkeypatch.setitem(paiju.agents._FACTORIES, ("one-trick", "high"), lambda argument, seed: Extreme(max))
    monkeypatch.setitem(paiju.agents._FACTORIES, ("one-trick", "low"), lambda argument, seed: Extreme(min))
    monkeypatch.setitem(paiju.agents._FACTORIES, ("one-trick", "slow"), lambda argument, seed: Extreme(max, 0.02))


PLAN = DuplicatePlan(game=OneTrick(), dealer=rotated_deal, seed=11)


def expected_result(hands: list[list[int]], rotation: int) -> float:
    """Team A ("high" at seats 0 and 2) against "low": by hand, from who holds which dealt hand."""
    played = {}
    for seat in range(4):
        hand = hands[(seat - rotation) % 4]
        played[seat] = max(hand) if seat % 2 == 0 else min(hand)
    winner = max(played, key=played.__getitem__)
    points = sum(played.values())
    return points if winner % 2 == 0 else -points


# -- playing deals ------------------------------------------------------------------------------------


def test_each_deal_is_played_as_dealt_then_with_every_hand_one_seat_on() -> None:
    for deal in range(20):
        outcome = play_deal(PLAN, ("high", "low"), deal)
        hands = toy_hands(derive_seed(PLAN.seed, "deal", deal))
        assert outcome.deal == deal
        assert outcome.results == (expected_result(hands, 0), expected_result(hands, 1))


def test_an_agent_against_itself_scores_exactly_zero_on_every_deal_pair() -> None:
    (outcomes,) = play_pairings(PLAN, [("random", "random")], deals=40, progress=False)
    assert all(outcome.pair == 0 for outcome in outcomes)
    assert any(outcome.results[0] != 0 for outcome in outcomes)  # the games themselves are not all draws


def test_swapping_the_teams_negates_every_deal_pair() -> None:
    forward, backward = play_pairings(PLAN, [("random", "high"), ("high", "random")], deals=30, progress=False)
    assert [o.pair for o in forward] == [-o.pair for o in backward]
    assert [o.results for o in forward] == [(-b.results[1], -b.results[0]) for b in backward]


def test_pairings_share_their_deals_and_the_seed_decides_them() -> None:
    first, again = play_pairings(PLAN, [("high", "low"), ("high", "low")], deals=12, progress=False)
    assert first == again
    other_seed = DuplicatePlan(game=OneTrick(), dealer=rotated_deal, seed=12)
    (other,) = play_pairings(other_seed, [("high", "low")], deals=12, progress=False)
    assert other != first


def test_each_team_s_decision_times_are_kept_apart_from_the_results() -> None:
    for pairing, slow_team in ((("slow", "low"), 0), (("low", "slow"), 1)):
        outcome = play_deal(PLAN, pairing, 3)
        assert [len(team) for team in outcome.decision_seconds] == [4, 4]  # two seats, two games, a choice each
        assert min(outcome.decision_seconds[slow_team]) >= 0.02
        assert outcome == DealOutcome(3, outcome.results)  # the machine's times take no part in equality


def test_unknown_agents_and_games_of_the_wrong_size_are_refused() -> None:
    with pytest.raises(PaijuError, match="unknown agent 'nobody' for one-trick"):
        play_pairings(PLAN, [("random", "nobody")], deals=1, progress=False)
    three_seats = DuplicatePlan(game=load_game("doudizhu"), dealer=rotated_deal, seed=0)
    with pytest.raises(PaijuError, match="four-player game; doudizhu has 3"):
        play_deal(three_seats, ("random", "random"), 0)


def test_team_results_must_come_as_team_payoffs() -> None:
    assert team_result([30, -30, 30, -30]) == 30
    with pytest.raises(PaijuError, match=r"\(x, -x, x, -x\)"):
        team_result([30, -10, 20, -40])
    with pytest.raises(PaijuError, match="got \\[30, -30\\]"):
        team_result([30, -30])


# -- aggregation ---------------------------------------------------------------------------------------


OUTCOMES = [DealOutcome(0, (100.0, -40.0)), DealOutcome(1, (-20.0, 20.0)), DealOutcome(2, (0.0, 0.0)),
            DealOutcome(3, (-200.0, 50.0))]


def test_summary_takes_the_deals_as_the_independent_units() -> None:
    summary = DuplicateSummary.of(OUTCOMES)
    pairs = [60.0, 0.0, 0.0, -150.0]
    assert (summary.deals, summary.games) == (4, 8)
    assert summary.per_deal_pair.value == pytest.approx(-22.5)
    assert summary.per_game.value == pytest.approx(-11.25)
    se = statistics.stdev(pairs) / 2
    assert summary.per_deal_pair.se == pytest.approx(se)
    assert summary.per_game.se == pytest.approx(se / 2)
    assert summary.per_game.high - summary.per_game.value == pytest.approx(t_quantile_975(3) * se / 2)
    assert summary.as_dealt.value == pytest.approx(-30)
    assert summary.rotated.value == pytest.approx(7.5)
    assert summary.games_record == WinDrawLoss(wins=3, draws=2, losses=3)
    assert summary.pairs_record == WinDrawLoss(wins=1, draws=2, losses=1)
    assert list(per_deal_scores(OUTCOMES)) == [30.0, 0.0, 0.0, -75.0]


def test_summary_json_and_table() -> None:
    summary = DuplicateSummary.of(OUTCOMES)
    result = summary.to_json()
    assert result["pairs_record"] == {"wins": 1, "draws": 2, "losses": 1}
    assert set(result["per_game"]) == {"value", "se", "low", "high", "n"}
    table = summary_table("test", ("high", "low"), summary)
    assert table.row_count == 6


def test_a_single_deal_has_no_interval_and_no_deals_are_an_error() -> None:
    estimate = ScoreEstimate.of([12.0])
    assert (estimate.value, estimate.se, estimate.low, estimate.high) == (12.0, None, None, None)
    assert str(estimate) == "12.00"
    assert math.isclose(DuplicateSummary.of(OUTCOMES[:1]).per_game.value, 30)
    with pytest.raises(ValueError, match="at least one deal"):
        DuplicateSummary.of([])
