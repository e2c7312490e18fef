"""``paiju train dmc|ppo|scrofazero|distil|export`` and ``paiju plot``: the training commands (see ``paiju.cli``)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from paiju.train.bid_cli import train_bid

train_app = typer.Typer(help="Train agents by self-play.", no_args_is_help=True)
console = Console(highlight=False)


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise typer.BadParameter(f"expected widths like 256,256,256, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise typer.BadParameter(f"widths must be positive, got {text!r}")
    return sizes


def _clip(text: str) -> float | None:
    """``default`` → -1 (the game's default), ``none`` → off, else λ."""
    if text.lower() in ("default", "none"):
        return -1.0 if text.lower() == "default" else None
    try:
        return float(text)
    except ValueError:
        raise typer.BadParameter(f"--clip-lambda: expected a number, 'none' or 'default', got {text!r}") from None


@train_app.command("dmc")
def train_dmc(
    game: Annotated[str, typer.Option(help="doudizhu or guandan.")] = "doudizhu",
    out: Annotated[Path | None, typer.Option(help="Folder of the run: checkpoints, model.pt, logs.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the run in this folder from its last checkpoint "
                                                     "(its learning settings are kept).")] = None,
    minutes: Annotated[float, typer.Option(help="Wall-clock minutes to train in this invocation (0: no bound).")]
    = 10.0,
    frames: Annotated[int, typer.Option(help="Stop once this many frames are trained on in all (0: no bound).")]
    = 0,
    seed: Annotated[int, typer.Option(help="Seed of the run (initial weights, deals, exploration).")] = 0,
    objective: Annotated[str, typer.Option(help="DouDizhu return: adp (score) or wp (win +1 / loss -1).")] = "adp",
    actors: Annotated[int, typer.Option(help="Self-play actor processes.")] = 2,
    backend: Annotated[str, typer.Option(help="local (processes here) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (from `ray start`); default: a local "
                                                     "Ray instance.")] = None,
    hidden: Annotated[str, typer.Option(help="MLP widths.")] = "256,256,256",
    lstm: Annotated[int, typer.Option(help="History LSTM size (DouDizhu).")] = 64,
    batch_size: Annotated[int, typer.Option(help="Frames per learner step.")] = 3200,
    chunk_frames: Annotated[int, typer.Option(help="Frames an actor plays between refreshes of its networks "
                                                   "from the learner.")] = 1600,
    learning_rate: Annotated[float | None, typer.Option(help="RMSProp learning rate (default: 1e-4 DouDizhu, "
                                                             "1e-3 GuanDan).")] = None,
    clip_lambda: Annotated[str, typer.Option(help="DanZero's clipped target λ: a number, 'none', or 'default' "
                                                  "(0.65 for GuanDan, off for DouDizhu).")] = "default",
    checkpoint_minutes: Annotated[float, typer.Option(help="Minutes between checkpoints.")] = 5.0,
    eval_minutes: Annotated[float, typer.Option(help="Minutes between evaluations (0: none).")] = 5.0,
    eval_deals: Annotated[int, typer.Option(help="Duplicate deals per evaluation and opponent.")] = 200,
    eval_against: Annotated[str, typer.Option(help="Opponents of the periodic evaluation.")] = "random,rules",
    tensorboard: Annotated[bool, typer.Option(help="Write TensorBoard events to DIR/tensorboard.")] = True,
) -> None:
    """Deep Monte-Carlo self-play (DouZero / DanZero) with checkpoints, resume, logs and periodic evaluation."""
    from paiju.agents.dmc.models import ModelConfig
    from paiju.train.config import DMCConfig
    from paiju.train.dmc import train

    if (out is None) == (resume is None):
        raise typer.BadParameter("give exactly one of --out DIR (a new run) or --resume DIR")
    folder = out if out is not None else resume
    assert folder is not None
    config = DMCConfig(
        game=game, out=folder, seed=seed, minutes=minutes, frames=frames, objective=objective,  # type: ignore[arg-type]
        actors=actors, backend=backend, address=address,  # type: ignore[arg-type]
        model=ModelConfig(hidden=_sizes(hidden), lstm=lstm), batch_size=batch_size, chunk_frames=chunk_frames,
        learning_rate=learning_rate,
        clip_lambda=_clip(clip_lambda), checkpoint_minutes=checkpoint_minutes, eval_minutes=eval_minutes,
        eval_deals=eval_deals,
        eval_opponents=tuple(name for name in eval_against.split(",") if name))
    command = shlex.join(["paiju", *sys.argv[1:]])
    result = train(config, resume=resume is not None, console=console, tensorboard=tensorboard, command=command)
    console.print(f"trained {result.frames:,} frames in all ({result.seconds / 60:.1f} min, {result.games:,} games); "
                  f"{result.frames_per_second:,.0f} frames/s in this run. Networks: {folder / 'model.pt'}")


@train_app.command("ppo")
def train_ppo(
    out: Annotated[Path | None, typer.Option(help="Folder of the run: checkpoint.pt, model.pt, logs.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the run in this folder from its last checkpoint "
                                                     "(its learning settings are kept).")] = None,
    minutes: Annotated[float, typer.Option(help="Wall-clock minutes to train in this invocation (0: no bound).")]
    = 10.0,
    games: Annotated[int, typer.Option(help="Stop once this many games are played in all (0: no bound).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the run (initial weights, deals, sampling).")] = 0,
    init: Annotated[str, typer.Option(help="PerfectDou model file or training folder to start from (e.g. the "
                                           "shipped agents/perfectdou/weights/doudizhu.pt); default: fresh "
                                           "weights.")] = "",
    actors: Annotated[int, typer.Option(help="Self-play actor processes.")] = 2,
    backend: Annotated[str, typer.Option(help="local (processes here) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (from `ray start`); default: a local "
                                                     "Ray instance.")] = None,
    policy: Annotated[str, typer.Option(help="Policy MLP widths (Table 7).")] = "256,256,256,512",
    value: Annotated[str, typer.Option(help="Value MLP widths (Table 7).")] = "256,256,256,256",
    lstm: Annotated[int, typer.Option(help="History LSTM size.")] = 128,
    imperfect_critic: Annotated[bool, typer.Option(help="Ablation: the critic sees only what the actor sees "
                                                        "(no PTIE).")] = False,
    oracle_scale: Annotated[float, typer.Option(help="l of the oracle reward (Table 7: 50); 0 switches it off "
                                                     "(ADP alone: the final stage, or the ablation).")] = 50.0,
    batch_games: Annotated[int, typer.Option(help="Games per batch (about 1,000 decisions a role at 64).")] = 64,
    epochs: Annotated[int, typer.Option(help="PPO passes over each batch.")] = 4,
    minibatch: Annotated[int, typer.Option(help="Decisions per gradient step.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate (Table 7: 3e-4).")] = 3e-4,
    entropy: Annotated[float, typer.Option(help="Entropy bonus weight (Table 7: 0.1).")] = 0.01,
    clip: Annotated[float, typer.Option(help="PPO ratio clip ε.")] = 0.2,
    gae_lambda: Annotated[float, typer.Option(help="GAE λ (Table 7: 0.95).")] = 0.95,
    warm_games: Annotated[int, typer.Option(help="Games of the teacher imitated before self-play (0: none).")] = 0,
    teacher: Annotated[str, typer.Option(help="The warm start's teacher agent.")] = "rules",
    learner_threads: Annotated[int, typer.Option(help="Torch threads of the learner.")] = 1,
    checkpoint_minutes: Annotated[float, typer.Option(help="Minutes between checkpoints.")] = 5.0,
    eval_minutes: Annotated[float, typer.Option(help="Minutes between evaluations (0: none).")] = 10.0,
    eval_deals: Annotated[int, typer.Option(help="Role-swapped decks per evaluation and opponent.")] = 200,
    eval_against: Annotated[str, typer.Option(help="Opponents of the periodic evaluation.")] = "rules,dmc",
    tensorboard: Annotated[bool, typer.Option(help="Write TensorBoard events to DIR/tensorboard.")] = True,
) -> None:
    """PerfectDou: PPO self-play with a perfect-information critic and the minimum-steps oracle reward."""
    from paiju.agents.perfectdou.model import ModelConfig
    from paiju.train.ppo import PPOConfig, train

    if (out is None) == (resume is None):
        raise typer.BadParameter("give exactly one of --out DIR (a new run) or --resume DIR")
    folder = out if out is not None else resume
    assert folder is not None
    config = PPOConfig(
        out=folder, seed=seed, minutes=minutes, games=games, actors=actors, backend=backend,  # type: ignore[arg-type]
        address=address, init=init,
        model=ModelConfig(lstm=lstm, policy=_sizes(policy), value=_sizes(value), perfect=not imperfect_critic),
        batch_games=batch_games, epochs=epochs, minibatch=minibatch, learning_rate=learning_rate, clip=clip,
        entropy=entropy, gae_lambda=gae_lambda, oracle_scale=oracle_scale, warm_games=warm_games, teacher=teacher,
        learner_threads=learner_threads, checkpoint_minutes=checkpoint_minutes, eval_minutes=eval_minutes,
        eval_deals=eval_deals, eval_opponents=tuple(name for name in eval_against.split(",") if name))
    command = shlex.join(["paiju", *sys.argv[1:]])
    result = train(config, resume=resume is not None, console=console, tensorboard=tensorboard, command=command)
    console.print(f"played {result.games:,} games, trained on {result.decisions:,} decisions in all "
                  f"({result.seconds / 60:.1f} min); {result.decisions_per_second:,.0f} decisions/s in this run. "
                  f"Networks: {folder / 'model.pt'} (agent perfectdou:{folder})")


@train_app.command("scrofazero")
def train_scrofazero(
    out: Annotated[Path | None, typer.Option(help="Folder of the run: checkpoint.pt, model.pt, logs.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the run in this folder from its last checkpoint "
                                                     "(its learning settings are kept).")] = None,
    minutes: Annotated[float, typer.Option(help="Wall-clock minutes to train in this invocation (0: no bound).")]
    = 10.0,
    games: Annotated[int, typer.Option(help="Stop once this many games are played in all (0: no bound).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the run (initial weights, deals, searches).")] = 0,
    init: Annotated[str, typer.Option(help="ScrofaNet model file to start from (e.g. the shipped "
                                           "agents/scrofazero/weights/gongzhu.pt); default: fresh weights.")] = "",
    actors: Annotated[int, typer.Option(help="Self-play actor processes.")] = 2,
    backend: Annotated[str, typer.Option(help="local (processes here) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (from `ray start`); default: a local "
                                                     "Ray instance.")] = None,
    hidden: Annotated[str, typer.Option(help="ScrofaNet widths and residual blocks: W1,W2,W3,BLOCKS (the paper: "
                                             "2048,2048,512,10).")] = "512,512,256,4",
    batch_games: Annotated[int, typer.Option(help="Games per batch (the paper: 64).")] = 64,
    replay: Annotated[int, typer.Option(help="Previous batches trained on again with each batch.")] = 2,
    passes: Annotated[int, typer.Option(help="Passes over each batch and its replay.")] = 3,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-4,
    value_weight: Annotated[float, typer.Option(help="λ of the value RMSE in the loss.")] = 0.03,
    warm_games: Annotated[int, typer.Option(help="Games of the teacher imitated before self-play (0: none).")] = 0,
    teacher: Annotated[str, typer.Option(help="The warm start's teacher agent.")] = "mr-greed",
    sibling_rollouts: Annotated[int, typer.Option(help="Warm start: also value each card the teacher did not play "
                                                       "by this many of its games played out (0: off).")] = 0,
    learner_threads: Annotated[int, typer.Option(help="Torch threads of the learner.")] = 1,
    checkpoint_minutes: Annotated[float, typer.Option(help="Minutes between checkpoints.")] = 5.0,
    eval_minutes: Annotated[float, typer.Option(help="Minutes between evaluations (0: none).")] = 10.0,
    eval_deals: Annotated[int, typer.Option(help="Duplicate deals per evaluation and opponent.")] = 64,
    eval_against: Annotated[str, typer.Option(help="Opponents of the periodic evaluation.")] = "mr-greed",
    tensorboard: Annotated[bool, typer.Option(help="Write TensorBoard events to DIR/tensorboard.")] = True,
) -> None:
    """ScrofaZero self-play: perfect-information MCTS improves the policy, ScrofaNet learns from the searches."""
    from paiju.agents.scrofazero.model import ModelConfig
    from paiju.train.scrofazero import ScrofaZeroConfig, train

    if (out is None) == (resume is None):
        raise typer.BadParameter("give exactly one of --out DIR (a new run) or --resume DIR")
    sizes = _sizes(hidden)
    if len(sizes) != 4:
        raise typer.BadParameter(f"--hidden takes W1,W2,W3,BLOCKS, got {hidden!r}")
    folder = out if out is not None else resume
    assert folder is not None
    config = ScrofaZeroConfig(
        out=folder, seed=seed, minutes=minutes, games=games, actors=actors, backend=backend,  # type: ignore[arg-type]
        address=address, model=ModelConfig(*sizes), init=init, batch_games=batch_games, replay_batches=replay,
        passes=passes, learning_rate=learning_rate, value_weight=value_weight, warm_games=warm_games,
        teacher=teacher, sibling_rollouts=sibling_rollouts, learner_threads=learner_threads,
        checkpoint_minutes=checkpoint_minutes, eval_minutes=eval_minutes, eval_deals=eval_deals,
        eval_opponents=tuple(name for name in eval_against.split(",") if name))
    command = shlex.join(["paiju", *sys.argv[1:]])
    result = train(config, resume=resume is not None, console=console, tensorboard=tensorboard, command=command)
    console.print(f"played {result.games:,} games in all ({result.seconds / 60:.1f} min); "
                  f"{result.games_per_hour:,.0f} games/hour in this run. Network: {folder / 'model.pt'} "
                  f"(agent scrofazero:{folder / 'model.pt'})")


@train_app.command("distil")
def train_distil(
    game: Annotated[str, typer.Option(help="doudizhu or guandan.")] = "doudizhu",
    out: Annotated[Path, typer.Option(help="Folder of the run: positions/, model.pt, log.csv. A folder that "
                                           "has them is continued.")] = Path("runs/distil"),
    minutes: Annotated[float, typer.Option(help="Wall-clock minutes of this invocation (0: no bound).")] = 10.0,
    positions: Annotated[int, typer.Option(help="Stop once this invocation has trained on this many positions "
                                                "(0: no bound).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the run (deals, batches).")] = 0,
    init: Annotated[str, typer.Option(help="DMC model to start from (file or training folder; default: the "
                                           "shipped dmc networks).")] = "",
    prior: Annotated[str, typer.Option(help="The prior: its games give the positions, its best actions the "
                                            "candidates.")] = "rules",
    rollout: Annotated[str, typer.Option(help="The policy finishing each simulation.")] = "rules",
    top: Annotated[int, typer.Option(help="Candidates per position.")] = 5,
    margin: Annotated[float, typer.Option(help="Predicted gain the agent needs to leave the prior's choice.")] = 0.0,
    actors: Annotated[int, typer.Option(help="Labelling processes.")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes here) or ray.")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address.")] = None,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate.")] = 1e-4,
    replay: Annotated[float, typer.Option(help="Times each position is trained on, on average, as it "
                                               "arrives.")] = 4.0,
) -> None:
    """Distil the search into a network: label the prior's candidates by simulations, learn their gains."""
    from paiju.train.distil import DistilConfig
    from paiju.train.distil import train_distil as run

    if backend not in ("local", "ray"):
        raise typer.BadParameter(f"backend must be 'local' or 'ray', got {backend!r}")
    config = DistilConfig(game=game, out=out, seed=seed, minutes=minutes, positions=positions, init=init,
                          prior=prior, rollout=rollout, top=top, margin=margin, actors=actors, backend=backend,
                          address=address, learning_rate=learning_rate, replay=replay)
    result = run(config, console, shlex.join(["paiju", *sys.argv[1:]]))
    held = "; ".join(f"{role}: loss {loss:.3f}, gain {gain:+.4f} a decision"
                     for role, (loss, gain) in result.held_out.items())
    console.print(f"{result.positions:,} positions, {result.steps:,} steps in all ({result.seconds / 60:.1f} min). "
                  f"Held out: {held or 'none yet'}. Networks: {out / 'model.pt'} (agent distilled:{out})")


