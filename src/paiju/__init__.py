"""paiju: engines, agents, evaluation and training for Chinese card games.

Games are loaded by name (``paiju.load_game("doudizhu")``); agents by spec
(``paiju.make_agent("rules", "doudizhu", seed=1)``).
"""

from paiju.agents import make_agent
from paiju.core.registry import load_game

__all__ = ["load_game", "make_agent"]
__version__ = "0.1.0"
