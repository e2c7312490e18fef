"""``paiju train dmc|ppo|scrofazero|distil|sl|bid|export`` and ``paiju plot``: the training commands (see
``paiju.cli``).

Every trainer on the shared runtime (``paiju.train.loop``) is one command made by ``trainer_command``: its own
learning options, declared by the function it decorates, and one set of common options (``COMMON``: the run's
folder, game, seed, time, init, checkpoints, evaluation; ``ACTORS`` where it has actors; ``BATCHES`` where it
plays batches of games), whose defaults a trainer may change. The command checks ``--out`` / ``--resume``, builds
the trainer's settings, echoes nothing but a summary, and keeps its command line with the run. Trainers are
imported only when their command runs, so ``paiju`` starts without torch.
"""

from __future__ import annotations

import inspect
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

train_app = typer.Typer(help="Train agents: self-play, imitation, distillation, supervised learning.",
                        no_args_is_help=True)
console = Console(highlight=False)

Option = tuple[str, Any, Any, str]
"""A common option: (name, type, default, help)."""
COMMON: tuple[Option, ...] = (
    ("out", Path | None, None, "Folder of a new run: checkpoint.pt, model.pt, logs."),
    ("resume", Path | None, None, "Continue the run in this folder from its last checkpoint (its learning settings "
                                  "are kept; its bound too, unless given)."),
    ("game", str, "doudizhu", "Game to train on."),
    ("seed", int, 0, "Seed of the run (initial weights, deals, batches)."),
    ("minutes", float, 10.0, "Wall-clock minutes to train in this invocation (0: no bound)."),
    ("init", str, "", "Model file or training folder to start from (its sizes are kept); default: fresh weights."),
    ("learner_threads", int, 1, "Torch threads of the learner."),
    ("checkpoint_minutes", float, 5.0, "Minutes between checkpoints."),
    ("eval_minutes", float, 10.0, "Minutes between background evaluations (0: none)."),
    ("eval_deals", int, 200, "Duplicate deals per evaluation and opponent."),
    ("eval_against", str, "rules", "Opponents of the evaluation, comma-separated."),
    ("final_eval", bool, True, "Evaluate a run that had no evaluation at its end, on deals in proportion to the "
                               "time it trained."),
    ("tensorboard", bool, True, "Write TensorBoard events to DIR/tensorboard."),
)
BACKEND_HELP = "local (processes here) or ray."
ADDRESS_HELP = "Ray cluster address (from `ray start`); default: a local Ray instance."
BackendOption = Annotated[str, typer.Option(help=BACKEND_HELP)]
"""``--backend`` of every command that runs work in parallel (training, evaluation, corpora)."""
AddressOption = Annotated[str | None, typer.Option(help=ADDRESS_HELP)]
"""``--address``, the Ray cluster of ``--backend ray``."""
ACTORS: tuple[Option, ...] = (
    ("actors", int, 2, "Actor processes."),
    ("backend", str, "local", BACKEND_HELP),
    ("address", str | None, None, ADDRESS_HELP),
)
BATCHES: tuple[Option, ...] = (
    ("batch_games", int, 64, "Games per batch."),
    ("warm_games", int, 0, "Games of the teacher imitated before self-play (0: none)."),
    ("teacher", str, "rules", "The warm start's teacher agent."),
)
RECORDS: tuple[Option, ...] = (
    ("warm_records", Path | None, None, "Warm start from a corpus of recorded games instead (paiju records "
                                        "generate): every seat's play decisions imitated in file order before "
                                        "self-play; bad records are reported and skipped."),
    ("warm_holdout", float, 0.05, "Share of the --warm-records games, the last ones, never trained on: the warm "
                                  "start's top-1 accuracy on them goes to DIR/warm-accuracy.json."),
    ("warm_passes", int, 1, "Passes over the --warm-records training games."),
)
SUMMARY_OPTIONS = ("out", "resume", "eval_against", "tensorboard")
"""Common options that are not settings fields."""


