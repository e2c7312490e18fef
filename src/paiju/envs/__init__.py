"""Environments for reinforcement-learning libraries over paiju's engines.

``paiju.envs.card_aec.CardGameEnv`` is the PettingZoo AEC loop shared by every game; ``doudizhu_aec.env()`` and
``gongzhu_aec.env()`` are the games' environments, each with a fixed discrete action index.
"""
