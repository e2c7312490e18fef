"""Environments for reinforcement-learning libraries over paiju's engines.

``paiju.envs.card_aec.CardGameEnv`` is the PettingZoo AEC loop shared by every game; ``doudizhu_aec.env()``,
``gongzhu_aec.env()`` and ``guandan_aec.env()`` are the games' environments. DouDizhu and Gongzhu use a fixed
discrete action index, GuanDan a position in the current legal list (bounded by ``guandan_aec.MAX_ACTIONS``).
"""