def _parameter(option: Option, defaults: dict[str, Any]) -> inspect.Parameter:
    name, kind, default, text = option
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults.get(name, default),
                             annotation=Annotated[kind, typer.Option(help=text)])


def trainer_command(trainer: str, with_actors: bool = True, with_batches: bool = False, with_records: bool = False,
                    **defaults: Any) -> Callable[[Callable[..., dict[str, Any]]], Callable[..., None]]:
    """Register ``paiju train TRAINER``: the decorated function takes the trainer's own options and returns its
    learning settings (the bound ``None`` when not given); the common options (``defaults`` changing theirs)
    are added to the command."""
    groups = (COMMON, *((ACTORS,) if with_actors else ()), *((BATCHES,) if with_batches else ()),
              *((RECORDS,) if with_records else ()))
    common = [_parameter(option, defaults) for group in groups for option in group]

    def decorate(function: Callable[..., dict[str, Any]]) -> Callable[..., None]:
        own = list(inspect.signature(function, eval_str=True).parameters.values())

        def command(**given: Any) -> None:
            options = {parameter.name: given.pop(parameter.name) for parameter in common}
            start(trainer, options, function(**given))

        command.__signature__ = inspect.Signature([*own, *common])  # type: ignore[attr-defined]
        command.__doc__, command.__name__ = function.__doc__, function.__name__
        train_app.command(trainer)(command)
        return command

    return decorate


def start(trainer: str, options: dict[str, Any], learning: dict[str, Any]) -> None:
    """Check the folders, build the trainer's settings, train, and print what was done."""
    from paiju.agents.model_files import MODEL_FILE
    from paiju.train.loop import run_class, run_training

    out, resume = options["out"], options["resume"]
    if (out is None) == (resume is None):
        raise typer.BadParameter("give exactly one of --out DIR (a new run) or --resume DIR")
    run = run_class(trainer)
    bound = run.SETTINGS.BOUND
    keep_bound = learning.get(bound) is None
    learning = {name: value for name, value in learning.items() if value is not None or name != bound}
    settings = {name: value for name, value in options.items() if name not in SUMMARY_OPTIONS}
    opponents = tuple(name for name in options["eval_against"].split(",") if name)
    folder = out or resume
    config = run.SETTINGS(out=folder, eval_opponents=opponents, **settings, **learning)
    result = run_training(run, config, resume=resume is not None, keep_bound=keep_bound, console=console,
                          tensorboard=options["tensorboard"], command=shlex.join(["paiju", *sys.argv[1:]]))
    played = f"played {result.games:,} games, " if result.games else ""
    console.print(f"{played}trained on {result.samples:,} {result.unit} in all ({result.seconds / 60:.1f} min); "
                  f"{result.rate:,.0f} {result.unit}/s in this run. Networks: {folder / MODEL_FILE} (agent "
                  f"{result.agent})")


