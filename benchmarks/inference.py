"""Per-decision latency of the ``dmc`` agent (and, for DouDizhu, ``perfectdou`` and ``deeprocket``), with ``rules`` for
context,
measured and printed: ``python benchmarks/inference.py --game GAME --decisions N [--json]``.

- Positions: the first ``--decisions`` decisions that a DMC network makes and that have more than one legal
  action. Bids, tribute and forced moves are excluded. They come from games between ``rules`` players, game
  ``i`` dealt from seed ``--seed + i`` under the rules self-play trains on (DouDizhu: research mode).
- Networks: the ones shipped for the game (``paiju/agents/dmc/weights/<game>.pt``) when present. Otherwise
  fresh ones of the default sizes (``DMCModels.fresh`` with ``ModelConfig()``, saved to a temporary file).
  Untrained weights take the same arithmetic per decision as trained ones of the same sizes.
- Timed, on every position in turn: ``dmc``, the agent's ``act(observation, legal)`` (``make_agent("dmc:PATH")``:
  features of every legal action, one forward pass, argmax); ``dmc-encoding``, the features alone
  (``DMCAdapter.encode``); ``rules``, the heuristic player's ``act``. DouDizhu also times ``perfectdou`` (the
  shipped networks, else fresh ones of ``paiju.agents.perfectdou.model.ModelConfig()``: grouping the legal plays
  into abstract actions, decoding kickers, features, one forward pass) and ``perfectdou-encoding`` (grouping and
  features alone, ``paiju.agents.perfectdou.features.decision``), ``deeprocket`` (the shipped networks, else fresh
  ones of ``paiju.agents.deeprocket.model.ModelConfig()``: planes, the policy network, the kicker network once per
  kicker unit with a choice) and ``deeprocket-encoding`` (the policy's planes and legal labels,
  ``paiju.agents.deeprocket.features.policy_decision``). Each call is timed with
  ``time.perf_counter_ns`` after 20 untimed decisions. Torch runs on one thread (``DMCAgent`` sets it), as it
  does in play and in self-play.

The median, 99th percentile and maximum are reported in milliseconds, with the mean number of legal actions
per decision. The benchmark measures and prints; it asserts no time.

    python benchmarks/inference.py --game both --decisions 2000 --json
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

import paiju
from common import machine
from paiju.agents import make_agent
from paiju.agents.deeprocket import SHIPPED_MODEL as DEEPROCKET_MODEL
from paiju.agents.deeprocket.features import policy_decision
from paiju.agents.deeprocket.model import DeepRocketNets, save_model
from paiju.agents.dmc import models_at
from paiju.agents.dmc.adapters import adapter_for
from paiju.agents.dmc.models import ModelConfig
from paiju.agents.dmc.weights import DMCModels, save_models, shipped_model_path
from paiju.agents.perfectdou import SHIPPED_MODEL as PERFECTDOU_MODEL
from paiju.agents.perfectdou.features import decision
from paiju.agents.perfectdou.model import ModelConfig as PerfectDouConfig
from paiju.agents.perfectdou.model import PerfectDouModels
from paiju.agents.perfectdou.model import save_models as save_perfectdou
from paiju.core.game import State
from paiju.core.match import play_game

GAMES = ("doudizhu", "guandan")
WARMUP_DECISIONS = 20


@dataclass(frozen=True, slots=True)
class Position:
    """A decision as the seat to move sees it."""

    observation: Any
    legal: tuple[Any, ...]


Timed = Callable[[Position], object]
"""What is timed on one position."""


def positions(game_name: str, count: int, seed: int) -> list[Position]:
    """The first ``count`` network decisions with a choice in seeded games between ``rules`` players."""
    adapter = adapter_for(game_name)
    game = paiju.load_game(game_name)
    found: list[Position] = []

    def keep(state: State, seat: int, action: object) -> None:
        observation, legal = state.observation(seat), state.legal_actions()
        if adapter.role(observation) is not None and len(legal) > 1:
            found.append(Position(observation, tuple(legal)))

    number = seed
    while len(found) < count:
        players = [make_agent("rules", game_name, seed=number * game.num_players + seat)
                   for seat in range(game.num_players)]
        play_game(game, players, number, adapter.selfplay_rules(), on_action=keep)
        number += 1
    return found[:count]


def dmc_agent_name(game: str, folder: Path) -> tuple[str, str]:
    """The ``dmc`` agent to time and where its networks come from (see the module's docstring)."""
    shipped = shipped_model_path(game)
    if shipped.is_file():
        return "dmc", f"shipped ({shipped.name})"
    path = folder / f"{game}.pt"
    save_models(DMCModels.fresh(game, "adp", ModelConfig(), seed=0), path)
    return f"dmc:{path}", "fresh (untrained) networks of ModelConfig() sizes"


def perfectdou_agent_name(folder: Path) -> tuple[str, str]:
    """The ``perfectdou`` agent to time and where its networks come from."""
    if PERFECTDOU_MODEL.is_file():
        return "perfectdou", f"shipped ({PERFECTDOU_MODEL.name})"
    path = folder / "perfectdou.pt"
    save_perfectdou(PerfectDouModels.fresh(PerfectDouConfig(), seed=0), path)
    return f"perfectdou:{path}", "fresh (untrained) networks of ModelConfig() sizes"


def deeprocket_agent_name(folder: Path) -> tuple[str, str]:
    """The ``deeprocket`` agent to time and where its networks come from."""
    if DEEPROCKET_MODEL.is_file():
        return "deeprocket", f"shipped ({DEEPROCKET_MODEL.name})"
    path = folder / "deeprocket.pt"
    save_model(DeepRocketNets(), path)
    return f"deeprocket:{path}", "fresh (untrained) networks of ModelConfig() sizes"


def latencies(timed: dict[str, Timed], found: list[Position]) -> dict[str, list[float]]:
    """Seconds per call of each entry of ``timed`` on every position, entries interleaved position by position."""
    for position in found[:WARMUP_DECISIONS]:
        for call in timed.values():
            call(position)
    seconds: dict[str, list[float]] = {name: [] for name in timed}
    for position in found:
        for name, call in timed.items():
            started = time.perf_counter_ns()
            call(position)
            seconds[name].append((time.perf_counter_ns() - started) / 1e9)
    return seconds


def summary(times: list[float]) -> dict[str, float]:
    """Median, 99th percentile (nearest rank) and maximum, in milliseconds."""
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {"median_ms": 1000 * statistics.median(ordered), "p99_ms": 1000 * p99, "max_ms": 1000 * ordered[-1]}


def measure(game: str, decisions: int, seed: int, progress: Callable[[str], None]) -> dict[str, Any]:
    """Latencies of ``dmc``, its encoding and ``rules`` on ``decisions`` positions of ``game``."""
    found = positions(game, decisions, seed)
    progress(f"{game}: {len(found)} positions")
    with tempfile.TemporaryDirectory(prefix="paiju-inference-benchmark-") as folder:
        name, source = dmc_agent_name(game, Path(folder))
        dmc, rules = make_agent(name, game, seed), make_agent("rules", game, seed)
        models = models_at(name.partition(":")[2], game)
        adapter = models.adapter
        timed: dict[str, Timed] = {
            "dmc": lambda position: dmc.act(position.observation, position.legal),
            "dmc-encoding": lambda position: adapter.encode(position.observation, position.legal),
            "rules": lambda position: rules.act(position.observation, position.legal),
        }
        perfectdou_source = deeprocket_source = None
        if game == "doudizhu":
            perfectdou_name, perfectdou_source = perfectdou_agent_name(Path(folder))
            perfectdou = make_agent(perfectdou_name, game, seed)
            timed["perfectdou"] = lambda position: perfectdou.act(position.observation, position.legal)
            timed["perfectdou-encoding"] = lambda position: decision(position.observation, position.legal)
            deeprocket_name, deeprocket_source = deeprocket_agent_name(Path(folder))
            deeprocket = make_agent(deeprocket_name, game, seed)
            timed["deeprocket"] = lambda position: deeprocket.act(position.observation, position.legal)
            timed["deeprocket-encoding"] = lambda position: policy_decision(position.observation, position.legal)
        seconds = latencies(timed, found)
    return {
        "perfectdou_model": perfectdou_source, "deeprocket_model": deeprocket_source,
        "decisions": len(found), "mean_legal_actions": statistics.fmean(len(p.legal) for p in found),
        "model": {"source": source, "sizes": models.config.to_json()},
        "agents": {name: summary(times) for name, times in seconds.items()},
    }


def table_text(report: dict[str, Any]) -> str:
    """Each game's latencies as a Markdown table."""
    lines = ["| game | timed | median ms | p99 ms | max ms | decisions | mean legal actions |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for game, result in report["games"].items():
        for name, figures in result["agents"].items():
            lines.append(f"| {game} | {name} | {figures['median_ms']:.3f} | {figures['p99_ms']:.3f} | "
                         f"{figures['max_ms']:.3f} | {result['decisions']} | {result['mean_legal_actions']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="doudizhu", choices=(*GAMES, "both"), help="game to measure")
    parser.add_argument("--decisions", type=int, default=2000, help="positions timed (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="first game's seed")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    arguments = parser.parse_args(argv)
    if arguments.decisions < 1:
        parser.error("--decisions must be at least 1")
    games = GAMES if arguments.game == "both" else (arguments.game,)
    report = {
        "command": shlex.join(["python", *sys.argv]), "machine": {**machine(), "torch": torch.__version__},
        "config": {"games": list(games), "decisions": arguments.decisions, "seed": arguments.seed},
        "games": {game: measure(game, arguments.decisions, arguments.seed,
                                lambda line: print(line, file=sys.stderr)) for game in games},
    }
    if arguments.json:
        print(json.dumps(report, indent=2))
    else:
        facts = report["machine"]
        print(f"{facts['cpu']}, {facts['cores']} cores, Python {facts['python']}, torch {facts['torch']}, "
              f"one thread")
        for game, result in report["games"].items():
            print(f"{game}: {result['model']['source']}, sizes {result['model']['sizes']}")
            if result["perfectdou_model"]:
                print(f"{game}: perfectdou {result['perfectdou_model']}")
            if result.get("deeprocket_model"):
                print(f"{game}: deeprocket {result['deeprocket_model']}")
        print(table_text(report))


if __name__ == "__main__":
    main()
