"""ScrofaZero for Gongzhu (Shi, Li and Sun, "ScrofaZero: Mastering Trick-taking Poker Game Gongzhu by Deep
Reinforcement Learning"; ``shared/specs/gongzhu.md``).

A policy-value network learns from perfect-information ("double dummy") MCTS self-play (§4, §8.6–§8.8); at play
time the agent samples hidden-hand scenarios consistent with its observation, searches each, and plays the card of
highest weighted Q (§5.3–§5.4).

- ``features``: the network's 434 inputs for the player to move (§8.4–§8.5), one state or a batch.
- ``model``: ``ScrofaNet``, the fully connected network with skip connections (§8.3), its sizes, the policy masked
  before the softmax (§8.8), model files.
- ``mcts``: the perfect-information search, batched across searches (§8.6).
- ``scenarios``: uniform and stratified scenario sampling and IEC weights (§5.3–§5.4).
- ``evaluator``: the network as the search's evaluator and as IEC's policy (§8.6, §5.4, §8.13).
- ``agent``: ``ScrofaZeroAgent``, weighted Q over searched scenarios; the ``scrofazero`` agent names (§5.3–§5.4).
- ``perfect``: ``PerfectScrofaZero`` (``scrofazero:perfect``), the double-dummy analysis player: one search of the
  full state; an upper bound for evaluations, never seated in the arena.

Training is ``paiju.train.scrofazero`` (``paiju train scrofazero``).
"""
