"""The training runtime every trainer shares: settings, progress, checkpoints, the loop and the registry.

A trainer (``paiju train dmc|ppo|scrofazero|distil|sl``) is one module, ``paiju.train.<name>``, holding its
learning settings (a ``RunSettings``), its counters (a ``Progress``) and its learner, a ``Run`` subclass that says
how to create, checkpoint and restore its networks and what one step of training is. ``run_training(RunClass, config)``
does the rest, the same way for all of them:

1. **Open** the run: a new one (``--out DIR``; a folder that already holds a run is refused) or the checkpoint
   of ``--resume DIR``, whose learning settings are kept while the operational ones (``OPERATIONAL``) and the
   bound come from the new command line (the bound only when given: ``keep_bound``).
2. **Loop** (``TrainingLoop``): the actors start (``paiju.train.backends``), then ``step`` runs until the bound
   (``RunSettings.BOUND``, in all), ``minutes`` of this invocation, or Ctrl-C / SIGTERM (the step in hand
   finishes). After each step the loop writes a log row (``paiju.train.logs``), a checkpoint and starts a
   background evaluation (``paiju.train.evaluation``) when each is due.
3. **End**: the checkpoint is written first, so a run stopped at any later moment resumes from it; then a run
   that had no evaluation in this invocation is evaluated once, on a share of ``eval_deals`` proportionate to the
   time it trained (``final_deals``; ``--no-final-eval`` skips it). Ctrl-C or SIGTERM during it stops the
   evaluation and says so in one line.

``DIR/checkpoint.pt`` (atomic: ``paiju.agents.model_files``) holds the format, settings, progress and whatever
the learner adds (networks, optimizers, samples in hand); ``DIR/model.pt`` the networks alone, for agents.
"""

from __future__ import annotations

import math
import threading
import time
import types
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields, replace
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar, Union, get_args, get_origin, get_type_hints

from rich.console import Console

from paiju.agents.model_files import MODEL_FILE, atomic_torch_save, read_torch_file
from paiju.core.errors import PaijuError
from paiju.eval.parallel import BACKENDS, Backend
from paiju.eval.seeds import derive_seed
from paiju.train.backends import ActorPool, Actors, TrainingError, start_pool
from paiju.train.evaluation import EVAL_MODEL_FILE, BackgroundEvaluator
from paiju.train.logs import LOG_FILE, TrainingLog
from paiju.train.stopping import stop_requested

CHECKPOINT_FILE = "checkpoint.pt"
TRAINERS = ("dmc", "ppo", "scrofazero", "distil", "sl")
"""The trainers on this runtime: ``paiju train NAME`` is the module ``paiju.train.NAME``, whose ``RUN`` is its
learner and whose checkpoints have the format ``paiju-NAME-checkpoint-1``."""
OPERATIONAL = ("minutes", "actors", "backend", "address", "checkpoint_minutes", "eval_minutes", "eval_deals",
               "eval_opponents", "final_eval", "log_seconds")
"""Settings a resumed run takes from its new command line; the learning settings stay the checkpoint's."""
MIN_FINAL_DEALS = 4
"""The fewest deals a final evaluation plays (``final_deals``)."""


