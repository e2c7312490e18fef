"""Registers paiju's built-in agents with ``paiju.agents``."""

from paiju.agents import register_agent
from paiju.agents.external import ExternalAgent
from paiju.agents.random_agent import RandomAgent
from paiju.agents.rules import DouDizhuRulesAgent

register_agent("*", "random", lambda argument, seed: RandomAgent(seed))
register_agent("*", "ext", lambda command, seed: ExternalAgent(command))
register_agent("doudizhu", "rules", lambda argument, seed: DouDizhuRulesAgent(seed))
