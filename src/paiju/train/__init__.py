"""Training runtime: Deep Monte-Carlo self-play (``paiju train dmc``) and distillation of the search into a
network (``paiju train distil``), on this machine or on Ray.

- ``config``: the settings of a run; ``dmc``: the learner loop (read it first); ``selfplay``: the actors;
  ``distil``: the distillation learner; ``labels``: its actors, labelling positions by simulations;
  ``backends``: any actor class as local processes or Ray actors; ``checkpoint``: atomic checkpoints and ``--resume``;
  ``logs``: CSV, TensorBoard and the progress line; ``evaluation``: periodic evaluation against fixed
  opponents in the background; ``plot``: learning curves (``paiju plot DIR``).
"""
