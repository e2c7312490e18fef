"""Deep Monte-Carlo training (DouZero; DanZero §IV): read this file top to bottom.

Actors (``paiju.train.selfplay``) play ε-greedy self-play and send chunks of samples — the chosen action's
features and the Monte-Carlo return of the step; the learner regresses Q(state, action) on the returns:

    loss = mean (Q(s, a) − G)²                                        (DouZero)
    loss = mean (clip(Q / Q_actor, 1 − λ, 1 + λ) · Q_actor − G)²      (DanZero Eq. 1–3, λ = 0.65)

where ``Q_actor`` is the actor's value of the action when it chose it (``DMCConfig.clip_lambda``). One network
per DouDizhu role, one for GuanDan; RMSProp; gradients clipped by norm.

The learner consumes chunks in a fixed round-robin order — chunk ``k`` comes from actor ``k mod actors`` and
was played with the weights of the moment chunk ``k − actors`` was consumed — so a run is reproducible from its
seed whatever the machine's timing (same actors count, same torch threads). Each actor is asked for its next
chunk as soon as its last one arrives, before the learner trains on it, so actors never wait for the learner.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from rich.console import Console

from paiju.agents.dmc.weights import save_models
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors
from paiju.train.checkpoint import fresh_state, load_checkpoint, save_checkpoint
from paiju.train.config import DMCConfig
from paiju.train.loop import open_run, training_loop
from paiju.train.selfplay import Samples, SelfPlayWorker, weights_of


def learn(network: torch.nn.Module, optimizer: torch.optim.Optimizer, batch: Samples, config: DMCConfig) -> float:
    """One gradient step on ``batch``; returns the loss."""
    context = {name: torch.from_numpy(value).float() for name, value in batch.context.items()}
    q = network(torch.from_numpy(batch.x).float(), **context)
    target = torch.from_numpy(batch.target)
    if config.clip is not None:  # DanZero Eq. 1: keep the learner's Q within a factor of the actor's
        q_actor = torch.from_numpy(batch.q_actor)
        usable = q_actor.abs() > 1e-6
        ratio = (q / torch.where(usable, q_actor, torch.ones_like(q_actor))).clamp(1 - config.clip, 1 + config.clip)
        q = torch.where(usable, ratio * q_actor, q)
    loss = ((q - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(network.parameters(), config.grad_clip)
    optimizer.step()
    return loss.item()


def actors(config: DMCConfig) -> Actors:
    """The self-play actors of a run: actor ``w`` seeded with ``derive_seed(seed, "actor", w)``."""
    return SelfPlayWorker, [(config.game, config.objective, config.model, config.epsilon,
                             derive_seed(config.seed, "actor", worker)) for worker in range(config.actors)]


@dataclass(frozen=True)
class TrainResult:
    frames: int
    seconds: float
    games: int
    frames_per_second: float
    """Frames trained on per second of this invocation (resumed runs: since the resume)."""


def train(config: DMCConfig, resume: bool = False, console: Console | None = None, tensorboard: bool = True,
          command: str = "") -> TrainResult:
    """Train until ``config.minutes`` of this invocation or ``config.frames`` in all; checkpoint on the way
    (Ctrl-C or SIGTERM: after the chunk in hand).

    ``command`` (the command line, if any) is kept with the checkpoints and the model's metadata."""
    state = open_run(config, resume, command, load_checkpoint, fresh_state, "frames")
    config = state.config
    torch.manual_seed(config.seed + state.progress.steps)
    progress, models, roles = state.progress, state.models, tuple(state.models.networks)
    for network in models.networks.values():
        network.train()
    frames_before = progress.frames

    def snapshot(path: Path) -> str:
        save_models(models, path)
        return f"dmc:{path}"

    with training_loop(config, actors(config), roles, progress.seconds, progress.frames, console, tensorboard,
                       games_in_eval=False) as loop:
        weights, weights_step = weights_of(models), progress.steps
        for worker in range(config.actors):
            index = progress.chunks + worker
            loop.pool.submit(index % config.actors, index, config.chunk_frames, weights)
        while loop.running(config.frames > 0 and progress.frames >= config.frames):
            worker = progress.chunks % config.actors
            chunk = loop.pool.result(worker)
            if weights_step != progress.steps:  # copied once per learner step, not once per actor request
                weights, weights_step = weights_of(models), progress.steps
            loop.pool.submit(worker, progress.chunks + config.actors, config.chunk_frames, weights)
            progress.chunks += 1
            progress.games += chunk.games
            for role, samples in chunk.samples.items():
                buffered = state.buffers[role]
                buffered = samples if buffered is None else Samples.concat([buffered, samples])
                while len(buffered) >= config.batch_size:
                    batch, buffered = buffered.split(config.batch_size)
                    loop.losses[role].append(learn(models.networks[role], state.optimizers[role], batch, config))
                    progress.frames += config.batch_size
                    progress.steps += 1
                state.buffers[role] = buffered
            progress.seconds = loop.seconds
            loop.after_step(progress.frames, progress.games, lambda: save_checkpoint(state), snapshot, config.game)
        loop.finish(progress.frames, progress.games, snapshot, config.game)
        progress.seconds = loop.seconds
        save_checkpoint(state)
    return TrainResult(progress.frames, progress.seconds, progress.games,
                       (progress.frames - frames_before) / max(loop.elapsed, 1e-9))


__all__ = ["TrainResult", "actors", "learn", "train"]
