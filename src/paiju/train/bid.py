"""Training the bid model (``paiju train bid``): label hands by playing them as landlord, regress the score.

**Data.** Deal ``d`` is dealt from ``derive_seed(seed, "deal", d)``. Each of its three hands is tried as
landlord: the hands are rotated so that it sits at seat 0 (the next hand at seat 1, the last at seat 2), the
three public cards go to it, and the game is played out by the play agent at every seat, each seat's agent
seeded with ``derive_seed(seed, "agent", d, k, seat)`` for rotation ``k``. The game is a full-mode game whose
bidding is fixed (seat 0 bids 1, the others pass), so its landlord payoff is the full score per unit of base
bid: ±2 × 2^(bombs + rocket + spring). That payoff is the hand's label. Deals are independent units played by
``paiju.eval.parallel.map_units``: the data do not depend on the number of workers.

**Learning.** Squared error (the network then estimates the expected label), Adam, minibatches shuffled from
``derive_seed(seed, "batches")``, initial weights from ``seed``, one torch thread: a run is reproducible by its
seed. Every tenth deal (``d % 10 == 0``) is held out; the weights of the epoch with the lowest held-out error
are kept. The held-out error of a constant (the training mean) is reported beside it.

``data`` (optional) caches the labelled deals in an ``.npz`` file, reused when it was made with the same agent
and seed and holds enough deals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import numpy as np
import torch
from rich.console import Console

from paiju.agents import make_agent
from paiju.agents.bidding.features import batch_features
from paiju.agents.bidding.model import DEFAULT_HIDDEN, DEFAULT_THRESHOLDS, BidModel, check_thresholds, save_model
from paiju.core.errors import PaijuError
from paiju.core.match import play_game
from paiju.eval.parallel import map_units
from paiju.eval.seeds import derive_seed
from paiju.games.doudizhu import DouDizhu, DouDizhuRules
from paiju.games.doudizhu.cards import NUM_RANKS
from paiju.games.doudizhu.state import Deal, DouDizhuState

HELD_OUT = 10
"""Every ``HELD_OUT``-th deal is held out for validation."""
FULL = DouDizhuRules(mode="full")


@dataclass(frozen=True)
class BidTrainConfig:
    """One training run; ``minutes`` bounds the learning (0: no bound), ``epochs`` always does."""

    out: Path
    game: str = "doudizhu"
    agent: str = "rules"
    deals: int = 30_000
    seed: int = 0
    workers: int = 1
    epochs: int = 30
    minutes: float = 0.0
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    learning_rate: float = 1e-3
    batch_size: int = 256
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS
    data: Path | None = None

    def __post_init__(self) -> None:
        if self.game != DouDizhu.name:
            raise PaijuError(f"paiju train bid has no encoder for {self.game!r}; it trains on: {DouDizhu.name}")
        if self.deals < HELD_OUT:
            raise PaijuError(f"deals must be at least {HELD_OUT} (every {HELD_OUT}th is held out), got {self.deals}")
        if self.workers < 1 or self.epochs < 1 or self.batch_size < 1 or self.minutes < 0:
            raise PaijuError("workers, epochs and batch size must be positive and minutes not negative")
        if not self.hidden or min(self.hidden) < 1:
            raise PaijuError(f"hidden widths must be positive, got {self.hidden!r}")
        check_thresholds(self.thresholds, "thresholds")
        make_agent(self.agent, DouDizhu.name, 0).close()  # an unknown or broken play agent fails now


@dataclass(frozen=True)
class BidTrainResult:
    model: BidModel
    samples: int
    epochs: int
    train_mse: float
    held_out_mse: float
    constant_mse: float
    seconds: float


def label_deal(agent: str, seed: int, deal_index: int) -> tuple[np.ndarray, np.ndarray]:
    """The three hands of deal ``deal_index`` (shape (3, 15)) and each one's landlord score (the module doc)."""
    deal = Deal.draw(random.Random(derive_seed(seed, "deal", deal_index)), research=True)
    game = DouDizhu()
    labels = np.zeros(3, dtype=np.float32)
    for k in range(3):
        hands = tuple(deal.hands[(k + s) % 3] for s in range(3))
        state = DouDizhuState(FULL, Deal(hands, deal.public, 0))  # type: ignore[arg-type]
        for bid in (1, 0, 0):
            state.apply(bid)
        agents = [make_agent(agent, game.name, derive_seed(seed, "agent", deal_index, k, s)) for s in range(3)]
        try:
            play_game(game, agents, 0, FULL, state=state)
        finally:
            for player in agents:
                player.close()
        labels[k] = state.payoffs()[0]
    return np.array(deal.hands, dtype=np.int8), labels


def _label_deals(agent: str, seed: int, deals: range) -> list[tuple[np.ndarray, np.ndarray]]:
    return [label_deal(agent, seed, d) for d in deals]


