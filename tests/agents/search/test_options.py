"""``search:KEY=VALUE,...``: parsing into ``SearchOptions`` and the refusals, each naming what is accepted."""

import pytest

from paiju.agents import make_agent
from paiju.agents.search import PROFILES, SearchAgent, parse_options
from paiju.core.errors import PaijuError


def parse(argument: str, game: str = "doudizhu"):
    return parse_options(argument, game, PROFILES[game].defaults)


def test_no_argument_gives_the_game_defaults():
    for game, profile in PROFILES.items():
        assert parse("", game) == profile.defaults


def test_options_are_typed():
    options = parse("algo=ismcts,policy=random,worlds=32,ms=500,top=7,c=1.5,temperature=2,belief=4")
    assert (options.algo, options.policy, options.worlds, options.ms, options.top) == ("ismcts", "random", 32, 500, 7)
    assert (options.c, options.temperature, options.belief) == (1.5, 2.0, 4)
    assert options.rollout == PROFILES["doudizhu"].defaults.rollout


def test_a_budget_given_replaces_both_budget_defaults():
    assert (parse("ms=300").sims, parse("ms=300").ms) == (None, 300)
    assert (parse("sims=50").sims, parse("sims=50").ms) == (50, None)
    assert (parse("sims=50,ms=9").sims, parse("sims=50,ms=9").ms) == (50, 9)


def test_policies_may_carry_their_own_argument():
    assert parse("rollout=mr-greed:2", "gongzhu").rollout == "mr-greed:2"


@pytest.mark.parametrize(("argument", "game", "accepted"), [
    ("worlds=0", "doudizhu", ">= 1"),
    ("sims=-3", "doudizhu", ">= 1"),
    ("worlds=many", "doudizhu", ">= 1"),
    ("belief=x", "doudizhu", ">= 0"),
    ("c=0", "doudizhu", "positive number"),
    ("temperature=warm", "doudizhu", "positive number"),
    ("c=nan", "doudizhu", "positive number"),
    ("z=-1", "doudizhu", "a number >= 0"),
    ("horizon=3", "doudizhu",
     "accepted keys: algo, policy, rollout, worlds, top, sims, ms, z, c, temperature, belief, solve, leaf, depth"),
    ("solve=-1", "doudizhu", ">= 0"),
    ("worlds", "doudizhu", "accepted keys"),
    ("worlds=3,worlds=4", "doudizhu", "twice"),
    ("algo=mcts", "doudizhu", "one of pimc, ismcts"),
    ("policy=nobody", "doudizhu", "accepted: deeprocket, distilled, dmc,"),
    ("policy=rules", "gongzhu", "accepted: mr-greed, mr-if,"),
    ("rollout=mr-if", "guandan", "accepted: distilled, dmc,"),
    ("policy=search", "doudizhu", "accepted: deeprocket, distilled, dmc,"),
    ("policy=ext:python bot.py", "doudizhu", "accepted: deeprocket, distilled, dmc,"),
    ("rollout=mr-greed:lots", "gongzhu", "mr-greed takes no argument or a number"),
])
def test_bad_options_are_refused_with_what_is_accepted(argument, game, accepted):
    with pytest.raises(PaijuError, match="search option") as refusal:
        parse(argument, game)
    assert accepted in str(refusal.value)


def test_agent_names_take_the_options():
    agent = make_agent("search:algo=ismcts,policy=rules,worlds=32,ms=500", "doudizhu", seed=1)
    assert isinstance(agent, SearchAgent)
    assert (agent.options.algo, agent.options.worlds, agent.options.ms) == ("ismcts", 32, 500)
    with pytest.raises(PaijuError, match="worlds must be a whole number >= 1"):
        make_agent("search:worlds=0", "guandan")


def test_only_a_game_with_a_solver_takes_solve():
    assert make_agent("search:solve=12", "doudizhu").options.solve == 12
    with pytest.raises(PaijuError, match=r"gongzhu has no exact solver \(games with one: doudizhu\)"):
        make_agent("search:solve=12", "gongzhu")
