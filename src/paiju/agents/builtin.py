"""Registers paiju's built-in agents with ``paiju.agents``."""

from paiju.agents import register_agent
from paiju.agents.bidding import SHIPPED_MODEL as BID_MODEL
from paiju.agents.bidding import make_learned_bid_agent
from paiju.agents.deeprocket import SHIPPED_MODEL as DEEPROCKET_MODEL
from paiju.agents.deeprocket import make_deeprocket_agent
from paiju.agents.distil import make_distilled_agent, shipped_path
from paiju.agents.dmc import make_dmc_agent
from paiju.agents.external import ExternalAgent
from paiju.agents.perfectdou import SHIPPED_MODEL as PERFECTDOU_MODEL
from paiju.agents.perfectdou import make_perfectdou_agent
from paiju.agents.random_agent import RandomAgent
from paiju.agents.rules import DouDizhuRulesAgent
from paiju.agents.rules.gongzhu_greed import make_greed_agent
from paiju.agents.rules.gongzhu_if import make_if_agent
from paiju.agents.rules.guandan import GuanDanRulesAgent
from paiju.agents.scrofazero.agent import SHIPPED_MODEL, make_scrofazero_agent
from paiju.agents.search import make_search_agent

register_agent("*", "random", lambda argument, seed: RandomAgent(seed))
register_agent("*", "ext", lambda command, seed: ExternalAgent(command, seed=seed), bare=False)
register_agent("doudizhu", "rules", lambda argument, seed: DouDizhuRulesAgent(seed))
register_agent("gongzhu", "mr-if", make_if_agent)
register_agent("gongzhu", "mr-greed", make_greed_agent)
register_agent("guandan", "rules", lambda argument, seed: GuanDanRulesAgent(seed))
register_agent("doudizhu", "dmc", make_dmc_agent("doudizhu"))
register_agent("guandan", "dmc", make_dmc_agent("guandan"))
for game in ("doudizhu", "guandan"):
    register_agent(game, "distilled", make_distilled_agent(game), bare=shipped_path(game).is_file())
register_agent("doudizhu", "perfectdou", make_perfectdou_agent, bare=PERFECTDOU_MODEL.is_file())
register_agent("doudizhu", "deeprocket", make_deeprocket_agent, bare=DEEPROCKET_MODEL.is_file())
register_agent("gongzhu", "scrofazero", make_scrofazero_agent, bare=SHIPPED_MODEL.is_file())
register_agent("doudizhu", "search", make_search_agent("doudizhu"))
register_agent("guandan", "search", make_search_agent("guandan"))
register_agent("gongzhu", "search", make_search_agent("gongzhu"))
register_agent("doudizhu", "learned-bid", make_learned_bid_agent, bare=BID_MODEL.is_file())
