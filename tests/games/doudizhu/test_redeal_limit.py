"""DouDizhu's redeal limit: after N deals passed by all, the first bidder of the next such deal must play."""

import random

import pytest

from paiju.agents import make_agent
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhu, DouDizhuRules
from paiju.games.doudizhu.observation import DouDizhuObservation

GAME = DouDizhu()


def pass_all(state) -> None:
    for _ in range(3):
        state.apply(0)


@pytest.mark.parametrize("limit", [0, 2])
def test_the_first_bidder_takes_the_landlord_at_one_after_the_limit(limit):
    state = GAME.new_state(7, DouDizhuRules(mode="full", redeal_limit=limit))
    for voided in range(limit):
        pass_all(state)
        assert state.phase == "bid" and state.deal_number == voided + 1
    first = state.deals[-1].first_bidder
    pass_all(state)
    assert state.phase == "play" and state.landlord == first and state.bid == 1 and state.deal_number == limit
    assert state.current_player == first and sum(state.hands[first]) == 20


def test_without_a_limit_the_deal_is_redealt_forever():
    state = GAME.new_state(7, DouDizhuRules(mode="full"))
    for voided in range(6):
        pass_all(state)
        assert state.phase == "bid" and state.deal_number == voided + 1


def test_observations_records_and_worlds_know_the_voided_deals():
    rules = DouDizhuRules(mode="full", redeal_limit=2)
    state = GAME.new_state(11, rules)
    pass_all(state)
    pass_all(state)
    observation = state.observation(state.current_player)
    assert observation.voided == 2 and observation.to_json()["voided"] == 2
    again = DouDizhuObservation.from_json(observation.to_json(), observation.seat, "bid", rules)
    assert again == observation
    pass_all(state)  # the limit: the first bidder plays
    seat = (state.landlord + 1) % 3
    observation = state.observation(seat)
    for k in range(3):  # a world drawn from the observation replays the forced landlord too
        world = GAME.determinize(observation, random.Random(k))
        assert world.observation(seat) == observation
    agents = [make_agent("rules", "doudizhu", s) for s in range(3)]
    final = play_game(GAME, agents, 0, state=state)
    replayed = GAME.from_record(final.to_record())
    assert replayed.payoffs() == final.payoffs() and replayed.bid == 1
    assert GAME.new_state(1, rules).observation(0).to_json()["voided"] == 0
    classic = GAME.new_state(1, DouDizhuRules(mode="full"))
    pass_all(classic)
    assert classic.observation(0).voided == 0 and "voided" not in classic.observation(0).to_json()  # unchanged


def test_bad_limits_are_refused_by_name():
    with pytest.raises(PaijuError, match="redeal_limit"):
        DouDizhuRules(mode="full", redeal_limit=-1)
    with pytest.raises(PaijuError, match="redeal_limit"):
        DouDizhuRules.from_json({"mode": "full", "redeal_limit": "three"})
