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
   the two is nearer its end: the epochs in all, or the end of this invocation's minutes), unless ``decay`` is
   off.
3. **Validation** every ``eval_every`` steps and at the end: top-1 accuracy of the policy on the held-out
   games, overall and per Table 3 category (of the label played), and of the kicker network per kicker unit.
   Rows go to ``DIR/accuracy.csv`` and TensorBoard (``DIR/tensorboard``); losses to the shared ``DIR/log.csv``.
4. **Checkpoints** (``DIR/checkpoint.pt``, atomic): settings, networks, optimizer, batch generator, counters;
   ``DIR/model.pt`` holds the networks alone (``deeprocket:DIR``). ``--resume DIR`` continues from them with the
   same settings (the corpus is encoded again, identically), a larger ``--epochs`` training on (the learning
   rate then follows the half cosine of the new bound). The loop, checkpoints, stop signals and the optional
   background evaluation (``--eval-minutes``: ``deeprocket:MODEL`` against ``rules``) are the shared runtime's
   (``paiju.train.loop``); ``--minutes`` bounds this invocation, as in every trainer.
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
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from rich.console import Console
from rich.table import Table

from paiju.agents.deeprocket.labels import KICKER_COUNT, LABEL_CATEGORIES, LABEL_COUNT
from paiju.agents.deeprocket.model import DeepRocketNets, ModelConfig, load_model, masked_logits, save_model
from paiju.agents.model_files import MODEL_FILE
from paiju.core.errors import PaijuError
from paiju.eval.parallel import map_units
from paiju.records.corpus import CorpusReader
from paiju.train.loop import Progress, Run, RunSettings, TrainingLoop, TrainResult, run_training, torch_device
from paiju.train.sl_data import FileSamples, Samples, file_samples, unpack_bits

ACCURACY_FILE = "accuracy.csv"
REPORT_FILE = "report.json"
PLOT_FILE = "accuracy.png"
KICKER_KINDS = ("solo", "pair")


@dataclass(frozen=True, kw_only=True)
class SLConfig(RunSettings, trainer="sl", games=("doudizhu",), bound="epochs",
               at_least_one=("batch", "eval_every", "workers"), not_negative=("max_games",)):
    """One supervised run. ``minutes`` (of this invocation) and ``epochs`` (in all) bound it, whichever comes
    first (0: no bound)."""

    game: str = "doudizhu"
    records: Path | None = None
    """The corpus: a folder or file of paiju JSON records or DeepRocket text records."""
    minutes: float = 0.0
    epochs: float = 1.0
    batch: int = 256
    lr: float = 1e-3
    decay: bool = True
    eval_every: int = 500
    """Steps between validations."""
    max_games: int = 0
    """Games read per corpus file (0: all)."""
    workers: int = 1
    """Processes encoding the corpus."""
    device: str = "auto"
    model: ModelConfig = field(default_factory=ModelConfig)
    eval_minutes: float = 0.0
    eval_opponents: tuple[str, ...] = ("rules",)


@dataclass
class SLProgress(Progress):
    samples: int = 0
    """Policy samples trained on (and as many kicker samples)."""


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
    assert config.records is not None, "SLRun.create refuses a run without records"
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


