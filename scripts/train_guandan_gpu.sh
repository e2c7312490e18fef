#!/usr/bin/env bash
# GuanDan DMC in one command of under 10 minutes on a machine with 16 CPU cores and one CUDA GPU:
# actors on the cores, the learner on the GPU. Two stages, each a `paiju train dmc` run:
#
#   1. warm start: the `rules` player's games at every seat, imitated (WARM_MINUTES; the network reads
#      FEATURES, `advice` by default; skipped when INIT names a model to start from, whose features it keeps);
#   2. Deep Monte-Carlo self-play from the stage's network (SELFPLAY_MINUTES; LEARNING_RATE, the trainer's
#      default when empty; OPPONENT=rules trains against that agent instead of self-play, `--opponent`).
#
# Run it from the repository root with the machine's python3 (it needs numpy, torch, typer, rich and Cython,
# nothing else; the compiled engines are built for that Python first):
#
#   OUT=/somewhere scripts/train_guandan_gpu.sh
#   OUT=/somewhere INIT=src/paiju/agents/dmc/weights/guandan.pt scripts/train_guandan_gpu.sh
#
# Measured on 16 cores and an H100 (BENCHMARKS.md): building the engines about 2.5 minutes, each stage about 15
# seconds beyond its minutes (starting the actors, the last checkpoint), so the defaults end near 9 minutes.
#
# $OUT receives each stage's networks and log (warm.pt, warm-log.csv, selfplay.pt, selfplay-log.csv); the run
# folders themselves (with checkpoints) stay in $RUNS. Evaluate a result on any machine, e.g.
# `paiju eval guandan dmc:$OUT/selfplay.pt rules --games 400 --rounds 1`, and ship it with `paiju train export`.
set -euo pipefail

OUT=${OUT:?set OUT to the folder that receives the networks}
RUNS=${RUNS:-/tmp/paiju-gpu-runs}
ACTORS=${ACTORS:-15}
WARM_MINUTES=${WARM_MINUTES:-3.5}
SELFPLAY_MINUTES=${SELFPLAY_MINUTES:-2.5}
DEVICE=${DEVICE:-cuda}
SEED=${SEED:-1}
INIT=${INIT:-}
LEARNING_RATE=${LEARNING_RATE:-}
OPPONENT=${OPPONENT:-}
FEATURES=${FEATURES:-advice}
PYTHON=${PYTHON:-python3}

mkdir -p "$OUT" "$RUNS"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if ! "$PYTHON" -c "import paiju.games.guandan._state_fast" 2>/dev/null; then
    "$PYTHON" setup.py --quiet build_ext --inplace --parallel 16
fi
train() {
    "$PYTHON" -m paiju.cli train dmc --game guandan --actors "$ACTORS" --device "$DEVICE" --seed "$SEED" \
        --eval-minutes 0 --no-tensorboard "$@"
}
"$PYTHON" -c "import torch; print('learner device:', torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu')"

if [ -z "$INIT" ]; then
    rm -rf "$RUNS/warm"
    train --out "$RUNS/warm" --minutes "$WARM_MINUTES" --warm-games 100000000 --features "$FEATURES"
    cp "$RUNS/warm/model.pt" "$OUT/warm.pt"
    cp "$RUNS/warm/log.csv" "$OUT/warm-log.csv"
    INIT="$RUNS/warm/model.pt"
fi
rm -rf "$RUNS/selfplay"
train --out "$RUNS/selfplay" --minutes "$SELFPLAY_MINUTES" --init "$INIT" --opponent "$OPPONENT" \
    ${LEARNING_RATE:+--learning-rate "$LEARNING_RATE"}
cp "$RUNS/selfplay/model.pt" "$OUT/selfplay.pt"
cp "$RUNS/selfplay/log.csv" "$OUT/selfplay-log.csv"
