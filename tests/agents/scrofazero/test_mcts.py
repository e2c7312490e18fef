"""ScrofaZero's perfect-information MCTS: exact double-dummy choices in small endgames (against a brute force),
batched searches equal to lone ones, the paper's search counts, the policy target, reproducibility, errors."""

import random
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.agents import make_agent
from paiju.agents.scrofazero.mcts import (
    MctsSearch,
    RolloutEvaluator,
    TerminalOrZero,
    evaluation_simulations,
    run,
    run_until,
    search,
    training_simulations,
    uniform_priors,
)
from paiju.agents.search.budget import Budget
from paiju.core.errors import PaijuError
from paiju.games.gongzhu import Gongzhu
from paiju.games.gongzhu.cards import CARD_INDEX, CARD_NAMES
from paiju.games.gongzhu.scoring import seat_results

GAME = Gongzhu()


def game_at(seed: int, played: int):
    """A seeded deal after ``played`` uniformly random legal cards."""
    rng = random.Random(seed)
    state = GAME.new_state(seed)
    for _ in range(played):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def team_0_value(state) -> float:
    """The exact final payoff of team 0 (seats 0 and 2) when every seat plays its team's best from ``state``
    (every line of play enumerated: team 0 maximises it, team 1 minimises it, the two teams' payoffs sum to 0)."""
    if state.over:
        return state.payoffs()[0]
    values = []
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        values.append(team_0_value(child))
    return max(values) if state.to_move % 2 == 0 else min(values)


def card_values(state) -> dict[str, float]:
    """Each legal card's exact double-dummy value for the seat to move."""
    sign = 1 if state.to_move % 2 == 0 else -1
    values = {}
    for card in state.legal_actions():
        child = state.clone()
        child.apply(card)
        values[card] = sign * team_0_value(child)
    return values


class ScoreSoFar:
    """A pure evaluator with informative values: the result if the game stopped now, for the seat to move."""

    def evaluate(self, states):
        return uniform_priors(states), np.array([seat_results(s.scores())[s.to_move] for s in states], float)


CONTESTED = [(1, 40), (5, 40), (2, 41), (5, 41), (5, 42), (9, 42), (2, 43), (5, 43),
             (5, 44), (10, 44), (14, 44), (11, 46), (27, 46), (0, 47)]
"""(seed, cards played) of endgames 3 and 2 tricks from the end, at and within tricks, either team to move, where the
best cards' exact value beats every other card's by 20 points or more (most random endgames are decided)."""
ENDGAMES = [(seed, played, 20_000 if played < 44 else 5_000) for seed, played in CONTESTED]
"""(seed, cards played, simulations): 3 and 2 tricks from the end, at and within tricks, either team to move."""
EXACT_C = 2000.0
"""An exploration constant of the order of the payoffs. The paper's c = 30 suits leaf values that estimate the final
payoff (the network's); ``TerminalOrZero`` values every unfinished leaf 0, so with c = 30 a card whose first line
reaches a good finish gets every later simulation while a better card whose lines are not yet played to the end
stays at 0 (a UCB bonus of 30·sqrt(ln N / n) against payoffs of hundreds)."""


@pytest.mark.parametrize(("seed", "played", "simulations"), ENDGAMES)
def test_search_finds_a_double_dummy_best_card(seed, played, simulations):
    state = game_at(seed, played)
    exact = card_values(state)
    result = search(state, TerminalOrZero(), simulations, random.Random(seed), c=EXACT_C)
    assert exact[result.action] == max(exact.values()), (result.action, exact)
    assert result.player == state.to_move


def test_endgames_are_contested_with_both_teams_to_move():
    movers = set()
    for seed, played in CONTESTED:
        state = game_at(seed, played)
        values = sorted(set(card_values(state).values()))
        assert values[-1] - values[-2] >= 20
        movers.add(state.to_move % 2)
    assert movers == {0, 1}


class DoubleDummy:
    """The exact evaluator of small endgames (the brute force): each state's double-dummy value for its mover."""

    def evaluate(self, states):
        values = [s.payoffs()[s.to_move] if s.over else max(card_values(s).values()) for s in states]
        return uniform_priors(states), np.array(values)


@pytest.mark.parametrize(("seed", "played"), CONTESTED)
def test_leaf_values_back_up_to_the_root_seat_view(seed, played):
    # one simulation per legal card values each child once, exactly: Q is then each card's exact value for the
    # root's seat, whoever (partner, opponent, or nobody at the end) moves at the child
    state = game_at(seed, played)
    result = search(state, DoubleDummy(), len(state.legal_actions()), random.Random(seed))
    exact = card_values(state)
    assert {card: result.q[CARD_INDEX[card]] for card in exact} == exact
    assert exact[result.action] == max(exact.values())


@pytest.mark.parametrize(("seed", "played"), CONTESTED)
def test_paper_search_with_exact_leaf_values_concentrates_on_the_best_card(seed, played):
    # c = 30 and the evaluation budget, leaves valued exactly: UCB visits the best card most, for either team
    state = game_at(seed, played)
    exact = card_values(state)
    result = search(state, DoubleDummy(), evaluation_simulations(state), random.Random(seed))
    most_visited = CARD_NAMES[int(np.argmax(result.visits))]
    assert exact[result.action] == exact[most_visited] == max(exact.values()), (exact, result.visits)