def checkpoint_format(trainer: str) -> str:
    return f"paiju-{trainer}-checkpoint-1"


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """What every trainer's settings have: the run's folder, game, seed and time, its actors, checkpoints, log and
    background evaluation. A trainer's settings extend it with its learning settings and name in their class line
    the trainer, the games it trains, its bound (a field that bounds the run in all; 0, like ``minutes``, means no
    bound) and the fields that must be at least 1 or at least 0 (besides those every trainer checks)."""

    TRAINER: ClassVar[str] = ""
    GAMES: ClassVar[tuple[str, ...]] = ()
    BOUND: ClassVar[str] = ""
    AT_LEAST_ONE: ClassVar[tuple[str, ...]] = ()
    NOT_NEGATIVE: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, trainer: str = "", games: tuple[str, ...] = (), bound: str = "",
                          at_least_one: tuple[str, ...] = (), not_negative: tuple[str, ...] = (),
                          **more: Any) -> None:
        super().__init_subclass__(**more)
        if trainer:
            cls.TRAINER, cls.GAMES, cls.BOUND = trainer, games, bound
            cls.AT_LEAST_ONE, cls.NOT_NEGATIVE = at_least_one, not_negative

    out: Path
    game: str
    seed: int = 0
    minutes: float = 10.0
    """Wall-clock minutes of this invocation (0: no bound)."""
    actors: int = 2
    backend: Backend = "local"
    address: str | None = None
    """Ray: the address of a cluster started with ``ray start`` (``None``: a local Ray instance)."""
    learner_threads: int = 1
    checkpoint_minutes: float = 5.0
    eval_minutes: float = 10.0
    eval_deals: int = 200
    eval_opponents: tuple[str, ...] = ()
    final_eval: bool = True
    """Evaluate a run that had no evaluation in this invocation at its end (``final_deals``)."""
    log_seconds: float = 10.0
    init: str = ""
    """A model file or training folder to start from (its sizes replace the settings'); empty: fresh weights."""

    def __post_init__(self) -> None:
        if self.game not in self.GAMES:
            raise PaijuError(f"paiju train {self.TRAINER} has no encoder for {self.game!r}; it trains on: "
                             f"{', '.join(self.GAMES)}")
        if self.backend not in BACKENDS:
            raise PaijuError(f"backend must be 'local' or 'ray', got {self.backend!r}")
        for name in ("actors", "learner_threads", *self.AT_LEAST_ONE):
            if getattr(self, name) < 1:
                raise PaijuError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in (self.BOUND, "minutes", "eval_deals", "eval_minutes", *self.NOT_NEGATIVE):
            if getattr(self, name) < 0:
                raise PaijuError(f"{name} must be at least 0, got {getattr(self, name)}")
        if self.minutes <= 0 and getattr(self, self.BOUND) <= 0:
            raise PaijuError(f"a run needs a bound: --minutes or --{self.BOUND}")

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON data (paths as text, tuples as lists, nested settings by their ``to_json``)."""
        return {f.name: _to_json(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """The settings ``to_json`` wrote; unknown keys are ignored and missing ones take their defaults (a
        checkpoint of an earlier version)."""
        hints = get_type_hints(cls)
        return cls(**{f.name: _from_json(hints[f.name], data[f.name]) for f in fields(cls) if f.name in data})


@dataclass(frozen=True, kw_only=True)
class WarmStart:
    """Settings of a trainer whose first ``warm_games`` games are a ``teacher``'s, imitated before self-play, or
    (a trainer that reads corpora) whose warm start imitates the recorded games of ``warm_records``."""

    warm_games: int = 0
    teacher: str = ""
    warm_records: Path | None = None
    """A corpus of recorded games (``paiju records generate``) imitated before self-play; ``None``: none."""
    warm_holdout: float = 0.05
    """The share of ``warm_records``'s games, the last ones, never trained on: the warm start's accuracy is
    measured on them (0: none held out)."""
    warm_passes: int = 1
    """Passes over ``warm_records``'s training games."""

    def check_warm_start(self, reads_records: bool) -> None:
        """``PaijuError`` naming a warm start these settings cannot make: negative games, a corpus for a trainer
        that reads none (``reads_records`` false), a teacher's games and a corpus at once, a held-out share
        outside [0, 1), fewer than one pass over the corpus."""
        if self.warm_games < 0:
            raise PaijuError(f"warm_games must be at least 0, got {self.warm_games}")
        if self.warm_passes < 1:
            raise PaijuError(f"warm_passes must be at least 1, got {self.warm_passes}")
        if self.warm_records is None:
            return
        if not reads_records:
            raise PaijuError("this trainer warm-starts from a teacher's games only (warm_games); a warm start from "
                             "records (warm_records) is paiju train dmc's and ppo's")
        if self.warm_games:
            raise PaijuError("a warm start imitates a teacher's games (warm_games) or recorded ones (warm_records), "
                             "not both")
        if not 0 <= self.warm_holdout < 1:
            raise PaijuError(f"warm_holdout is a share of the corpus's games in [0, 1), got {self.warm_holdout}")

    def warm_start(self) -> dict[str, Any]:
        """How the run started, for the model files' metadata (a trainer's progress adds what it read of
        ``warm_records``: ``paiju.train.dmc.DMCProgress``)."""
        return {"warm_games": self.warm_games, "teacher": self.teacher if self.warm_games else "",
                "warm_records": "" if self.warm_records is None else str(self.warm_records)}


