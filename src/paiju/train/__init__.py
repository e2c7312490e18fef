"""Training runtime: Deep Monte-Carlo self-play (``paiju train dmc``), on this machine or on Ray.

- ``config``: the settings of a run; ``dmc``: the learner loop (read it first); ``selfplay``: the actors;
  ``backends``: local processes or Ray actors; ``checkpoint``: atomic checkpoints and ``--resume``;
  ``logs``: CSV, TensorBoard and the progress line; ``evaluation``: periodic evaluation against fixed
  opponents in the background; ``plot``: learning curves (``paiju plot DIR``).
"""