def train_step(nets: DeepRocketNets, optimizer: torch.optim.Optimizer, policy: DeviceSamples, kicker: DeviceSamples,
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


class SLRun(Run[SLConfig, SLProgress], settings=SLConfig, progress=SLProgress, agent="deeprocket", unit="samples"):
    """The learner: both networks, their optimizer and the batch generator; the corpus is encoded at ``start``."""

    def __init__(self, config: SLConfig, progress: SLProgress, nets: DeepRocketNets,
                 learner: dict[str, Any] | None = None) -> None:
        """``learner``: the optimizer's and the generator's saved states (a resumed run)."""
        super().__init__(config, progress)
        self.device = torch_device(config.device)
        self.nets = nets.to(self.device).train()
        self.optimizer = torch.optim.Adam(self.nets.parameters(), lr=config.lr)
        self.generator = torch.Generator()
        self.generator.manual_seed(config.seed)
        if learner is not None:
            self.optimizer.load_state_dict(learner["optimizer"])
            self.generator.set_state(learner["generator"])
        self.validated_at = -1

    @classmethod
    def create(cls, config: SLConfig) -> SLRun:
        if config.records is None:
            raise PaijuError("a new run needs --records (a corpus folder or file)")
        torch.manual_seed(config.seed)
        if config.init:
            nets = DeepRocketNets.from_dict(load_model(Path(config.init)).to_dict(), config.init)
            return cls(replace(config, model=nets.config), SLProgress(), nets)
        return cls(config, SLProgress(), DeepRocketNets(config.model))

    @classmethod
    def restore(cls, config: SLConfig, progress: SLProgress, data: dict[str, Any]) -> SLRun:
        return cls(config, progress, DeepRocketNets.from_dict(data["networks"], str(config.out)), data)

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Checkpoints of earlier versions kept the counters under ``counters``."""
        return {"progress": data.get("counters", {}), **data}

    def learner_data(self) -> dict[str, Any]:
        return {"networks": self.nets.to_dict(), "optimizer": self.optimizer.state_dict(),
                "generator": self.generator.get_state()}

    def meta(self) -> dict[str, Any]:
        return {**super().meta(), "records": str(self.config.records)}

    def save_networks(self, path: Path) -> str:
        self.nets.meta = self.meta()
        save_model(self.nets, path)
        return f"deeprocket:{path}"

    def losses(self) -> tuple[str, ...]:
        return ("policy", "kicker")

    def start(self, loop: TrainingLoop) -> None:
        """Encode the corpus onto the training device; the step bound of ``epochs`` and the end of the minutes."""
        config = self.config
        self.corpus = encode_corpus(config, loop.console)
        self.policy_train, self.policy_test = split(self.corpus.policy, LABEL_COUNT, self.device)
        self.kicker_train, self.kicker_test = split(self.corpus.kicker, KICKER_COUNT, self.device)
        self.limit_steps = int(config.epochs * len(self.policy_train) / config.batch) if config.epochs else None
        self.time_end = self.progress.seconds + 60 * config.minutes if config.minutes else 0.0
        self.log = loop.log

    def done(self) -> bool:
        return self.limit_steps is not None and self.progress.steps >= self.limit_steps

    def fraction(self) -> float:
        """How far the run is towards its nearer bound, 0 .. 1 (the learning rate's schedule)."""
        parts = [self.progress.steps / self.limit_steps] if self.limit_steps else []
        if self.time_end:
            parts.append(self.progress.seconds / self.time_end)
        return min(1.0, max(parts, default=0.0))

    def step(self, loop: TrainingLoop) -> None:
        """One Adam step on a batch of each network; a validation every ``eval_every`` steps."""
        config, progress = self.config, self.progress
        if config.decay:
            set_learning_rate(self.optimizer, config.lr * cosine(self.fraction()))
        losses = train_step(self.nets, self.optimizer, self.policy_train, self.kicker_train, config.batch,
                            self.generator)
        for name, value in losses.items():
            loop.losses[name].append(value)
        progress.steps += 1
        progress.samples += config.batch
        progress.seconds = loop.seconds
        if progress.steps % config.eval_every == 0:
            self.validate()

    def validate(self) -> tuple[Accuracy, Accuracy]:
        """Held-out accuracy of both networks, as a row of ``accuracy.csv``, TensorBoard scalars and a line."""
        progress, log = self.progress, self.log
        policy = accuracy(self.nets, self.policy_test, LABEL_CATEGORIES, kicker=False)
        kicker = accuracy(self.nets, self.kicker_test, KICKER_KINDS, kicker=True)
        self.validated_at, self.accuracies = progress.steps, (policy, kicker)
        found = {"policy": policy.top1, "kicker": kicker.top1}
        log.append(ACCURACY_FILE, {"seconds": round(progress.seconds, 1), "steps": progress.steps,
                                   "samples": progress.samples,
                                   **{f"{name}_top1": "" if value is None else round(value, 5)
                                      for name, value in found.items()}})
        log.scalars({f"accuracy/{name}": value for name, value in found.items() if value is not None},
                    progress.samples)
        log.say(f"[{progress.seconds / 60:6.1f} min] step {progress.steps:,} | samples {progress.samples:,} | "
                "held out: " + " | ".join(f"{name} top-1 {100 * value:.1f} %" for name, value in found.items()
                                          if value is not None))
        return policy, kicker

    def conclude(self, loop: TrainingLoop) -> None:
        """The final accuracy as ``report.json``, ``accuracy.png`` and a table (step 5 of the module doc)."""
        if not hasattr(self, "corpus"):
            return
        policy, kicker = self.accuracies if self.validated_at == self.progress.steps else self.validate()
        self.report = {"records": str(self.config.records), "games": self.corpus.games,
                       "skipped": len(self.corpus.skipped), "policy_samples": len(self.corpus.policy),
                       "kicker_samples": len(self.corpus.kicker), "samples_trained": self.progress.samples,
                       "steps": self.progress.steps, "seconds": round(self.progress.seconds, 1),
                       "device": str(self.device), "model": self.config.model.to_json(),
                       "policy": policy.to_json(), "kicker": kicker.to_json()}
        out = self.config.out
        (out / REPORT_FILE).write_text(json.dumps(self.report, indent=2) + "\n")
        plot_report(out, self.report)
        if loop.console is not None:
            loop.console.print(report_table(self.report))
            loop.say(f"model: {out / MODEL_FILE}; report: {out / REPORT_FILE}, {out / PLOT_FILE}")


RUN = SLRun


def train(config: SLConfig, **options: Any) -> TrainResult:
    """Run (or continue) supervised training (``paiju.train.loop``); the report is ``DIR/report.json``."""
    return run_training(SLRun, config, **options)


__all__ = ["SLConfig", "SLProgress", "SLRun", "encode_corpus", "report_table", "train"]
