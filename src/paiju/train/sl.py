"""Supervised DeepRocket training (``paiju train sl``): read this file top to bottom.

DeepRocket §4.2-4.3: the policy network and the kicker network are fitted by maximum likelihood to the plays of
a corpus of game records (``paiju.train.sl_data`` cuts the samples; illegal outputs are masked before the
softmax, so the loss is the cross-entropy among the legal labels only):

    loss = CE(policy(s) masked to legal labels, label played) + CE(kicker(s, k) masked to kickers allowed, kicker)

1. **Data.** Every file of the corpus is encoded by ``workers`` processes; corrupt records are reported (file,
   line, problem) and skipped, and a corpus with no usable game stops with an error. One game in ten is held
   out (``sl_data.HOLD_OUT``). The packed samples sit on the training device and are unpacked batch by batch.
2. **Steps.** Adam on batches of ``batch`` policy samples and ``batch`` kicker samples drawn at random (from
   ``seed``) from the training games, until ``minutes`` of training or ``epochs`` passes over the policy
   samples. The learning rate falls from ``lr`` to 0 along a half cosine over the run's bound (whichever of
   the two is nearer its end), unless ``decay`` is off.
3. **Validation** every ``eval_every`` steps and at the end: top-1 accuracy of the policy on the held-out
   games, overall and per Table 3 category (of the label played), and of the kicker network per kicker unit.
   Rows go to ``DIR/accuracy.csv``, losses to ``DIR/log.csv``, both to TensorBoard (``DIR/tensorboard``).
4. **Checkpoints** (``DIR/checkpoint.pt``, atomic): settings, networks, optimizer, batch generator, counters;
   ``DIR/model.pt`` holds the networks alone (``deeprocket:DIR``). ``--resume DIR`` continues from them with the
   same settings (the corpus is encoded again, identically), a larger ``--minutes`` or ``--epochs`` training on
   (the learning rate then follows the half cosine of the new bound); Ctrl-C / SIGTERM checkpoint and stop.
5. **Report**: ``DIR/report.json`` and ``DIR/accuracy.png`` (per-category accuracy and the accuracy curve),
   printed as a table.

The network sizes default to the CPU-sized ``ModelConfig()``; ``--layers 10 --filters 512`` is the paper's;
``--init FILE`` starts from a model file's networks (and sizes), e.g. the shipped ones.
``device`` is ``cpu``, ``cuda`` or ``auto``.
"""

from __future__ import annotations

import csv
import json
import math
import time
from dataclasses import asdict, dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from rich.console import Console
from rich.table import Table

from paiju.agents.deeprocket.model import (
    MODEL_FILE,
    DeepRocketNets,
    ModelConfig,
    load_model,
    masked_logits,
    save_model,
)
from paiju.agents.dmc.weights import atomic_torch_save, read_torch_file
from paiju.core.errors import PaijuError
from paiju.eval.parallel import map_units
from paiju.games.doudizhu.deeprocket_labels import KICKER_COUNT, LABEL_CATEGORIES, LABEL_COUNT
from paiju.records.corpus import CorpusReader
from paiju.train.checkpoint import require_format
from paiju.train.sl_data import FileSamples, Samples, file_samples, unpack_bits
from paiju.train.stopping import stop_requested

FORMAT = "paiju-sl-checkpoint-1"
CHECKPOINT_FILE = "checkpoint.pt"
LOG_FILE = "log.csv"
ACCURACY_FILE = "accuracy.csv"
REPORT_FILE = "report.json"
PLOT_FILE = "accuracy.png"
KICKER_KINDS = ("solo", "pair")


@dataclass(frozen=True)
class SLConfig:
    """One supervised run. ``minutes`` and ``epochs`` bound it (whichever comes first; 0: no bound)."""

    records: Path
    out: Path
    seed: int = 0
    minutes: float = 0.0
    epochs: float = 1.0
    batch: int = 256
    lr: float = 1e-3
    decay: bool = True
    eval_every: int = 500
    max_games: int = 0
    """Games read per corpus file (0: all)."""
    workers: int = 1
    device: str = "auto"
    model: ModelConfig = field(default_factory=ModelConfig)
    init: str = ""
    """A DeepRocket model file or training folder to start from (its sizes replace ``model``); "": fresh."""

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "records": str(self.records), "out": str(self.out), "model": self.model.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SLConfig:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        return cls(**{**values, "records": Path(values["records"]), "out": Path(values["out"]),
                      "model": ModelConfig.from_json(values["model"])})


