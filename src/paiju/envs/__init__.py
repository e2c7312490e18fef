"""Environments for reinforcement-learning libraries over paiju's engines.

``paiju.envs.doudizhu_aec``: DouDizhu as a PettingZoo AEC environment (``doudizhu_aec.env()``), with the fixed
action index of ``paiju.games.doudizhu.action_space`` as its discrete action space.
"""