def labelled_deals(config: BidTrainConfig, console: Console | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Hands (deals, 3, 15) and labels (deals, 3) of ``config.deals`` deals, from ``config.data`` when it fits."""
    data = config.data
    if data is not None and data.is_file():
        try:
            with np.load(data) as cached:
                hands, labels = cached["hands"], cached["labels"]
                agent, seed = str(cached["agent"]), int(cached["seed"])
        except (OSError, KeyError, ValueError) as error:
            raise PaijuError(f"{data}: not a bid training data file: {error}") from None
        if agent == config.agent and seed == config.seed and len(hands) >= config.deals \
                and hands.shape[1:] == (3, NUM_RANKS):
            if console:
                console.print(f"using {config.deals:,} of the {len(hands):,} labelled deals in {data}")
            return hands[:config.deals], labels[:config.deals]
    started = time.monotonic()
    results = map_units(partial(_label_deals, config.agent, config.seed), config.deals, config.workers,
                        progress=console is not None, description=f"labelling deals ({config.agent})")
    hands = np.stack([h for h, _ in results])
    labels = np.stack([y for _, y in results])
    if console:
        console.print(f"labelled {config.deals:,} deals ({3 * config.deals:,} games) in "
                      f"{time.monotonic() - started:.0f} s; landlord score mean {labels.mean():+.3f}, "
                      f"win rate {(labels > 0).mean():.3f}")
    if data is not None:
        data.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(data, hands=hands, labels=labels, agent=config.agent, seed=config.seed)
    return hands, labels


def _mse(network: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    network.eval()
    with torch.inference_mode():
        return float(((network(x) - y) ** 2).mean())


def train_bid(config: BidTrainConfig, console: Console | None = None, command: str = "") -> BidTrainResult:
    """Label ``config.deals`` deals, fit the bid network, write it to ``config.out``."""
    torch.set_num_threads(1)
    started = time.monotonic()
    hands, labels = labelled_deals(config, console)
    held = np.arange(len(hands)) % HELD_OUT == 0
    x_all = batch_features([tuple(int(n) for n in hand) for hand in hands.reshape(-1, NUM_RANKS)])
    x = torch.from_numpy(x_all.reshape(len(hands), 3, -1))
    y = torch.from_numpy(labels.astype(np.float32))
    x_train, y_train = x[~held].reshape(-1, x.shape[-1]), y[~held].reshape(-1)
    x_held, y_held = x[held].reshape(-1, x.shape[-1]), y[held].reshape(-1)
    model = BidModel.fresh(config.hidden, config.seed, config.thresholds)
    network = model.network
    optimizer = torch.optim.Adam(network.parameters(), lr=config.learning_rate)
    rng = np.random.default_rng(derive_seed(config.seed, "batches"))
    constant = float(((y_held - y_train.mean()) ** 2).mean())
    best = (float("inf"), 0, {k: v.clone() for k, v in network.state_dict().items()})
    learn_started = time.monotonic()
    epochs = 0
    for epoch in range(1, config.epochs + 1):
        network.train()
        order = torch.from_numpy(rng.permutation(len(y_train)))
        for start in range(0, len(order), config.batch_size):
            batch = order[start:start + config.batch_size]
            loss = ((network(x_train[batch]) - y_train[batch]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        epochs = epoch
        held_mse = _mse(network, x_held, y_held)
        if held_mse < best[0]:
            best = (held_mse, epoch, {k: v.clone() for k, v in network.state_dict().items()})
        if console:
            console.print(f"epoch {epoch}: train mse {_mse(network, x_train, y_train):.4f}, held-out mse "
                          f"{held_mse:.4f} (constant {constant:.4f})")
        if config.minutes and time.monotonic() - learn_started > 60 * config.minutes:
            break
    network.load_state_dict(best[2])
    train_mse = _mse(network, x_train, y_train)
    seconds = time.monotonic() - started
    model.meta = {"agent": config.agent, "deals": config.deals, "seed": config.seed, "epochs": epochs,
                  "best_epoch": best[1], "samples": int(len(y_train) + len(y_held)),
                  "train_mse": round(train_mse, 5), "held_out_mse": round(best[0], 5),
                  "constant_mse": round(constant, 5), "seconds": round(seconds, 1), "command": command,
                  "config": {**asdict(config), "out": str(config.out),
                             "data": None if config.data is None else str(config.data)}}
    save_model(model, config.out)
    return BidTrainResult(model, int(len(y_train) + len(y_held)), epochs, train_mse, best[0], constant, seconds)


def parse_thresholds(text: str | Sequence[float]) -> tuple[float, float, float]:
    """``T1/T2/T3`` (or three numbers) as checked thresholds."""
    values = text.split("/") if isinstance(text, str) else text
    return check_thresholds(values, "thresholds")


__all__ = ["BidTrainConfig", "BidTrainResult", "label_deal", "labelled_deals", "parse_thresholds", "train_bid"]
