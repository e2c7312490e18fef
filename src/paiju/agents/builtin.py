"""Registers paiju's built-in agents with ``paiju.agents``."""

from paiju.agents import register_agent
from paiju.agents.random_agent import RandomAgent

register_agent("*", "random", lambda argument, seed: RandomAgent(seed))
