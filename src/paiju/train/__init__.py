"""Training: one runtime (``loop``), one module per trainer, the command line (``cli``).

==============  =======================  ==========================  ======================================
``paiju train`` learner and settings     actors                      networks (agent names)
==============  =======================  ==========================  ======================================
``dmc``         ``dmc`` (DouZero,        ``dmc_selfplay``            ``agents/dmc`` (``dmc:DIR``)
                DanZero; warm start
                from records:
                ``dmc_corpus``)
``ppo``         ``ppo`` (PerfectDou;     ``ppo_selfplay``            ``agents/perfectdou``
                games: ``ppo_games``)                                (``perfectdou:DIR``; GuanDan:
                                                                     ``dmc:DIR/model.pt``)
``scrofazero``  ``scrofazero``           ``scrofazero_selfplay``     ``agents/scrofazero``
                                                                     (``scrofazero:DIR/model.pt``)
``distil``      ``distil`` (the search   ``distil_actors``           ``agents/distil`` (``distilled:DIR``)
                distilled)
``sl``          ``sl`` (DeepRocket)      none (``sl_data`` encodes   ``agents/deeprocket``
                                         the corpus)                 (``deeprocket:DIR``)
``bid``         ``bid`` (not on the      its labelling games         ``agents/bidding``
                runtime: label, fit)                                 (``learned-bid:model=FILE,AGENT``)
==============  =======================  ==========================  ======================================

The shared runtime (read ``loop`` first): ``loop`` (settings every trainer shares, progress, checkpoints,
``--out`` / ``--resume``, the main loop and its duties, the final evaluation, the trainer registry),
``backends`` (actors as local processes or Ray actors), ``evaluation`` (background evaluation against fixed
opponents), ``logs`` (CSV, TensorBoard, the progress line), ``stopping`` (Ctrl-C / SIGTERM), ``plot`` (``paiju
plot DIR``). A trainer module reads top to bottom: its settings, its losses, then its ``Run``: create, checkpoint,
restore and one ``step`` of training.
"""