@train_app.command("sl")
def train_sl(
    records: Annotated[Path | None, typer.Option(help="Corpus: a folder (or file) of paiju JSON records or DeepRocket "
                                                      "text records (paiju records generate).")] = None,
    out: Annotated[Path | None, typer.Option(help="Folder of the run: checkpoint.pt, model.pt, logs, report.")]
    = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the run in this folder (its settings are kept).")]
    = None,
    game: Annotated[str, typer.Option(help="Game of the records (doudizhu: DeepRocket's networks).")] = "doudizhu",
    minutes: Annotated[float | None, typer.Option(help="Minutes of training in all (0: no bound; default 0; with "
                                                       "--resume: the run's own unless given).")] = None,
    epochs: Annotated[float | None, typer.Option(help="Passes over the policy samples in all (0: no bound; default "
                                                      "1; with --resume: the run's own unless given).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run (initial weights, batches).")] = 0,
    batch: Annotated[int, typer.Option(help="Samples per step, for each network.")] = 256,
    learning_rate: Annotated[float, typer.Option(help="Adam learning rate (at the start, with --decay).")] = 1e-3,
    decay: Annotated[bool, typer.Option(help="Lower the learning rate to 0 along a half cosine over the run.")]
    = True,
    layers: Annotated[int, typer.Option(help="Policy convolution layers (paper: 10).")] = 6,
    filters: Annotated[int, typer.Option(help="Policy filters per layer (paper: 512).")] = 64,
    kicker_layers: Annotated[int, typer.Option(help="Kicker convolution layers (paper: 5).")] = 5,
    kicker_filters: Annotated[int, typer.Option(help="Kicker filters per layer.")] = 32,
    eval_every: Annotated[int, typer.Option(help="Steps between validations and checkpoints.")] = 500,
    max_games: Annotated[int, typer.Option(help="Games read from each corpus file (0: all).")] = 0,
    workers: Annotated[int, typer.Option(help="Processes encoding the corpus.")] = 1,
    device: Annotated[str, typer.Option(help="cpu, cuda or auto.")] = "auto",
    init: Annotated[str, typer.Option(help="DeepRocket model file or training folder to start from (e.g. the "
                                           "shipped agents/deeprocket/weights/doudizhu.pt); its sizes are "
                                           "kept.")] = "",
    tensorboard: Annotated[bool, typer.Option(help="Write TensorBoard events to DIR/tensorboard.")] = True,
) -> None:
    """DeepRocket: supervised policy and kicker networks from game records, with an accuracy report."""
    from paiju.agents.deeprocket.model import ModelConfig
    from paiju.core.errors import PaijuError
    from paiju.train.sl import SLConfig, train

    if game != "doudizhu":
        raise PaijuError(f"supervised training exists for doudizhu (DeepRocket's networks), not {game!r}")
    if (out is None) == (resume is None):
        raise typer.BadParameter("give exactly one of --out DIR (a new run, with --records) or --resume DIR")
    if out is not None and records is None:
        raise typer.BadParameter("a new run needs --records (a corpus folder or file)")
    bounds = {name: value for name, value in (("minutes", minutes), ("epochs", epochs)) if value is not None}
    config = SLConfig(records=records or Path(), out=out or resume, seed=seed,  # type: ignore[arg-type]
                      minutes=0.0 if minutes is None else minutes, epochs=1.0 if epochs is None else epochs,
                      batch=batch, lr=learning_rate, decay=decay, eval_every=eval_every,
                      max_games=max_games, workers=workers, device=device, init=init,
                      model=ModelConfig(layers=layers, filters=filters, kicker_layers=kicker_layers,
                                        kicker_filters=kicker_filters))
    train(config, resume=resume is not None, console=console, tensorboard=tensorboard, bounds=bounds)


