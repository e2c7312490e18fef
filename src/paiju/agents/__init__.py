"""Agents by name: ``make_agent("random", "doudizhu", seed=1)``.

Every algorithm is one folder here — its model, features, agent and options — and, where it learns, one
trainer ``paiju.train.<trainer>`` (``paiju train <trainer>``). From an agent's name to its code:

- ``dmc``, ``dmc:PATH``: Deep Monte-Carlo, DouZero (Zha et al. 2021) for DouDizhu and DanZero (Lu et al. 2022)
  for GuanDan. Folder ``dmc/``; trainer ``train/dmc.py``, actors ``train/dmc_selfplay.py``.
- ``perfectdou``, ``perfectdou:PATH``: PerfectDou (Yang et al. 2022), PPO with a perfect-information critic.
  Folder ``perfectdou/``; trainer ``train/ppo.py``, actors ``train/ppo_selfplay.py``.
- ``deeprocket``, ``deeprocket:PATH``: DeepRocket (Jiang et al. 2019), supervised policy and kicker CNNs (labels
  in ``deeprocket/labels.py``). Folder ``deeprocket/``; trainer ``train/sl.py``, corpus ``train/sl_data.py``.
- ``scrofazero``, ``scrofazero:OPTIONS``: ScrofaZero (Shi, Li and Sun), MCTS self-play, sampled scenarios at play
  time. Folder ``scrofazero/``; trainer ``train/scrofazero.py``, actors ``train/scrofazero_selfplay.py``.
- ``search``, ``search:OPTIONS``: PIMC or single-observer ISMCTS over a prior policy. Folder ``search/``; no
  trainer (it uses the other agents).
- ``distilled``, ``distilled:OPTIONS``: the search distilled into a DMC network (expert iteration). Folder
  ``distil/``; trainer ``train/distil.py``, actors ``train/distil_actors.py``.
- ``learned-bid:[OPTIONS,]AGENT``: a learned DouDizhu bid around a play agent. Folder ``bidding/``; trainer
  ``train/bid.py``.
- ``rules`` (DouDizhu, GuanDan), ``mr-if`` and ``mr-greed[:N]`` (Gongzhu, the ScrofaZero paper's baselines):
  hand-written players, folder ``rules/``. ``random``: ``random_agent.py``. ``ext:COMMAND``: an outside program
  speaking the external agent protocol, ``external.py``.

Inside an algorithm's folder: ``model.py`` (networks and their files; DMC: ``models.py`` and ``weights.py``),
``features.py`` (what the network sees; DMC: ``douzero_features.py``, ``danzero_features.py``), ``agent.py``
(the player) and the agent's options (parsed by ``paiju.agents.options``); shipped networks sit in
``weights/`` with how they were trained. Shared here: ``model_files`` (model-file I/O for every network),
``options`` (the ``NAME:key=value,...`` parser), ``bridge`` (``paiju bot``: any agent as an external program).
"""

from __future__ import annotations

from collections.abc import Callable

from paiju.core.agent import Agent
from paiju.core.errors import PaijuError

AgentFactory = Callable[[str, int], Agent]
"""Builds an agent from (the part of the name after ``:``, or "", seed)."""

_FACTORIES: dict[tuple[str, str], AgentFactory] = {}
"""(game or "*" for any game, agent name) -> factory."""
_NEEDS_ARGUMENT: set[tuple[str, str]] = set()
"""The (game, name) pairs whose bare name makes no agent (``ext`` needs a command; ``distilled`` a path when
no networks ship for the game)."""


def register_agent(game: str, name: str, factory: AgentFactory, bare: bool = True) -> None:
    """Make ``name`` (``name:ARG`` too) usable wherever agents are named, for ``game`` ("*": every game);
    ``bare=False`` when the name needs its argument to make an agent."""
    _FACTORIES[(game, name)] = factory
    if not bare:
        _NEEDS_ARGUMENT.add((game, name))


def agent_names(game: str, bare: bool = False) -> list[str]:
    """The agent names usable for ``game``; ``bare``: only those whose name alone makes an agent."""
    _load_builtin_agents()
    return sorted({name for (g, name) in _FACTORIES
                   if g in (game, "*") and not (bare and (g, name) in _NEEDS_ARGUMENT)})


def make_agent(spec: str, game: str, seed: int = 0) -> Agent:
    """The agent named ``spec`` for ``game``; ``NAME:ARG`` passes ARG (a command, a path) to its factory."""
    _load_builtin_agents()
    name, _, argument = spec.partition(":")
    factory = _FACTORIES.get((game, name)) or _FACTORIES.get(("*", name))
    if factory is None:
        raise PaijuError(f"unknown agent {spec!r} for {game}; known: {', '.join(agent_names(game))}")
    return factory(argument, seed)


def _load_builtin_agents() -> None:
    import paiju.agents.builtin  # noqa: F401  (registers the built-in agents)


__all__ = ["Agent", "agent_names", "make_agent", "register_agent"]