def sizes(text: str) -> tuple[int, ...]:
    """Comma-separated positive widths."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"expected widths like 256,256,256, got {text!r}") from None
    if not widths or min(widths) < 1:
        raise typer.BadParameter(f"widths must be positive, got {text!r}")
    return widths


def _clip(text: str) -> float | None:
    """``default`` → -1 (the game's default), ``none`` → off, else λ."""
    if text.lower() in ("default", "none"):
        return -1.0 if text.lower() == "default" else None
    try:
        return float(text)
    except ValueError:
        raise typer.BadParameter(f"--clip-lambda: expected a number, 'none' or 'default', got {text!r}") from None


@trainer_command("dmc", with_records=True, eval_minutes=5.0, eval_against="random,rules")
def train_dmc(
    frames: Annotated[int | None, typer.Option(help="Stop once this many frames are trained on in all (0: no "
                                                    "bound; default 0).")] = None,
    objective: Annotated[str, typer.Option(help="DouDizhu return: adp (score) or wp (win +1 / loss -1).")] = "adp",
    hidden: Annotated[str, typer.Option(help="MLP widths.")] = "256,256,256",
    lstm: Annotated[int, typer.Option(help="History LSTM size (DouDizhu).")] = 64,
    features: Annotated[str, typer.Option(help="Features the networks read: GuanDan plus (the paper's and who "
                                               "played the play to beat and the hand an action leaves), paper, or "
                                               "advice (plus and the rules player's score of each action); "
                                               "DouDizhu paper or laizi. Default: the game's first.")] = "",
    batch_size: Annotated[int, typer.Option(help="Frames per learner step.")] = 3200,
    chunk_frames: Annotated[int, typer.Option(help="Frames an actor plays between refreshes of its networks "
                                                   "from the learner.")] = 1600,
    learning_rate: Annotated[float | None, typer.Option(help="RMSProp learning rate (default: 1e-4 DouDizhu, "
                                                             "1e-3 GuanDan).")] = None,
    clip_lambda: Annotated[str, typer.Option(help="DanZero's clipped target λ: a number, 'none', or 'default' "
                                                  "(0.65 for GuanDan, off for DouDizhu).")] = "default",
    warm_games: Annotated[int, typer.Option(help="Warm start: games of the teacher imitated before self-play "
                                                 "(0: none).")] = 0,
    teacher: Annotated[str, typer.Option(help="The warm start's teacher agent.")] = "rules",
    opponent: Annotated[str, typer.Option(help="Train against this agent instead of self-play: it plays one "
                                               "side of every game, the network the other (empty: self-play).")]
    = "",
    device: Annotated[str, typer.Option(help="The learner's device: cpu, cuda or auto (actors play on CPUs).")]
    = "cpu",
) -> dict[str, Any]:
    """Deep Monte-Carlo self-play (DouZero / DanZero), optionally after imitating a teacher's games or recorded
    ones, with checkpoints, resume, logs and periodic evaluation."""
    from paiju.agents.dmc.models import ModelConfig

    return {"frames": frames, "objective": objective, "model": ModelConfig(hidden=sizes(hidden), lstm=lstm,
                                                                                   features=features),
            "batch_size": batch_size, "chunk_frames": chunk_frames, "learning_rate": learning_rate,
            "clip_lambda": _clip(clip_lambda), "warm_games": warm_games, "teacher": teacher, "opponent": opponent,
            "device": device}


@trainer_command("ppo", with_batches=True, with_records=True, eval_against="rules,dmc", batch_games=0)
def train_ppo(
    games: Annotated[int | None, typer.Option(help="Stop once this many games are played in all (0: no bound; "
                                                   "default 0).")] = None,
    policy: Annotated[str, typer.Option(help="Policy MLP widths (Table 7; GuanDan: the DMC network's, an --init "
                                             "file's replace them).")] = "256,256,256,512",
    value: Annotated[str, typer.Option(help="Value MLP widths (Table 7).")] = "256,256,256,256",
    lstm: Annotated[int, typer.Option(help="History LSTM size (DouDizhu).")] = 128,
    imperfect_critic: Annotated[bool, typer.Option(help="Ablation: the critic sees only what the actor sees "
                                                        "(no PTIE).")] = False,
    oracle_scale: Annotated[float, typer.Option(help="l of the oracle reward (Table 7: 50); 0 switches it off "
                                                     "(ADP alone: the final stage, or the ablation). DouDizhu "
                                                     "only.")] = 50.0,
    temperature: Annotated[float, typer.Option(help="GuanDan: τ, the policy's logits are the DMC network's scores "
                                                    "/ τ (0.1: the DMC warm start's).")] = 0.1,
    features: Annotated[str, typer.Option(help="Features the networks read (an --init file's replace them): "
                                               "DouDizhu paper (the classic game, default) or laizi (癞子 "
                                               "self-play and evaluation); GuanDan the DMC features of a fresh "
                                               "policy, plus (default) or paper.")] = "",
    epochs: Annotated[int, typer.Option(help="PPO passes over each batch.")] = 4,
    minibatch: Annotated[int, typer.Option(help="Decisions per gradient step.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate (Table 7: 3e-4).")] = 3e-4,
    entropy: Annotated[float, typer.Option(help="Entropy bonus weight (Table 7: 0.1).")] = 0.01,
    clip: Annotated[float, typer.Option(help="PPO ratio clip ε.")] = 0.2,
    gae_lambda: Annotated[float, typer.Option(help="GAE λ (Table 7: 0.95).")] = 0.95,
    warm_target: Annotated[str, typer.Option(help="With --warm-records (DouDizhu): hard (each recorded move) or "
                                                  "soft (each searched decision's softmax of its candidates' "
                                                  "values: a corpus of search games).")] = "hard",
    warm_temperature: Annotated[float, typer.Option(help="Points of candidate value per logit of the soft "
                                                         "target.")] = 0.25,
) -> dict[str, Any]:
    """PerfectDou: PPO self-play with a perfect-information critic (DouDizhu: and the minimum-steps oracle reward;
    GuanDan: the policy a DMC network, --init a GuanDan DMC model file, written back as one for the dmc agent).
    --batch-games 0 takes the game's: 64 DouDizhu, 4 GuanDan."""
    from paiju.agents.perfectdou.model import ModelConfig

    model = ModelConfig(lstm=lstm, policy=sizes(policy), value=sizes(value), perfect=not imperfect_critic)
    return {"games": games, "model": model, "oracle_scale": oracle_scale, "epochs": epochs, "minibatch": minibatch,
            "learning_rate": learning_rate, "entropy": entropy, "clip": clip, "gae_lambda": gae_lambda,
            "temperature": temperature, "features": features, "warm_target": warm_target,
            "warm_temperature": warm_temperature}


@trainer_command("scrofazero", with_batches=True, game="gongzhu", eval_deals=64, eval_against="mr-greed",
                 teacher="mr-greed")
def train_scrofazero(
    games: Annotated[int | None, typer.Option(help="Stop once this many games are played in all (0: no bound; "
                                                   "default 0).")] = None,
    hidden: Annotated[str, typer.Option(help="ScrofaNet widths and residual blocks: W1,W2,W3,BLOCKS (the paper: "
                                             "2048,2048,512,10).")] = "512,512,256,4",
    replay: Annotated[int, typer.Option(help="Previous batches trained on again with each batch.")] = 2,
    passes: Annotated[int, typer.Option(help="Passes over each batch and its replay.")] = 3,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-4,
    value_weight: Annotated[float, typer.Option(help="λ of the value RMSE in the loss.")] = 0.03,
    sibling_rollouts: Annotated[int, typer.Option(help="Warm start: also value each card the teacher did not play "
                                                       "by this many of its games played out (0: off).")] = 0,
    value_target: Annotated[str, typer.Option(help="Self-play's value target: outcome (the game's payoff), root "
                                                   "(the search's Q of the card played) or mix (their mean); root "
                                                   "and mix exclude --warm-games.")] = "outcome",
    device: Annotated[str, typer.Option(help="The learner's device: cpu, cuda or auto (actors play on CPUs).")]
    = "cpu",
) -> dict[str, Any]:
    """ScrofaZero self-play: perfect-information MCTS improves the policy, ScrofaNet learns from the searches."""
    from paiju.agents.scrofazero.model import ModelConfig

    widths = sizes(hidden)
    if len(widths) != 4:
        raise typer.BadParameter(f"--hidden takes W1,W2,W3,BLOCKS, got {hidden!r}")
    return {"games": games, "model": ModelConfig(*widths), "replay_batches": replay, "passes": passes,
            "learning_rate": learning_rate, "value_weight": value_weight, "sibling_rollouts": sibling_rollouts,
            "value_target": value_target, "device": device}


@trainer_command("distil", actors=1)
def train_distil(
    positions: Annotated[int | None, typer.Option(help="Stop once this many positions are trained on in all (0: "
                                                       "no bound; default 0).")] = None,
    prior: Annotated[str, typer.Option(help="The prior: its games give the positions, its best actions the "
                                            "candidates.")] = "rules",
    rollout: Annotated[str, typer.Option(help="The policy finishing each simulation.")] = "rules",
    top: Annotated[int, typer.Option(help="Candidates per position.")] = 5,
    margin: Annotated[float, typer.Option(help="Predicted gain the agent needs to leave the prior's choice.")] = 0.0,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-4,
    replay: Annotated[float, typer.Option(help="Times each position is trained on, on average, as it "
                                               "arrives.")] = 4.0,
) -> dict[str, Any]:
    """Distil the search into a network: label the prior's candidates by simulations, learn their gains (the
    networks start from --init, a DMC model; default: the shipped dmc networks)."""
    return {"positions": positions, "prior": prior, "rollout": rollout, "top": top, "margin": margin,
            "learning_rate": learning_rate, "replay": replay}


@trainer_command("sl", with_actors=False, minutes=0.0, eval_minutes=0.0)
def train_sl(
    records: Annotated[Path | None, typer.Option(help="Corpus: a folder (or file) of paiju JSON records or DeepRocket "
                                                      "text records (paiju records generate).")] = None,
    epochs: Annotated[float | None, typer.Option(help="Passes over the policy samples in all (0: no bound; default "
                                                      "1).")] = None,
    batch: Annotated[int, typer.Option(help="Samples per step, for each network.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate (at the start, with --decay).")] = 1e-3,
    decay: Annotated[bool, typer.Option(help="Lower the learning rate to 0 along a half cosine over the run.")]
    = True,
    layers: Annotated[int, typer.Option(help="Policy convolution layers (paper: 10).")] = 6,
    filters: Annotated[int, typer.Option(help="Policy filters per layer (paper: 512).")] = 64,
    kicker_layers: Annotated[int, typer.Option(help="Kicker convolution layers (paper: 5).")] = 5,
    kicker_filters: Annotated[int, typer.Option(help="Kicker filters per layer.")] = 32,
    eval_every: Annotated[int, typer.Option(help="Steps between validations.")] = 500,
    max_games: Annotated[int, typer.Option(help="Games read from each corpus file (0: all).")] = 0,
    workers: Annotated[int, typer.Option(help="Processes encoding the corpus.")] = 1,
    device: Annotated[str, typer.Option(help="cpu, cuda or auto.")] = "auto",
) -> dict[str, Any]:
    """DeepRocket: supervised policy and kicker networks from game records, with an accuracy report."""
    from paiju.agents.deeprocket.model import ModelConfig

    model = ModelConfig(layers=layers, filters=filters, kicker_layers=kicker_layers, kicker_filters=kicker_filters)
    return {"records": records, "epochs": epochs, "batch": batch, "lr": learning_rate, "decay": decay,
            "model": model, "eval_every": eval_every, "max_games": max_games, "workers": workers, "device": device}


@train_app.command("bid")
def train_bid(
    out: Annotated[Path, typer.Option(help="Bid model file to write.")] = Path("runs/bid.pt"),
    game: Annotated[str, typer.Option(help="Game of the bids (doudizhu).")] = "doudizhu",
    agent: Annotated[str, typer.Option(help="Play agent whose games label the hands (at every seat).")] = "rules",
    deals: Annotated[int, typer.Option(help="Deals to label (each hand of each is played as landlord).")] = 30_000,
    seed: Annotated[int, typer.Option(help="Seed of the run (deals, agents, initial weights, batches).")] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing the labelling games.")] = 1,
    epochs: Annotated[int, typer.Option(help="Passes over the training hands (the best held-out epoch is kept).")]
    = 30,
    minutes: Annotated[float, typer.Option(help="Wall-clock bound on learning, after labelling (0: none).")] = 0.0,
    hidden: Annotated[str, typer.Option(help="MLP widths.")] = "128,64",
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-3,
    thresholds: Annotated[str, typer.Option(help="Decision thresholds T1/T2/T3: the estimate needed to bid 1, 2, "
                                                 "3 (stored in the model file; the default was tuned with rules "
                                                 "playing).")] = "-0.1/0/0.1",
    data: Annotated[Path | None, typer.Option(help="Cache of labelled deals (.npz), reused when it matches the "
                                                   "agent and seed.")] = None,
) -> None:
    """Learn a DouDizhu bid model: each hand's expected landlord score when the play agent plays it out."""
    from paiju.train.bid import BidTrainConfig, parse_thresholds
    from paiju.train.bid import train_bid as run

    config = BidTrainConfig(out=out, game=game, agent=agent, deals=deals, seed=seed, workers=workers, epochs=epochs,
                            minutes=minutes, hidden=sizes(hidden), learning_rate=learning_rate,
                            thresholds=parse_thresholds(thresholds), data=data)
    result = run(config, console, shlex.join(["paiju", *sys.argv[1:]]))
    console.print(f"{result.samples:,} hands, {result.epochs} epochs ({result.seconds / 60:.1f} min): held-out mse "
                  f"{result.held_out_mse:.4f} (a constant: {result.constant_mse:.4f}). Model: {out} "
                  f"(agent learned-bid:model={out},{agent})")


@train_app.command("export")
def export(run: Annotated[Path, typer.Argument(help="A training folder, or a model file.")],
           out: Annotated[Path, typer.Argument(help="Model file to write (half precision: half the size).")]) -> None:
    """Write a run's latest networks (DMC or PerfectDou) as a small model file, with how they were trained."""
    from paiju.agents.dmc import weights as dmc
    from paiju.agents.model_files import read_torch_file, resolve
    from paiju.agents.perfectdou import model as perfectdou

    file = resolve(run)
    data = read_torch_file(file, "model file")
    if isinstance(data, dict) and data.get("format") == perfectdou.FORMAT:
        networks = perfectdou.PerfectDouModels.from_dict(data, str(file))
        perfectdou.save_models(networks, out, half=True)
        game, amount = "doudizhu (PerfectDou)", f"{networks.meta.get('decisions', 0):,} decisions"
    else:
        networks = dmc.DMCModels.from_dict(data, str(file))
        dmc.save_models(networks, out, half=True)
        game, amount = networks.game, f"{networks.meta.get('frames', 0):,} frames"
    meta = networks.meta
    console.print(f"wrote {out}: {game}, {amount}, {meta.get('seconds', 0) / 60:.1f} min, seed {meta.get('seed')}; "
                  f"trained by: {meta.get('command')}")


def plot(folders: Annotated[list[Path], typer.Argument(help="A training folder (paiju train ... --out DIR), or "
                                                            "several to compare their evaluations.")],
         out: Annotated[Path | None, typer.Option(help="PNG to write (default DIR/curve.png; several runs: "
                                                       "compare.png here).")] = None) -> None:
    """Learning curves of a run (evaluation WP and ADP against frames and wall time, and the loss), or several
    runs' evaluations against wall time on one figure."""
    from paiju.train.plot import plot_run, plot_runs

    path = plot_run(folders[0], out) if len(folders) == 1 else plot_runs(folders, out or Path("compare.png"))
    console.print(f"wrote {path}")


__all__ = ["ACTORS", "BATCHES", "COMMON", "AddressOption", "BackendOption", "export", "plot", "sizes", "start",
           "train_app", "trainer_command"]
