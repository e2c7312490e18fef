"""Heuristic (rule-based) players, one per game: ``rules`` wherever agents are named."""

from paiju.agents.rules.bidding import BidConfig
from paiju.agents.rules.doudizhu import DouDizhuRulesAgent, PlayConfig, RulesConfig

__all__ = ["BidConfig", "DouDizhuRulesAgent", "PlayConfig", "RulesConfig"]