def _same(first, second) -> None:
    assert first.card == second.card and first.player == second.player
    np.testing.assert_array_equal(first.visits, second.visits)
    np.testing.assert_array_equal(first.q, second.q)
    np.testing.assert_array_equal(first.policy, second.policy)


@pytest.mark.parametrize("evaluator", [TerminalOrZero(), ScoreSoFar()], ids=["terminal-or-zero", "score-so-far"])
def test_batched_driver_equals_one_search_at_a_time(evaluator):
    states = [game_at(seed, played) for seed, played in [(1, 0), (2, 13), (3, 30), (4, 45), (5, 50), (6, 21)]]
    budgets = [training_simulations(s) for s in states[:3]] + [evaluation_simulations(s) for s in states[3:]]
    searches = [MctsSearch(s, n, random.Random(k)) for k, (s, n) in enumerate(zip(states, budgets, strict=True))]
    together = run(searches, evaluator)
    for k, (state, budget) in enumerate(zip(states, budgets, strict=True)):
        _same(together[k], search(state, evaluator, budget, random.Random(k)))


def test_batched_driver_sends_one_leaf_per_unfinished_search_per_call():
    states = [game_at(seed, 20) for seed in range(5)]
    budgets = [1, 3, 5, 7, 9]
    calls = []

    class Counting(TerminalOrZero):
        def evaluate(self, leaves):
            calls.append(len(leaves))
            assert all(not leaf.over for leaf in leaves)
            return super().evaluate(leaves)

    run([MctsSearch(s, n, random.Random(0)) for s, n in zip(states, budgets, strict=True)], Counting())
    assert calls == [5, 4, 4, 3, 3, 2, 2, 1, 1]


def test_rollout_evaluator_batched_equals_alone_and_values_forced_endings_exactly():
    greed = RolloutEvaluator(lambda seed: make_agent("mr-greed:2", "gongzhu", seed), seed=3)
    states = [game_at(seed, 36) for seed in (11, 12)]
    together = run([MctsSearch(s, 6, random.Random(5)) for s in states], greed)
    for state, result in zip(states, together, strict=True):
        _same(result, search(state, greed, 6, random.Random(5)))
    last_trick = game_at(13, 49)  # one card each left: the play is forced, so any rollout gives the exact value
    assert greed.evaluate([last_trick])[1][0] == max(card_values(last_trick).values())
    assert greed.rollout(last_trick) == greed.rollout(last_trick)


def test_terminal_or_zero_values_and_priors():
    final, middle = game_at(1, 52), game_at(1, 30)
    priors, values = TerminalOrZero().evaluate([final, middle])
    assert values[0] == final.payoffs()[final.to_move] and values[1] == 0.0
    assert priors[0].sum() == 0.0 and priors[1].sum() == pytest.approx(1.0)
    legal = [CARD_INDEX[card] for card in middle.legal_actions()]
    assert np.count_nonzero(priors[1]) == len(legal) and np.all(priors[1, legal] > 0)


@pytest.mark.parametrize("played", [0, 7, 26, 39, 51])
def test_search_counts_follow_the_paper(played):
    state = game_at(played, played)
    legal = len(state.legal_actions())
    assert training_simulations(state) == 2 * legal
    assert evaluation_simulations(state) == 10 + 2 * legal
    result = search(state, TerminalOrZero(), training_simulations(state), random.Random(0))
    assert result.visits.sum() == 2 * legal
    # the first `legal` simulations try every card once, so every legal card is searched
    assert sorted(np.flatnonzero(result.visits)) == sorted(CARD_INDEX[card] for card in state.legal_actions())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), played=st.integers(0, 51), simulations=st.integers(1, 40),
       rng_seed=st.integers(0, 100))
def test_policy_target_is_a_distribution_over_the_searched_cards(seed, played, simulations, rng_seed):
    state = game_at(seed, played)
    result = search(state, ScoreSoFar(), simulations, random.Random(rng_seed))
    legal = {CARD_INDEX[card] for card in state.legal_actions()}
    searched = set(np.flatnonzero(result.visits))
    assert searched <= legal and result.card in searched
    assert result.visits.sum() == simulations
    assert result.policy.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(result.policy)) == searched
    assert result.q[result.card] == max(result.q[card] for card in searched)
    best = result.q[result.card]
    for card in searched:  # softmax(0.2 (Q - Q_max)): ratios to the best card's weight
        assert result.policy[card] / result.policy[result.card] == pytest.approx(np.exp(0.2 * (result.q[card] - best)))


def test_search_is_reproducible_for_a_seed_and_leaves_the_state_alone():
    state = game_at(21, 17)
    before = state.to_record()
    first = search(state, ScoreSoFar(), 60, random.Random(9))
    _same(first, search(state, ScoreSoFar(), 60, random.Random(9)))
    assert state.to_record() == before