@dataclass
class Counters:
    steps: int = 0
    samples: int = 0
    seconds: float = 0.0


def torch_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise PaijuError("--device cuda: no CUDA device is available here (use cpu or auto)")
    if name not in ("cpu", "cuda"):
        raise PaijuError(f"device must be cpu, cuda or auto, got {name!r}")
    return torch.device(name)


# 1. Data -----------------------------------------------------------------------------------------------------

@dataclass
class Corpus:
    """The encoded corpus: policy and kicker samples, games read, records skipped."""

    policy: Samples
    kicker: Samples
    games: int
    skipped: list[str]


def _encode_files(files: tuple[Path, ...], limit: int | None, chunk: range) -> list[FileSamples]:
    return [file_samples(files[index], limit) for index in chunk]


def encode_corpus(config: SLConfig, console: Console | None) -> Corpus:
    """Samples of every file of ``config.records`` (module docs, step 1)."""
    files = tuple(CorpusReader(config.records, "doudizhu").files)
    if not files:
        raise PaijuError(f"{config.records}: no record files (paiju .jsonl[.gz]/.json records or DeepRocket "
                         ".txt[.gz] records)")
    work = partial(_encode_files, files, config.max_games or None)
    parts = map_units(work, len(files), min(config.workers, len(files)), progress=console is not None,
                      description="encoding")
    skipped = [message for part in parts for message in part.skipped]
    corpus = Corpus(Samples.concatenate([p.policy for p in parts]), Samples.concatenate([p.kicker for p in parts]),
                    sum(p.games for p in parts), skipped)
    if console is not None:
        for message in skipped[:5]:
            console.print(f"[yellow]skipped[/yellow] {message}", soft_wrap=True)
        console.print(f"{corpus.games:,} games ({len(skipped):,} records skipped): {len(corpus.policy):,} policy "
                      f"and {len(corpus.kicker):,} kicker samples, {int(corpus.policy.held_out.sum()):,} and "
                      f"{int(corpus.kicker.held_out.sum()):,} of them held out")
    if corpus.games == 0 or not (~corpus.policy.held_out).any():
        first = f"; first: {skipped[0]}" if skipped else ""
        raise PaijuError(f"{config.records}: no usable DouDizhu decisions to train on ({corpus.games} games read, "
                         f"{len(skipped)} records skipped{first})")
    return corpus


