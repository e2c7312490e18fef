"""Environments for reinforcement-learning libraries over paiju's engines.

``paiju.envs.card_aec.CardGameEnv`` is the PettingZoo AEC loop shared by every game; ``doudizhu_aec.env()``,
``gongzhu_aec.env()`` and ``guandan_aec.env()`` are the games' environments, and ``doudizhu_laizi_aec.env()``
癞子 DouDizhu's. Each uses a fixed discrete action
index with an action mask (GuanDan's over abstract plays: ``paiju.games.guandan.action_space``), and names the
acting agent's legal indices and the public game state in ``infos``.
"""