def test_pending_repeats_its_leaf_until_fed():
    mcts = MctsSearch(game_at(2, 10), 3, random.Random(0))
    leaf = mcts.pending()
    assert mcts.pending() is leaf
    mcts.feed(5.0)
    assert not mcts.done and mcts.pending() is not leaf


def test_a_time_budget_drives_searches_near_the_deadline_and_stops_them_where_they_are():
    dealt = game_at(3, 9)
    scenarios = [GAME.determinize(dealt.observation(1), random.Random(k)) for k in range(6)]  # the same legal cards
    searches = [MctsSearch(state, None, random.Random(k)) for k, state in enumerate(scenarios)]
    budget = Budget(None, 30)
    started = time.perf_counter()
    results = run_until(searches, ScoreSoFar(), budget)
    assert 0.03 <= time.perf_counter() - started < 0.03 + 2.0  # generous: a loaded machine may stall
    assert budget.spent == sum(mcts.completed for mcts in searches)
    legal = {CARD_INDEX[card] for card in scenarios[0].legal_actions()}
    assert set(np.flatnonzero(results[0].visits)) == legal  # the first search tried every card
    for result, mcts in zip(results, searches, strict=True):  # each stopped where it was, or never started
        assert (mcts.done and result.visits.sum() == mcts.completed) if mcts.completed else result is None


def test_a_time_budget_that_is_spent_at_once_still_tries_every_card_in_the_first_search():
    state = game_at(4, 0)
    searches = [MctsSearch(state, None, random.Random(k)) for k in range(8)]
    budget = Budget(None, 1)
    time.sleep(0.002)
    results = run_until(searches, ScoreSoFar(), budget)
    assert searches[0].completed == len(state.legal_actions()) and results[0].visits.sum() == searches[0].completed
    assert results[1:] == [None] * 7 and budget.spent == searches[0].completed


def test_a_time_budget_with_time_to_spare_runs_counted_searches_as_run_does():
    states = [game_at(seed, played) for seed, played in [(1, 5), (2, 20), (6, 33)]]
    counts = [evaluation_simulations(state) for state in states]
    searches = [MctsSearch(state, count, random.Random(k))
                for k, (state, count) in enumerate(zip(states, counts, strict=True))]
    timed = run_until(searches, ScoreSoFar(), Budget(None, 600_000))
    for k, (state, count) in enumerate(zip(states, counts, strict=True)):
        _same(timed[k], search(state, ScoreSoFar(), count, random.Random(k)))


def test_searches_without_a_count_run_one_simulation_at_a_time_until_stopped():
    mcts = MctsSearch(game_at(2, 10), None, random.Random(0))
    with pytest.raises(PaijuError, match="without a simulation count"):
        mcts.pending()
    with pytest.raises(PaijuError, match=r"stop\(\) needs at least one simulation"):
        mcts.stop()
    leaf = mcts.simulate()
    with pytest.raises(PaijuError, match=r"feed\(\) it"):
        mcts.simulate()
    with pytest.raises(PaijuError, match="one waiting"):
        mcts.stop()
    assert leaf is not None
    mcts.feed(1.0)
    with pytest.raises(PaijuError, match=r"has no count: stop\(\) it"):
        mcts.result()
    result = mcts.stop()
    assert mcts.done and mcts.completed == 1 and result.visits.sum() == 1
    with pytest.raises(PaijuError, match="run all its 1 simulations"):
        mcts.simulate()
    with pytest.raises(PaijuError, match="needs a time budget"):
        run_until([MctsSearch(game_at(2, 10), None, random.Random(0))], ScoreSoFar(), Budget(5, None))


def test_bad_input_raises_clear_errors():
    final = game_at(1, 52)
    with pytest.raises(PaijuError, match="game is over"):
        MctsSearch(final, 10, random.Random(0))
    with pytest.raises(PaijuError, match="game is over"):
        training_simulations(final)
    state = game_at(1, 10)
    for bad in (0, -3, 2.5, True):
        with pytest.raises(PaijuError, match="simulations must be a positive integer or None"):
            MctsSearch(state, bad, random.Random(0))
    with pytest.raises(PaijuError, match="exploration constant"):
        MctsSearch(state, 5, random.Random(0), c=-1.0)
    with pytest.raises(PaijuError, match="GongzhuState"):
        MctsSearch(GAME, 5, random.Random(0))
    mcts = MctsSearch(state, 5, random.Random(0))
    with pytest.raises(PaijuError, match="call pending"):
        mcts.feed(1.0)
    with pytest.raises(PaijuError, match="0 of its 5 simulations"):
        mcts.result()
    mcts.pending()
    with pytest.raises(PaijuError, match="finite"):
        mcts.feed(float("nan"))

    class Short(TerminalOrZero):
        def evaluate(self, states):
            priors, values = super().evaluate(states)
            return priors, values[:-1]

    with pytest.raises(PaijuError, match="values of shape"):
        run([MctsSearch(state, 5, random.Random(0))], Short())
