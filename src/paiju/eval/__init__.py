"""Evaluation: agents played against each other on seeded deals, with honest intervals.

``stats`` (win rates and means with 95 % intervals), ``seeds`` (per-deal and per-agent seeds),
``parallel`` (deals played in worker processes, results in order), ``seating`` (the agents at the seats:
external programs kept running from game to game), and per game: ``doudizhu``
(role-swapped and two-table duplicate) with ``behaviour`` (PerfectDou Table 8 statistics);
``team_duplicate`` (four-player partnership duplicate: each deal again with the hands rotated one seat),
``gongzhu`` (duplicate and WPG), ``matrix`` (all pairs' score matrix) with ``intransitivity``
(ScrofaZero Eq. 17 and its bootstrap); ``tournament`` (a DouDizhu round robin: ADP and WP matrices,
per-role tables, a heat map; the demo).
"""