@dataclass(frozen=True, kw_only=True)
class BatchSettings(RunSettings, WarmStart):
    """Settings of trainers that play batches of whole games split over the actors (``share``), the first
    ``warm_games`` of them by a teacher."""

    batch_games: int = 64
    READS_RECORDS: ClassVar[bool] = False
    """Whether the trainer's warm start can read recorded games (``warm_records``)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.batch_games < self.actors:
            raise PaijuError(f"a batch of {self.batch_games} games cannot be shared by {self.actors} actors")
        self.check_warm_start(reads_records=self.READS_RECORDS)


def _to_json(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, tuple):
        return list(value)
    return value.to_json() if hasattr(value, "to_json") else value


def _from_json(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    if get_origin(kind) in (Union, types.UnionType):
        kind = next(arg for arg in get_args(kind) if arg is not type(None))
    if kind is Path:
        return Path(value)
    if get_origin(kind) is tuple:
        return tuple(value)
    return kind.from_json(value) if hasattr(kind, "from_json") else value


def share(config: BatchSettings, batch: int) -> list[tuple[int, int, str]]:
    """Actor ``w``'s part of batch ``batch``: (chunk index ``batch · actors + w``, games, the teacher's name while
    the first ``warm_games`` are played, else "")."""
    teacher = config.teacher if batch * config.batch_games < config.warm_games else ""
    base, extra = divmod(config.batch_games, config.actors)
    return [(batch * config.actors + worker, base + (worker < extra), teacher) for worker in range(config.actors)]


@dataclass
class Progress:
    """Counters of a run, carried across resumes; a trainer adds its own (the bound's among them)."""

    games: int = 0
    steps: int = 0
    """Learner steps (optimizer updates)."""
    seconds: float = 0.0
    """Seconds trained in all."""
    commands: list[str] = field(default_factory=list)
    """The command line of the run and of each resume."""


@dataclass(frozen=True)
class TrainResult:
    """What one invocation of a trainer did."""

    games: int
    """Games played in all."""
    samples: int
    """What the learner trained on in all, in ``unit``."""
    unit: str
    seconds: float
    """Seconds trained in all."""
    rate: float
    """``unit`` per second of this invocation (resumed runs: since the resume)."""
    games_per_hour: float
    """Games played per hour of this invocation."""
    agent: str
    """The agent name that plays the run's model file (``dmc:DIR/model.pt``)."""


S = TypeVar("S", bound=RunSettings)
B = TypeVar("B", bound=BatchSettings)
P = TypeVar("P", bound=Progress)


class Run(ABC, Generic[S, P]):
    """One trainer's learner on the shared runtime. A subclass names its settings, progress, agent and unit in its
    class line (``class DMCRun(Run[...], settings=DMCConfig, progress=DMCProgress, agent="dmc")``), says what its
    checkpoint holds and writes ``step``: one unit of training (a chunk, a batch), read top to bottom."""

    TRAINER: ClassVar[str]
    SETTINGS: ClassVar[type[RunSettings]]
    PROGRESS: ClassVar[type[Progress]]
    AGENT: ClassVar[str]
    """The agent name that plays the run's networks (``AGENT:DIR/model.pt``)."""
    UNIT: ClassVar[str]
    """The ``Progress`` counter of what the learner trains on (logged as ``frames``)."""
    GAMES_IN_EVAL: ClassVar[bool]
    """Whether evaluation rows count games (``paiju plot`` then draws them against games, else frames)."""

    def __init_subclass__(cls, settings: type[RunSettings] | None = None, progress: type[Progress] | None = None,
                          agent: str = "", unit: str = "frames", games_in_eval: bool = True, **more: Any) -> None:
        super().__init_subclass__(**more)
        if settings is not None and progress is not None:
            cls.TRAINER, cls.SETTINGS, cls.PROGRESS, cls.AGENT = settings.TRAINER, settings, progress, agent
            cls.UNIT, cls.GAMES_IN_EVAL = unit, games_in_eval

    def __init__(self, config: S, progress: P) -> None:
        self.config = config
        self.progress = progress
        self.played_by = ""
        """The agent name that plays the model file last written (``save_networks``)."""

    @classmethod
    @abstractmethod
    def create(cls, config: S) -> Self:
        """A new run of ``config`` (fresh networks, or its ``init`` file's)."""

    @classmethod
    @abstractmethod
    def restore(cls, config: S, progress: P, data: dict[str, Any]) -> Self:
        """The run a checkpoint's ``data`` (what ``learner_data`` returned) holds."""

    @abstractmethod
    def learner_data(self) -> dict[str, Any]:
        """What the checkpoint keeps besides the settings and the progress."""

    @abstractmethod
    def save_networks(self, path: Path) -> str:
        """Write the networks (with ``meta()``) as a model file at ``path``; the agent name that plays them."""

    def eval_rules(self) -> dict[str, Any]:
        """Ruleset options the evaluations play under (DouDizhu: besides the research mode); none by default."""
        return {}

    @abstractmethod
    def step(self, loop: TrainingLoop) -> None:
        """One unit of training: collect what the actors played, learn from it, count it in ``progress``."""

    def actors(self) -> Actors | None:
        """The actors (class and arguments), or ``None`` for a trainer without any."""
        return None

    def losses(self) -> tuple[str, ...]:
        """The names of the losses ``step`` appends to ``loop.losses``."""
        return ("loss",)

    def start(self, loop: TrainingLoop) -> None:
        """Hand out the first work to the actors."""

    def done(self) -> bool:
        """Whether the run reached its bound."""
        bound = getattr(self.config, self.config.BOUND)
        return bound > 0 and getattr(self.progress, self.config.BOUND) >= bound

    def conclude(self, loop: TrainingLoop) -> None:
        """What a trainer does after its final checkpoint and evaluation (a report)."""

    @classmethod
    def upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A checkpoint's data as this version writes it (a trainer whose format changed maps the old keys)."""
        return data

    @property
    def samples(self) -> int:
        return int(getattr(self.progress, self.UNIT))

    def meta(self) -> dict[str, Any]:
        """How the networks were made, stored in every model file the run writes."""
        counters = {key: value for key, value in asdict(self.progress).items() if key != "commands"}
        warm = self.config.warm_start() if isinstance(self.config, WarmStart) else {}
        return {"trainer": f"paiju train {self.TRAINER}", **counters, **warm, "seed": self.config.seed,
                "seconds": round(self.progress.seconds, 1), "command": " && ".join(self.progress.commands),
                "config": self.config.to_json()}

    def save_checkpoint(self) -> None:
        """Write ``checkpoint.pt`` and ``model.pt`` into the run's folder, each atomically."""
        out = self.config.out
        atomic_torch_save({"format": checkpoint_format(self.TRAINER), "config": self.config.to_json(),
                           "progress": asdict(self.progress), **self.learner_data()}, out / CHECKPOINT_FILE)
        self.played_by = self.save_networks(out / MODEL_FILE)

    @classmethod
    def load(cls, folder: Path) -> Self:
        """The run saved in ``folder/checkpoint.pt``."""
        path = Path(folder) / CHECKPOINT_FILE
        if not path.is_file() and (Path(folder) / MODEL_FILE).is_file():
            raise PaijuError(f"{folder} has no {CHECKPOINT_FILE} to resume from, only networks ({MODEL_FILE}): start "
                             f"a new run from them with --out NEW --init {folder}")
        data = read_torch_file(path, "checkpoint to resume from")
        require_format(data, cls.TRAINER, path)
        data = cls.upgrade(data)
        config = replace(cls.SETTINGS.from_json(data["config"]), out=Path(folder))
        return cls.restore(config, cls.PROGRESS(**data["progress"]), data)  # type: ignore[arg-type]


class BatchRun(Run[B, P]):
    """A run that plays batches of whole games split over its actors (``share``): batch ``k + 1`` is handed out,
    with the weights of that moment, as soon as batch ``k`` is collected, so the actors play while the learner
    learns and a run is a function of its seed whatever the machine's timing."""

    @abstractmethod
    def weights(self) -> Any:
        """The networks' parameters as the actors take them."""

    def hand_out(self, loop: TrainingLoop, batch: int) -> None:
        weights = self.weights()
        for worker, (chunk, games, teacher) in enumerate(share(self.config, batch)):
            loop.pool.submit(worker, chunk, games, weights, teacher)

    def start(self, loop: TrainingLoop) -> None:
        self.hand_out(loop, self.progress.batches)  # type: ignore[attr-defined]

    def next_batch(self, loop: TrainingLoop) -> list[Any]:
        """Every actor's part of the batch in hand, once the next batch is handed out."""
        chunks = [loop.pool.result(worker) for worker in range(self.config.actors)]
        self.hand_out(loop, self.progress.batches + 1)  # type: ignore[attr-defined]
        return chunks


@dataclass
class ChunkProgress(Progress):
    chunks: int = 0
    """Chunks consumed (the next one comes from actor ``chunks mod actors``)."""


C = TypeVar("C", bound=ChunkProgress)


class ChunkRun(Run[S, C]):
    """A run that consumes its actors' chunks in a fixed round-robin order — chunk ``k`` comes from actor
    ``k mod actors`` and was asked for when chunk ``k − actors`` was consumed — so a run is a function of its seed
    whatever the machine's timing. Each actor is asked for its next chunk as soon as its last one arrives, before
    the learner trains on it, so actors never wait for the learner."""

    def ask_first(self, loop: TrainingLoop, *arguments: Any) -> None:
        """Ask every actor for its first chunk of this invocation (with ``arguments``)."""
        actors, first = self.config.actors, self.progress.chunks
        for index in range(first, first + actors):
            loop.pool.submit(index % actors, index, *arguments)

    def next_chunk(self, loop: TrainingLoop, *arguments: Any) -> Any:
        """The next chunk in order; its actor is asked at once for the one ``actors`` later (with ``arguments``)."""
        actors, index = self.config.actors, self.progress.chunks
        chunk = loop.pool.result(index % actors)
        loop.pool.submit(index % actors, index + actors, *arguments)
        self.progress.chunks += 1
        return chunk


def actor_seeds(config: RunSettings) -> list[int]:
    """Actor ``w``'s seed: ``derive_seed(seed, "actor", w)``."""
    return [derive_seed(config.seed, "actor", worker) for worker in range(config.actors)]


def torch_device(name: str) -> Any:
    """The learner's ``torch.device``: ``cpu``, ``cuda``, or ``auto`` (cuda where one is available)."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cuda" and not torch.cuda.is_available():
        raise PaijuError("--device cuda: no CUDA device is available here (use cpu or auto)")
    if name not in ("cpu", "cuda"):
        raise PaijuError(f"device must be cpu, cuda or auto, got {name!r}")
    return torch.device(name)


def optimizer_states(optimizers: dict[str, Any]) -> dict[str, Any]:
    """Each role's optimizer state, for a checkpoint."""
    return {role: optimizer.state_dict() for role, optimizer in optimizers.items()}


def load_optimizer_states(optimizers: dict[str, Any], states: dict[str, Any]) -> None:
    """Restore each role's optimizer from ``optimizer_states``."""
    for role, optimizer in optimizers.items():
        optimizer.load_state_dict(states[role])


def require_format(data: Any, trainer: str, path: Path) -> None:
    """Refuse a checkpoint not written by ``paiju train TRAINER``, saying what ``path`` holds and how to resume it."""
    found = data.get("format") if isinstance(data, dict) else None
    if found == checkpoint_format(trainer):
        return
    writer = next((name for name in TRAINERS if checkpoint_format(name) == found), None)
    if writer is not None:
        raise PaijuError(f"{path} holds a `paiju train {writer}` run, not a `paiju train {trainer}` one; "
                         f"resume it with `paiju train {writer} --resume {path.parent}`")
    raise PaijuError(f"{path} is not a paiju training checkpoint (expected format {checkpoint_format(trainer)!r})")


def run_class(trainer: str) -> type[Run[Any, Any]]:
    """The learner of ``paiju train TRAINER`` (the registry: ``TRAINERS``)."""
    if trainer not in TRAINERS:
        raise PaijuError(f"unknown trainer {trainer!r}; known: {', '.join(TRAINERS)}")
    return import_module(f"paiju.train.{trainer}").RUN  # type: ignore[no-any-return]


def open_run(cls: type[Run[S, P]], config: S, resume: bool, keep_bound: bool, command: str) -> Run[S, P]:
    """Step 1 of the module doc: a new run of ``config``, or (``resume``) the one in ``config.out``."""
    import torch

    folder = config.out
    if resume:
        run = cls.load(folder)
        given = {name: getattr(config, name) for name in (*OPERATIONAL, *(() if keep_bound else (config.BOUND,)))}
        run.config = replace(run.config, **given)
    elif (folder / CHECKPOINT_FILE).exists():
        raise PaijuError(f"{folder} already holds a run: pass --resume {folder} to continue it, or choose a new --out")
    else:
        run = cls.create(config)
    folder.mkdir(parents=True, exist_ok=True)
    if command:
        run.progress.commands.append(command)
    torch.set_num_threads(run.config.learner_threads)
    return run


def final_deals(config: RunSettings, seconds: float) -> int:
    """Deals of the final evaluation after ``seconds`` of training: ``eval_deals`` × the share of the evaluation
    period trained, at least ``MIN_FINAL_DEALS`` (so a one-minute run is not held up by an evaluation sized for
    ten)."""
    share = seconds / (60 * config.eval_minutes)
    return min(config.eval_deals, max(MIN_FINAL_DEALS, math.ceil(config.eval_deals * share)))


class TrainingLoop:
    """The periodic duties of one invocation of a trainer (module doc, steps 2 and 3)."""

    def __init__(self, run: Run[Any, Any], console: Console | None, tensorboard: bool,
                 stop: threading.Event) -> None:
        config = run.config
        self.run, self.config, self.console, self.stop = run, config, console, stop
        self.log = TrainingLog(config.out, run.losses(), console, tensorboard)
        self.evaluator = BackgroundEvaluator() if config.eval_minutes > 0 and config.eval_opponents else None
        actors = run.actors()
        self._pool = start_pool(config.backend, config.address, actors) if actors is not None else None
        self.started = time.monotonic()
        self.last_log = self.last_checkpoint = self.last_eval = self.started
        self.seconds_before, self.log_samples = run.progress.seconds, run.samples
        self.losses: dict[str, list[float]] = {name: [] for name in run.losses()}
        self.evaluated = False

    @property
    def pool(self) -> ActorPool:
        """The actors of a trainer that has them."""
        if self._pool is None:
            raise TrainingError(f"paiju train {self.run.TRAINER} has no actors")
        return self._pool

    @property
    def elapsed(self) -> float:
        """Seconds since this invocation started."""
        return time.monotonic() - self.started

    @property
    def seconds(self) -> float:
        """Seconds trained in all (across resumes)."""
        return self.seconds_before + self.elapsed

    def running(self) -> bool:
        """Whether to go on: the run's bound not reached, within ``minutes``, and no stop requested."""
        over_time = self.config.minutes > 0 and self.elapsed >= 60 * self.config.minutes
        return not (self.run.done() or over_time or self.stop.is_set())

    def after_step(self) -> None:
        """Log, checkpoint and evaluate when due."""
        run, config, now = self.run, self.config, time.monotonic()
        run.progress.seconds = self.seconds
        if now - self.last_log >= config.log_seconds:
            self._log_row(now)
        if now - self.last_checkpoint >= 60 * config.checkpoint_minutes:
            run.save_checkpoint()
            self.last_checkpoint = now
        if self.evaluator is not None:
            self.log.evaluation(self.evaluator.finished())
            if now - self.last_eval >= 60 * config.eval_minutes and not self.evaluator.busy:
                self._evaluate(config.eval_deals)
                self.last_eval = now

    def _log_row(self, now: float) -> None:
        """A row of ``log.csv`` (and the progress line): counts, speed and mean losses since the last row."""
        run = self.run
        means = {name: sum(values) / len(values) if values else None for name, values in self.losses.items()}
        rate = (run.samples - self.log_samples) / max(now - self.last_log, 1e-9)
        self.log.learner(run.progress.seconds, run.samples, rate, run.progress.games, means)
        self.last_log, self.log_samples = now, run.samples
        self.losses = {name: [] for name in self.losses}

    def _evaluate(self, deals: int) -> None:
        run, config = self.run, self.config
        assert self.evaluator is not None
        agent = run.save_networks(config.out / EVAL_MODEL_FILE)
        self.evaluator.start(config.game, agent, config.eval_opponents, deals, config.seed, run.progress.seconds,
                             run.samples, run.progress.games if run.GAMES_IN_EVAL else 0, run.eval_rules())
        self.evaluated = True

    def end(self) -> None:
        """The last log row (one in any case: a run that ended before its first batch still has ``log.csv``) and
        the checkpoint, then the final evaluation (module doc, step 3)."""
        self.run.progress.seconds = self.seconds
        if self.run.samples != self.log_samples or not (self.config.out / LOG_FILE).exists():
            self._log_row(time.monotonic())
        self.run.save_checkpoint()
        config = self.config
        if self.evaluator is None or self.evaluated or self.stop.is_set() or not config.final_eval:
            return
        deals = final_deals(config, self.elapsed)
        self.say(f"evaluating the final networks against {', '.join(config.eval_opponents)} over {deals} deals "
                  f"(the checkpoint is written; Ctrl-C stops the evaluation)")
        self._evaluate(deals)
        rows = self.evaluator.finished(wait=True, stop=self.stop)
        if rows is None:
            self.say(f"final evaluation stopped; the run is saved: paiju train {self.run.TRAINER} --resume "
                      f"{config.out} goes on")
        else:
            self.log.evaluation(rows)

    def say(self, text: str) -> None:
        if self.console is not None:
            self.console.print(text)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
        if self.evaluator is not None:
            self.evaluator.close()
        self.log.close()


@contextmanager
def training_loop(run: Run[Any, Any], console: Console | None, tensorboard: bool) -> Iterator[TrainingLoop]:
    """A ``TrainingLoop`` for the block; Ctrl-C or SIGTERM inside it makes ``running`` false."""
    with stop_requested() as stop:
        loop = TrainingLoop(run, console, tensorboard, stop)
        try:
            yield loop
        finally:
            loop.close()


def run_training(cls: type[Run[S, P]], config: S, resume: bool = False, keep_bound: bool = False,
          console: Console | None = None, tensorboard: bool = True, command: str = "") -> TrainResult:
    """Run ``cls`` on ``config`` (module doc); ``command`` (the command line, if any) is kept with the checkpoints
    and the model's metadata."""
    run = open_run(cls, config, resume, keep_bound, command)
    samples_before, games_before = run.samples, run.progress.games
    with training_loop(run, console, tensorboard) as loop:
        run.start(loop)
        while loop.running():
            run.step(loop)
            loop.after_step()
        loop.end()
        run.conclude(loop)
    elapsed = max(loop.elapsed, 1e-9)
    return TrainResult(run.progress.games, run.samples, cls.UNIT, run.progress.seconds,
                       (run.samples - samples_before) / elapsed, (run.progress.games - games_before) * 3600 / elapsed,
                       run.played_by)


__all__ = [
    "CHECKPOINT_FILE",
    "OPERATIONAL",
    "TRAINERS",
    "BatchRun",
    "BatchSettings",
    "Progress",
    "Run",
    "RunSettings",
    "TrainResult",
    "TrainingLoop",
    "WarmStart",
    "actor_seeds",
    "checkpoint_format",
    "final_deals",
    "open_run",
    "require_format",
    "run_class",
    "run_training",
    "share",
    "torch_device",
    "training_loop",
]
