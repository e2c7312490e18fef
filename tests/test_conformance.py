"""One API test for every registered game: the same checks through the core interface only."""

import json
import random

import pytest

from paiju.core.errors import IllegalActionError
from paiju.core.registry import game_names, load_game
from paiju.core.selfcheck import selfcheck

VARIANTS = {
    "doudizhu": [{"mode": "research"}, {"mode": "full"}, {"mode": "research", "laizi": True},
                 {"mode": "full", "laizi": True, "wild_ranks": 2, "bomb_multipliers": [2, 4, 4]}],
    "gongzhu": [{}, {"first_leader": 1}],
    # A full GuanDan game to A is ~1,700 actions: the soak checks use short games that still reach tribute,
    # anti-tribute, winning at A and the drop to level 2.
    "guandan": [{"rounds": 1}, {"rounds": 3, "start_level": "Q", "a_attempts": 1}],
}


def _cases():
    for name in game_names():
        for rules in VARIANTS.get(name, [{}]):
            yield pytest.param(name, rules, id=f"{name}-{'-'.join(map(str, rules.values())) or 'default'}")


CASES = list(_cases())


def random_game(game, rules, seed: int):
    state = game.new_state(seed, rules)
    rng = random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        states.append(state.clone())
    return state, states


@pytest.mark.parametrize(("name", "rules_json"), CASES)
def test_same_seed_same_game(name, rules_json):
    game = load_game(name)
    rules = game.rules_from_json(rules_json)
    a, _ = random_game(game, rules, 12)
    b, _ = random_game(game, rules, 12)
    c, _ = random_game(game, rules, 13)
    assert a.to_record() == b.to_record()
    assert a.to_record()["deals"] != c.to_record()["deals"]


@pytest.mark.parametrize(("name", "rules_json"), CASES)
def test_selfcheck_invariants(name, rules_json):
    game = load_game(name)
    report = selfcheck(game, 15, seed=100, rules=game.rules_from_json(rules_json), privacy_every=3)
    assert report.ok, report.failures
    assert report.steps > 0


@pytest.mark.parametrize(("name", "rules_json"), CASES)
def test_observations_records_and_payoffs(name, rules_json):
    game = load_game(name)
    final, states = random_game(game, game.rules_from_json(rules_json), 7)
    for state in states[:-1]:
        seat = state.current_player
        observation = state.observation(seat)
        assert observation.seat == seat and observation.phase == state.phase
        json.dumps(observation.to_json())
        json.dumps(state.perfect_view())
        for action in state.legal_actions():
            assert state.action_from_json(json.loads(json.dumps(state.action_to_json(action)))) == action
    assert final.is_terminal() and final.current_player is None and final.legal_actions() == []
    with pytest.raises(IllegalActionError):
        final.apply(states[-2].legal_actions()[0])
    payoffs = final.payoffs()
    assert len(payoffs) == game.num_players
    if game.zero_sum:
        assert sum(payoffs) == pytest.approx(0)
    record = json.loads(json.dumps(final.to_record()))
    assert game.from_record(record).to_record() == record


@pytest.mark.parametrize(("name", "rules_json"), CASES)
def test_payoffs_are_refused_before_the_end(name, rules_json):
    game = load_game(name)
    with pytest.raises(ValueError):
        game.new_state(1, game.rules_from_json(rules_json)).payoffs()
