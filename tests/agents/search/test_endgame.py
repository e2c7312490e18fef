"""The DouDizhu endgame value inside simulations: the solver's winner at the stake reached, for any seat."""

from __future__ import annotations

from paiju.agents import make_agent
from paiju.agents.search.profiles import doudizhu_cards_left, doudizhu_endgame
from paiju.agents.search.rollout import Rollout
from paiju.core.registry import load_game
from paiju.games.doudizhu.rules import DouDizhuRules
from paiju.games.doudizhu.solver import solve
from paiju.games.doudizhu.solver_position import position_from_state


def endgame(seed: int, cards: int):
    """A rules-vs-rules research game of ``seed`` played until at most ``cards`` cards are left in hand."""
    state = load_game("doudizhu").new_state(seed, DouDizhuRules(mode="research"))
    agents = [make_agent("rules", "doudizhu", seat) for seat in range(3)]
    while not state.is_terminal() and sum(map(sum, state.hands)) > cards:
        seat = state.current_player
        state.apply(agents[seat].act(state.observation(seat), state.legal_actions()))
    return state


def test_small_states_get_the_solver_winner_for_every_seat():
    checked = 0
    for seed in range(12):
        state = endgame(seed, 20)
        if state.is_terminal():
            continue
        assert doudizhu_cards_left(state) == sum(map(sum, state.hands)) <= 20
        winner = solve(position_from_state(state)).winner
        stake = state.bid * state.multiplier
        values = [doudizhu_endgame(state, seat) for seat in range(3)]
        sign = 1 if winner == "landlord" else -1
        assert values == [2 * sign * stake if s == state.landlord else -sign * stake for s in range(3)]
        assert sum(values) == 0
        checked += 1
    assert checked >= 3


def test_a_rollout_with_the_solver_scores_by_it_and_leaves_others_alone():
    state = next(state for seed in range(12) if not (state := endgame(seed, 20)).is_terminal())
    agents = [make_agent("rules", "doudizhu", seat) for seat in range(3)]
    exact = Rollout(agents, 0, None, doudizhu_endgame, doudizhu_cards_left, cards=20)
    assert exact.play_out(state.clone(), state.deal_number) == doudizhu_endgame(state, 0)
    played = Rollout(agents, 0, None, doudizhu_endgame, doudizhu_cards_left, cards=0)
    finished = state.clone()
    value = played.play_out(finished, state.deal_number)
    assert finished.is_terminal() and value == finished.payoffs()[0]


def test_a_solver_that_gives_up_is_asked_once_and_the_simulation_played_out():
    state = next(state for seed in range(12) if not (state := endgame(seed, 20)).is_terminal())
    asked = []

    def gives_up(position, seat):
        asked.append(doudizhu_cards_left(position))
        return None

    agents = [make_agent("rules", "doudizhu", seat) for seat in range(3)]
    finished = state.clone()
    value = Rollout(agents, 0, None, gives_up, doudizhu_cards_left, cards=20).play_out(finished, state.deal_number)
    assert len(asked) == 1 and finished.is_terminal() and value == finished.payoffs()[0]
