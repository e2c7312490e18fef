"""Leaf values: a GuanDan simulation cut short at the searching seat's next turn after ``depth`` moves and scored
by a value network."""

from __future__ import annotations

import pytest

from paiju.agents import make_agent
from paiju.agents.dmc.weights import load_models, save_models, shipped_model_path
from paiju.agents.search.profiles import guandan_round_result
from paiju.agents.search.rollout import Leaf, Rollout
from paiju.core.agent import Agent, ScoredAction
from paiju.core.errors import PaijuError
from paiju.core.registry import load_game


class Rater(Agent):
    """Rates every action of every decision ``rating`` and counts the decisions it was asked about."""

    name = "rater"

    def __init__(self, rating: float) -> None:
        self.rating = rating
        self.asked = 0

    def act(self, observation, legal):
        return legal[0]

    def explain(self, observation, legal):
        self.asked += 1
        return [ScoredAction(action, self.rating - index) for index, action in enumerate(legal)]


class Counting(Agent):
    """The rule bot, counting its moves."""

    name = "counting"

    def __init__(self, seat: int) -> None:
        self.rules = make_agent("rules", "guandan", seat)
        self.moves = 0

    def act(self, observation, legal):
        self.moves += 1
        return self.rules.act(observation, legal)


def play_state(seed: int = 5):
    """A GuanDan round in its play phase, a few moves in."""
    state = load_game("guandan").new_state(seed, {})
    rules = make_agent("rules", "guandan", 0)
    while state.phase != "play" or len(state.legal_actions()) < 2:
        seat = state.current_player
        state.apply(rules.act(state.observation(seat), state.legal_actions()))
    return state


def test_a_leaf_is_the_best_rating_of_the_searching_seat_on_its_own_turn():
    state = play_state()
    mover = state.current_player
    rater = Rater(2.5)
    leaf = Leaf(rater, 0, ("play",))
    assert leaf.value(state, mover) == 2.5
    assert leaf.value(state, (mover + 1) % 4) is None
    assert leaf.value(state, (mover + 2) % 4) is None
    assert rater.asked == 1


def test_a_leaf_outside_its_phases_lets_the_simulation_play_on():
    state = play_state()
    leaf = Leaf(Rater(1.0), 0, ("tribute",))
    assert leaf.value(state, state.current_player) is None


@pytest.mark.parametrize("depth", [0, 1, 5, 9])
def test_a_simulation_with_a_leaf_stops_at_the_seats_next_turn_after_depth_moves(depth):
    state = play_state()
    observer = state.current_player
    state.apply(make_agent("rules", "guandan", 0).act(state.observation(observer), state.legal_actions()))
    players = [Counting(seat) for seat in range(4)]
    rater = Rater(2.0)
    rollout = Rollout(players, observer, guandan_round_result, leaf=Leaf(rater, depth, ("play",)))
    before = len(state.actions)
    value = rollout.play_out(state, state.deal_number)
    played = len(state.actions) - before
    if rater.asked:
        assert value == 2.0 and rater.asked == 1
        assert state.current_player == observer and depth <= played <= depth + 3  # the first such turn
    else:  # the round ended before the seat's turn came
        assert state.is_terminal() or state.deal_number != 0
        assert value in (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)


def test_without_a_leaf_the_simulation_finishes_the_round():
    state = play_state()
    rollout = Rollout([make_agent("rules", "guandan", seat) for seat in range(4)], 0, guandan_round_result)
    value = rollout.play_out(state, state.deal_number)
    assert value in (-3.0, -2.0, -1.0, 1.0, 2.0, 3.0)


def test_the_search_with_network_leaves_decides_legally_and_reproducibly():
    state = play_state(9)
    seat = state.current_player
    observation, legal = state.observation(seat), state.legal_actions()
    choices = []
    for _ in range(2):
        agent = make_agent("search:leaf=dmc,depth=2,worlds=4,top=3,sims=12", "guandan", seed=3)
        agent.begin("guandan", seat, {})
        choices.append(agent.explain(observation, legal))
        assert agent.simulations == 12
    assert choices[0][0].action in legal
    assert choices[0] == choices[1]


@pytest.mark.parametrize(("spec", "game", "message"), [
    ("search:leaf=dmc", "doudizhu", r"doudizhu has no leaf values \(games with them: guandan\)"),
    ("search:leaf=rules", "guandan", "leaf='rules' does not score guandan states by their value; accepted: dmc"),
    ("search:leaf=dmc:/no/such/model.pt", "guandan", "search option leaf='dmc:/no/such/model.pt': no DMC model"),
    ("search:leaf=dmc,depth=-1", "guandan", "depth must be a whole number >= 0"),
])
def test_bad_leaves_are_refused(spec, game, message):
    with pytest.raises(PaijuError, match=message):
        make_agent(spec, game)


def test_a_network_whose_scores_are_not_values_is_refused_as_a_leaf(tmp_path):
    policy = load_models(shipped_model_path("guandan"))
    policy.meta = {**policy.meta, "scores": "policy logits × τ (τ = 0.1), not Q-values"}
    save_models(policy, tmp_path / "policy.pt")
    with pytest.raises(PaijuError, match=r"cannot value states: its scores are policy logits × τ \(τ = 0.1\)"):
        make_agent(f"search:leaf=dmc:{tmp_path / 'policy.pt'}", "guandan")
