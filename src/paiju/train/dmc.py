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

import time
from dataclasses import dataclass, replace

import torch
from rich.console import Console

from paiju.agents.dmc.weights import save_models
from paiju.eval.seeds import derive_seed
from paiju.train.backends import Actors, start_pool
from paiju.train.checkpoint import LearnerState, fresh_state, load_checkpoint, save_checkpoint
from paiju.train.config import DMCConfig
from paiju.train.evaluation import EVAL_MODEL_FILE, BackgroundEvaluator
from paiju.train.logs import TrainingLog
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
    """Train until ``config.minutes`` of this invocation or ``config.frames`` in all; checkpoint on the way.

    ``command`` (the command line, if any) is kept with the checkpoints and the model's metadata."""
    config.out.mkdir(parents=True, exist_ok=True)
    state: LearnerState = load_checkpoint(config.out) if resume else fresh_state(config)
    if resume:  # bounds, actors, backend and evaluation may change on resume; the learning settings may not
        state.config = replace(
            state.config,
            minutes=config.minutes, frames=config.frames, actors=config.actors, backend=config.backend,
            address=config.address, checkpoint_minutes=config.checkpoint_minutes, eval_minutes=config.eval_minutes,
            eval_deals=config.eval_deals, eval_opponents=config.eval_opponents, log_seconds=config.log_seconds)
    config = state.config
    if command:
        state.progress.commands.append(command)
    torch.set_num_threads(config.learner_threads)
    torch.manual_seed(config.seed + state.progress.steps)
    progress, models, roles = state.progress, state.models, tuple(state.models.networks)
    for network in models.networks.values():
        network.train()
    log = TrainingLog(config.out, roles, console, tensorboard)
    evaluator = BackgroundEvaluator() if config.eval_minutes > 0 and config.eval_opponents else None
    pool = start_pool(config.backend, config.address, actors(config))
    started = time.monotonic()
    seconds_before, frames_before = progress.seconds, progress.frames
    last_log = last_checkpoint = last_eval = started
    log_frames, losses = progress.frames, {role: [] for role in roles}

    def out_of_budget() -> bool:
        over_time = config.minutes > 0 and time.monotonic() - started >= 60 * config.minutes
        return over_time or (config.frames > 0 and progress.frames >= config.frames)

    weights, weights_step = weights_of(models), progress.steps
    try:
        for worker in range(config.actors):
            index = progress.chunks + worker
            pool.submit(index % config.actors, index, config.chunk_frames, weights)
        while not out_of_budget():
            worker = progress.chunks % config.actors
            chunk = pool.result(worker)
            if weights_step != progress.steps:  # copied once per learner step, not once per actor request
                weights, weights_step = weights_of(models), progress.steps
            pool.submit(worker, progress.chunks + config.actors, config.chunk_frames, weights)
            progress.chunks += 1
            progress.games += chunk.games
            for role, samples in chunk.samples.items():
                buffered = state.buffers[role]
                buffered = samples if buffered is None else Samples.concat([buffered, samples])
                while len(buffered) >= config.batch_size:
                    batch, buffered = buffered.split(config.batch_size)
                    losses[role].append(learn(models.networks[role], state.optimizers[role], batch, config))
                    progress.frames += config.batch_size
                    progress.steps += 1
                state.buffers[role] = buffered
            now = time.monotonic()
            progress.seconds = seconds_before + now - started
            if now - last_log >= config.log_seconds:
                log.learner(progress.seconds, progress.frames, (progress.frames - log_frames) / (now - last_log),
                            progress.games, {r: sum(v) / len(v) if v else None for r, v in losses.items()})
                last_log, log_frames, losses = now, progress.frames, {role: [] for role in roles}
            if now - last_checkpoint >= 60 * config.checkpoint_minutes:
                save_checkpoint(state)
                last_checkpoint = now
            if evaluator is not None:
                log.evaluation(evaluator.finished())
                if now - last_eval >= 60 * config.eval_minutes and not evaluator.busy:
                    snapshot = config.out / EVAL_MODEL_FILE
                    save_models(models, snapshot)
                    evaluator.start(config.game, f"dmc:{snapshot}", config.eval_opponents, config.eval_deals,
                                    config.seed, progress.seconds, progress.frames)
                    last_eval = now
        save_checkpoint(state)
    finally:
        pool.close()
        if evaluator is not None:
            evaluator.close()
        log.close()
    elapsed = time.monotonic() - started
    return TrainResult(progress.frames, progress.seconds, progress.games,
                       (progress.frames - frames_before) / max(elapsed, 1e-9))


__all__ = ["TrainResult", "actors", "learn", "train"]
