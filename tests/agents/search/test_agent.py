"""The ``search`` agent: legal, deterministic under a simulation budget, blind to hidden cards, quick when it
must be, and right in positions with a clear answer."""

import random
import time

import pytest
from tests.agents.search.positions import SMALL, decision

from paiju.agents import make_agent
from paiju.agents.search import PROFILES
from paiju.agents.search.rollout import Rollout
from paiju.core.registry import load_game
from paiju.games.doudizhu.state import Deal

GAMES = sorted(SMALL)
ALGORITHMS = ("pimc", "ismcts")


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("variant", ["algo=pimc", "algo=ismcts", "algo=pimc,belief=3", "algo=ismcts,belief=3"])
def test_same_seed_and_observation_give_the_same_decision(game_name, variant):
    state = decision(game_name, seed=5, skip=3)
    seat = state.current_player
    spec = f"{SMALL[game_name]},{variant}"
    first = make_agent(spec, game_name, seed=9).explain(state.observation(seat), state.legal_actions())
    again = make_agent(spec, game_name, seed=9).explain(state.observation(seat), state.legal_actions())
    assert first == again
    assert {entry.action for entry in first} <= set(state.legal_actions())


@pytest.mark.parametrize("game_name", GAMES)
def test_the_decision_does_not_depend_on_hidden_cards(game_name):
    """Two true positions that differ only in the cards the seat cannot see: the same decision."""
    game = load_game(game_name)
    state = decision(game_name, seed=2, skip=4)
    seat = state.current_player
    truths = [game.determinize(state.observation(seat), random.Random(draw)) for draw in (1, 2)]
    assert truths[0].perfect_view()["hands"] != truths[1].perfect_view()["hands"]
    explained = [make_agent(SMALL[game_name], game_name, seed=4).explain(truth.observation(seat), truth.legal_actions())
                 for truth in truths]
    assert explained[0] == explained[1]


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("algo", ALGORITHMS)
def test_a_budget_too_small_still_gives_a_legal_action(game_name, algo):
    state = decision(game_name, seed=3, skip=1)
    seat = state.current_player
    agent = make_agent(f"search:ms=1,algo={algo}", game_name, seed=0)
    assert agent.act(state.observation(seat), state.legal_actions()) in state.legal_actions()


def test_one_legal_action_is_played_at_once(monkeypatch):
    game = load_game("gongzhu")
    state = game.new_state(1)
    while len(state.legal_actions()) > 1 or state.current_player == state.leader:
        state.apply(state.legal_actions()[0])
    monkeypatch.setattr(type(game), "determinize", lambda *_: pytest.fail("searched a forced move"))
    agent = make_agent("search", "gongzhu")
    seat = state.current_player
    assert agent.act(state.observation(seat), state.legal_actions()) == state.legal_actions()[0]


def test_phases_not_searched_are_played_by_the_prior():
    game = load_game("doudizhu")
    state = game.new_state(4, game.rules_from_json({"mode": "full"}))
    seat = state.current_player
    observation, legal = state.observation(seat), state.legal_actions()
    assert make_agent("search", "doudizhu", 6).act(observation, legal) == make_agent("rules", "doudizhu", 6).act(
        observation, legal)


ENDGAME_DEAL = {"hands": ["334556789TJQKAA22", "345566789TJQKKA22", "36778899TTJJQQKBR"], "public": "44A",
                "first_bidder": 0}
ENDGAME_PLAYS = [
    "3456789TJQKA", "", "", "44", "", "", "5", "6", "", "",
    "3456789TJQKA", "", "", "22", "BR", "", "",
    "778899TTJJ", "", "", "3", "", "5", "6", "", "", "Q", "", "", "K", "A", "", "",
]
"""Research mode, seat 0 the landlord: its plays and the peasants' leave it to lead 3 A 2 2 against a K and
a Q, one card each, with every other 2 and both jokers gone (one rocket played: scores doubled)."""


def endgame():
    game = load_game("doudizhu")
    state = game.from_deal(Deal.from_json(ENDGAME_DEAL))
    for play in ENDGAME_PLAYS:
        state.apply(state.action_from_json(play))
    return game, state


def test_pimc_takes_a_winning_lead_in_an_endgame():
    """Any lead but the 3 wins (nothing beats the 2s, the pair or then the A); the 3 lets a peasant out."""
    _, state = endgame()
    assert state.current_player == 0 and state.observation(0).cards_left == (4, 1, 1)
    explained = make_agent("search:sims=40,worlds=10,top=9", "doudizhu").explain(state.observation(0),
                                                                                   state.legal_actions())
    values = {entry.action.cards: entry.score for entry in explained}
    assert values.pop("3") == -4.0
    assert set(values.values()) == {4.0}
    assert explained[0].action.cards != "3"


def test_ismcts_takes_a_winning_lead_in_an_endgame():
    _, state = endgame()
    agent = make_agent("search:algo=ismcts,sims=60,worlds=10,top=9", "doudizhu")
    assert agent.act(state.observation(0), state.legal_actions()).cards != "3"


def test_guandan_simulations_end_with_the_round():
    """A simulation stops when the round ends, scored +3 / +2 / +1 (or the negative) for the seat's team, even
    when the game goes on to another round."""
    game = load_game("guandan")
    state = game.new_state(8)
    agents = [make_agent("rules", "guandan", seat) for seat in range(4)]
    value = Rollout(agents, 1, PROFILES["guandan"].deal_value).play_out(state, deal=0)
    assert state.deal_number == 1 and not state.is_terminal()
    assert value in {-3.0, -2.0, -1.0, 1.0, 2.0, 3.0}
    order = state.rounds[-1].outcome.order
    assert (value > 0) == (order[0] % 2 == 1)


def test_an_explanation_ranks_candidates_by_mean_value():
    state = decision("doudizhu", seed=1, skip=2)
    seat = state.current_player
    start = time.perf_counter()
    explained = make_agent(SMALL["doudizhu"], "doudizhu").explain(state.observation(seat), state.legal_actions())
    assert time.perf_counter() - start < 5
    scores = [entry.score for entry in explained]
    assert scores == sorted(scores, reverse=True)