@dataclass
class DeviceSamples:
    """One network's samples on the training device, split into training and held-out rows."""

    planes: torch.Tensor
    mask: torch.Tensor
    label: torch.Tensor
    category: torch.Tensor
    width: int
    outputs: int

    @staticmethod
    def of(samples: Samples, rows: np.ndarray, outputs: int, device: torch.device) -> DeviceSamples:
        part = samples.select(rows)
        return DeviceSamples(torch.from_numpy(part.planes).to(device), torch.from_numpy(part.mask).to(device),
                             torch.from_numpy(part.label.astype(np.int64)).to(device),
                             torch.from_numpy(part.category.astype(np.int64)).to(device), 15, outputs)

    def __len__(self) -> int:
        return len(self.label)

    def batch(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Unpacked planes, legal-output mask and labels of ``rows``."""
        planes = unpack_bits(self.planes[rows], self.width)
        mask = unpack_bits(self.mask[rows], self.outputs).bool()
        return planes, mask, self.label[rows]


def split(samples: Samples, outputs: int, device: torch.device) -> tuple[DeviceSamples, DeviceSamples]:
    return (DeviceSamples.of(samples, np.flatnonzero(~samples.held_out), outputs, device),
            DeviceSamples.of(samples, np.flatnonzero(samples.held_out), outputs, device))


# 2. Steps ----------------------------------------------------------------------------------------------------

def loss_of(logits: torch.Tensor, mask: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Cross-entropy among the legal outputs."""
    return F.cross_entropy(masked_logits(logits, mask), labels)


def step(nets: DeepRocketNets, optimizer: torch.optim.Optimizer, policy: DeviceSamples, kicker: DeviceSamples,
         batch: int, generator: torch.Generator) -> dict[str, float]:
    """One Adam step on a random batch of each network's training samples."""
    device = policy.planes.device
    losses: dict[str, torch.Tensor] = {}
    rows = torch.randint(len(policy), (batch,), generator=generator).to(device)
    planes, mask, labels = policy.batch(rows)
    losses["policy"] = loss_of(nets.policy_logits(planes), mask, labels)
    if len(kicker):
        rows = torch.randint(len(kicker), (batch,), generator=generator).to(device)
        planes, mask, labels = kicker.batch(rows)
        losses["kicker"] = loss_of(nets.kicker_logits(planes), mask, labels)
    optimizer.zero_grad()
    sum(losses.values()).backward()  # type: ignore[union-attr]
    optimizer.step()
    return {name: value.item() for name, value in losses.items()}


def progress(config: SLConfig, counters: Counters, limit_steps: int | None) -> float:
    """How far the run is towards its nearer bound, 0 .. 1."""
    parts = [counters.steps / limit_steps] if limit_steps else []
    if config.minutes:
        parts.append(counters.seconds / (config.minutes * 60))
    return min(1.0, max(parts, default=0.0))


def cosine(fraction: float) -> float:
    """The half-cosine schedule: 1 at the start, 0 at the end."""
    return 0.5 * (1 + math.cos(math.pi * fraction))


def set_learning_rate(optimizer: torch.optim.Optimizer, lr: float) -> None:
    for group in optimizer.param_groups:
        group["lr"] = lr


# 3. Validation -----------------------------------------------------------------------------------------------

@dataclass
class Accuracy:
    """Top-1 accuracy on held-out samples: overall and per category (samples, correct)."""

    samples: int = 0
    correct: int = 0
    by_category: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def top1(self) -> float | None:
        return self.correct / self.samples if self.samples else None

    def to_json(self) -> dict[str, Any]:
        return {"samples": self.samples, "top1": self.top1,
                "by_category": {name: {"samples": n, "top1": c / n} for name, (n, c) in self.by_category.items()}}


@torch.no_grad()
def accuracy(nets: DeepRocketNets, data: DeviceSamples, names: tuple[str, ...], kicker: bool,
             chunk: int = 4096) -> Accuracy:
    """Top-1 accuracy of one network on ``data`` (the most probable legal output against the one played)."""
    nets.eval()
    right = torch.zeros(len(data), dtype=torch.bool, device=data.label.device)
    for start in range(0, len(data), chunk):
        rows = torch.arange(start, min(start + chunk, len(data)), device=data.label.device)
        planes, mask, labels = data.batch(rows)
        logits = nets.kicker_logits(planes) if kicker else nets.policy_logits(planes)
        right[rows] = masked_logits(logits, mask).argmax(dim=1) == labels
    nets.train()
    result = Accuracy(len(data), int(right.sum()))
    for index, name in enumerate(names):
        members = data.category == index
        if members.any():
            result.by_category[name] = (int(members.sum()), int(right[members].sum()))
    return result


def _append(path: Path, row: dict[str, Any]) -> None:
    new = not path.exists()
    with path.open("a", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(row))
        if new:
            writer.writeheader()
        writer.writerow(row)


# 4. Checkpoints ----------------------------------------------------------------------------------------------

def save_checkpoint(config: SLConfig, nets: DeepRocketNets, optimizer: torch.optim.Optimizer,
                    generator: torch.Generator, counters: Counters) -> None:
    nets.meta = {"trainer": "paiju train sl", "records": str(config.records), "seed": config.seed,
                 "steps": counters.steps, "samples": counters.samples, "seconds": round(counters.seconds, 1)}
    atomic_torch_save({"format": FORMAT, "config": config.to_json(), "networks": nets.to_dict(),
                       "optimizer": optimizer.state_dict(), "generator": generator.get_state(),
                       "counters": asdict(counters)}, config.out / CHECKPOINT_FILE)
    save_model(nets, config.out / MODEL_FILE)


def load_checkpoint(folder: Path) -> tuple[SLConfig, DeepRocketNets, dict[str, Any], torch.Tensor, Counters]:
    path = folder / CHECKPOINT_FILE
    data = read_torch_file(path, "training checkpoint")
    require_format(data, FORMAT, path)
    nets = DeepRocketNets.from_dict(data["networks"], str(path))
    config = SLConfig.from_json(data["config"])
    return config, nets, data["optimizer"], data["generator"], Counters(**data["counters"])


# 5. Report ---------------------------------------------------------------------------------------------------

def report_table(report: dict[str, Any]) -> Table:
    table = Table(title=f"DeepRocket accuracy on held-out games ({report['games']:,} games read, "
                        f"{report['samples_trained']:,} samples trained)")
    for column in ("network", "category", "held-out samples", "top-1"):
        table.add_column(column, justify="left" if column in ("network", "category") else "right")
    for network in ("policy", "kicker"):
        result = report[network]
        top1 = "-" if result["top1"] is None else f"{100 * result['top1']:.1f} %"
        table.add_row(network, "all", f"{result['samples']:,}", top1)
        for name, part in result["by_category"].items():
            table.add_row("", name, f"{part['samples']:,}", f"{100 * part['top1']:.1f} %")
    return table


def plot_report(folder: Path, report: dict[str, Any]) -> Path:
    """``accuracy.png``: per-category top-1 of both networks, and the held-out accuracy curve."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (bars, curve) = plt.subplots(1, 2, figsize=(14, 5), constrained_layout=True)
    names, values = [], []
    for network in ("policy", "kicker"):
        for name, part in report[network]["by_category"].items():
            names.append(name if network == "policy" else f"kicker {name}")
            values.append(100 * part["top1"])
    bars.barh(names, values)
    bars.invert_yaxis()
    bars.set_xlabel("top-1 accuracy on held-out games (%)")
    bars.set_xlim(0, 100)
    with (folder / ACCURACY_FILE).open(newline="") as file:
        rows = list(csv.DictReader(file))
    for network in ("policy", "kicker"):
        points = [(int(r["samples"]) / 1e6, 100 * float(r[f"{network}_top1"])) for r in rows if r[f"{network}_top1"]]
        if points:
            curve.plot(*zip(*points, strict=True), marker="o", label=network)
    curve.set_xlabel("samples trained (millions)")
    curve.set_ylabel("top-1 accuracy (%)")
    if curve.lines:
        curve.legend()
    figure.suptitle(f"DeepRocket supervised training: {folder}")
    figure.savefig(folder / PLOT_FILE, dpi=100)
    plt.close(figure)
    return folder / PLOT_FILE


# The run -----------------------------------------------------------------------------------------------------

def train(config: SLConfig, resume: bool = False, console: Console | None = None, tensorboard: bool = True,
          bounds: dict[str, float] | None = None) -> dict[str, Any]:
    """Run (or continue) supervised training; returns the final report. A resumed run keeps its settings, except
    the bounds given in ``bounds`` (``minutes``, ``epochs``: in all, so a larger bound trains on)."""
    counters = Counters()
    if resume:
        config, nets, optimizer_state, generator_state, counters = load_checkpoint(config.out)
        config = replace(config, **(bounds or {}))
    else:
        if (config.out / CHECKPOINT_FILE).exists():
            raise PaijuError(f"{config.out} already holds a run: pass --resume to continue it, or choose a new --out")
        torch.manual_seed(config.seed)
        nets, optimizer_state, generator_state = DeepRocketNets(config.model), None, None
        if config.init:
            nets = DeepRocketNets.from_dict(load_model(Path(config.init)).to_dict(), config.init).train()
            config = replace(config, model=nets.config)
    device = torch_device(config.device)
    config.out.mkdir(parents=True, exist_ok=True)
    (config.out / "settings.json").write_text(json.dumps(config.to_json(), indent=2) + "\n")
    corpus = encode_corpus(config, console)
    policy_train, policy_test = split(corpus.policy, LABEL_COUNT, device)
    kicker_train, kicker_test = split(corpus.kicker, KICKER_COUNT, device)
    nets.to(device).train()
    optimizer = torch.optim.Adam(nets.parameters(), lr=config.lr)
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state)
    generator = torch.Generator()
    generator.manual_seed(config.seed)
    if generator_state is not None:
        generator.set_state(generator_state)
    writer = None
    if tensorboard:
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(config.out / "tensorboard"))
    limit_steps = int(config.epochs * len(policy_train) / config.batch) if config.epochs else None
    started, last_seconds = time.perf_counter(), counters.seconds
    running: dict[str, list[float]] = {}
    validated: tuple[int, tuple[Accuracy, Accuracy]] | None = None

    def validate() -> tuple[Accuracy, Accuracy]:
        policy = accuracy(nets, policy_test, LABEL_CATEGORIES, kicker=False)
        kicker = accuracy(nets, kicker_test, KICKER_KINDS, kicker=True)
        row = {"seconds": round(counters.seconds, 1), "steps": counters.steps, "samples": counters.samples,
               "policy_top1": "" if policy.top1 is None else round(policy.top1, 5),
               "kicker_top1": "" if kicker.top1 is None else round(kicker.top1, 5)}
        _append(config.out / ACCURACY_FILE, row)
        if writer is not None:
            for name, value in (("policy", policy.top1), ("kicker", kicker.top1)):
                if value is not None:
                    writer.add_scalar(f"accuracy/{name}", value, counters.samples)
            writer.flush()
        if console is not None:
            text = " | ".join(f"{name} top-1 {100 * acc.top1:.1f} %" for name, acc in
                              (("policy", policy), ("kicker", kicker)) if acc.top1 is not None)
            console.print(f"[{counters.seconds / 60:6.1f} min] step {counters.steps:,} | samples "
                          f"{counters.samples:,} | held out: {text}")
        return policy, kicker

    with stop_requested() as stop:
        while not stop.is_set():
            if limit_steps is not None and counters.steps >= limit_steps:
                break
            if config.minutes and counters.seconds >= config.minutes * 60:
                break
            if config.decay:
                set_learning_rate(optimizer, config.lr * cosine(progress(config, counters, limit_steps)))
            for name, value in step(nets, optimizer, policy_train, kicker_train, config.batch, generator).items():
                running.setdefault(name, []).append(value)
            counters.steps += 1
            counters.samples += config.batch
            counters.seconds = last_seconds + time.perf_counter() - started
            if counters.steps % config.eval_every == 0:
                losses = {name: float(np.mean(values)) for name, values in running.items()}
                running.clear()
                _append(config.out / LOG_FILE, {"seconds": round(counters.seconds, 1), "steps": counters.steps,
                                                "samples": counters.samples,
                                                **{f"loss_{n}": round(v, 5) for n, v in losses.items()}})
                if writer is not None:
                    for name, value in losses.items():
                        writer.add_scalar(f"loss/{name}", value, counters.samples)
                validated = (counters.steps, validate())
                save_checkpoint(config, nets, optimizer, generator, counters)
    policy, kicker = validate() if validated is None or validated[0] != counters.steps else validated[1]
    save_checkpoint(config, nets, optimizer, generator, counters)
    if writer is not None:
        writer.close()
    report = {"records": str(config.records), "games": corpus.games, "skipped": len(corpus.skipped),
              "policy_samples": len(corpus.policy), "kicker_samples": len(corpus.kicker),
              "samples_trained": counters.samples, "steps": counters.steps, "seconds": round(counters.seconds, 1),
              "device": str(device), "model": config.model.to_json(),
              "policy": policy.to_json(), "kicker": kicker.to_json()}
    (config.out / REPORT_FILE).write_text(json.dumps(report, indent=2) + "\n")
    plot_report(config.out, report)
    if console is not None:
        console.print(report_table(report))
        console.print(f"model: {config.out / MODEL_FILE}; report: {config.out / REPORT_FILE}, "
                      f"{config.out / PLOT_FILE}")
    return report


__all__ = ["SLConfig", "encode_corpus", "report_table", "train"]
