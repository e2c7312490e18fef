"""Every agent says what its explain scores mean, for the decision at hand (the arena's AI panel shows it)."""

from paiju.agents import make_agent
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.core.agent import Agent
from paiju.games.doudizhu import DouDizhu, DouDizhuRules


def positions():
    """A DouDizhu bid and, after the bidding, a play."""
    state = DouDizhu().new_state(3, DouDizhuRules(mode="full"))
    bid = state.observation(state.current_player)
    state.apply(3)
    return bid, state.observation(state.current_player)


def test_agents_name_their_scale_and_hand_off_the_phases_they_do_not_decide():
    bid, play = positions()
    rules = DouDizhuRulesAgent.score_scale
    for name in ("dmc", "perfectdou"):
        agent = make_agent(name, "doudizhu", 0)
        assert agent.scale(play) == type(agent).score_scale != rules
        assert agent.scale(bid) == rules  # bids are the rule bot's
    deeprocket = make_agent("deeprocket", "doudizhu", 0)
    assert "probability" in deeprocket.scale(play) and deeprocket.scale(bid) == Agent.score_scale
    learned = make_agent("learned-bid:dmc", "doudizhu", 0)
    assert "bid model" in learned.scale(bid) and learned.scale(play) == make_agent("dmc", "doudizhu", 0).scale(play)
    assert "points" in make_agent("search", "doudizhu", 0).scale(play)
    assert make_agent("random", "doudizhu", 0).scale(play) == Agent.score_scale