@train_app.command("export")
def export(run: Annotated[Path, typer.Argument(help="A training folder, or a model file.")],
           out: Annotated[Path, typer.Argument(help="Model file to write (half precision: half the size).")]) -> None:
    """Write a run's latest networks (DMC or PerfectDou) as a small model file, with how they were trained."""
    from paiju.agents.dmc import weights as dmc
    from paiju.agents.perfectdou import model as perfectdou

    file = run / dmc.MODEL_FILE if run.is_dir() else run
    data = dmc.read_torch_file(file, "model file")
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


train_app.command("bid")(train_bid)


def plot(folders: Annotated[list[Path], typer.Argument(help="A training folder (paiju train ... --out DIR), or "
                                                            "several to compare their evaluations.")],
         out: Annotated[Path | None, typer.Option(help="PNG to write (default DIR/curve.png; several runs: "
                                                       "compare.png here).")] = None) -> None:
    """Learning curves of a run (evaluation WP and ADP against frames and wall time, and the loss), or several
    runs' evaluations against wall time on one figure."""
    from paiju.train.plot import plot_run, plot_runs

    path = plot_run(folders[0], out) if len(folders) == 1 else plot_runs(folders, out or Path("compare.png"))
    console.print(f"wrote {path}")


__all__ = ["export", "plot", "train_app"]
