"""Agents that play 癞子 DouDizhu through the core interface: the search, learned bidding, the table's bots."""

import pytest

from paiju import load_game, make_agent
from paiju.core.match import play_game
from paiju.games.doudizhu import DouDizhuRules


@pytest.mark.parametrize(("spec", "rules"), [
    ("search:sims=8", DouDizhuRules(laizi=True)),
    ("learned-bid:random", DouDizhuRules(laizi=True, mode="full")),
    ("rules", DouDizhuRules(laizi=True, mode="full", wild_ranks=2)),
])
def test_an_agent_plays_laizi_games_to_the_end_and_the_same_seed_plays_the_same_game(spec, rules):
    game = load_game("doudizhu")
    finals = [play_game(game, [make_agent(spec, "doudizhu", seed) for seed in range(3)], seed=4, rules=rules)
              for _ in range(2)]
    assert finals[0].is_terminal() and finals[0].to_record() == finals[1].to_record()
    assert len(finals[0].wild) == rules.wild_ranks
