#!/usr/bin/env bash
# Gongzhu ScrofaZero self-play in one command of under 10 minutes on a machine with 16 CPU cores and one CUDA GPU:
# `paiju train scrofazero` with its MCTS self-play actors on ACTORS cores and the learner on the GPU (DEVICE),
# starting from INIT (the shipped network by default) and learning the value target VALUE_TARGET (root by default:
# from the shipped network the paper's outcome target lost strength where root and mix did not, BENCHMARKS.md
# "Self-play's value target"; outcome, root or mix: `paiju train scrofazero --help`).
#
# Run it from the repository root with the machine's python3 (it needs numpy, torch, typer, rich and Cython,
# nothing else; the compiled engines are built for that Python first):
#
#   OUT=/somewhere scripts/train_scrofazero_gpu.sh
#   OUT=/somewhere VALUE_TARGET=outcome scripts/train_scrofazero_gpu.sh        # the paper's target
#   OUT=/somewhere HIDDEN=2048,2048,512,10 scripts/train_scrofazero_gpu.sh   # the paper's 11.4 M parameters
#   OUT=/somewhere scripts/train_scrofazero_gpu.sh --batch-games 240         # more options for the trainer
#
# HIDDEN (W1,W2,W3,BLOCKS) trains a network of those sizes from fresh weights instead of INIT: a run started from
# a file keeps that file's sizes, so a larger network starts fresh or from a file of its size (INIT, no HIDDEN).
# Building the engines takes a few minutes on a fresh machine; with the default MINUTES the command ends near 9.
#
# $OUT receives the network and its log (model.pt, log.csv); the run folder itself (with its checkpoint, to
# `paiju train scrofazero --resume`) stays in $RUNS. Evaluate the result on any machine, e.g.
# `paiju eval gongzhu scrofazero:$OUT/model.pt mr-greed --deals 512 --workers 2`.
set -euo pipefail

OUT=${OUT:?set OUT to the folder that receives the network}
RUNS=${RUNS:-/tmp/paiju-scrofazero-runs}
ACTORS=${ACTORS:-15}
MINUTES=${MINUTES:-6}
DEVICE=${DEVICE:-cuda}
SEED=${SEED:-1}
HIDDEN=${HIDDEN:-}
if [ -n "$HIDDEN" ] && [ -n "${INIT:-}" ]; then
    echo "set HIDDEN (fresh weights of those sizes) or INIT (a network to start from), not both" >&2
    exit 2
fi
INIT=${INIT:-src/paiju/agents/scrofazero/weights/gongzhu.pt}
VALUE_TARGET=${VALUE_TARGET:-root}
PYTHON=${PYTHON:-python3}

mkdir -p "$OUT" "$RUNS"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if ! "$PYTHON" -c "import paiju.games.gongzhu._state_fast" 2>/dev/null; then
    "$PYTHON" setup.py --quiet build_ext --inplace --parallel 16
fi
"$PYTHON" -c "import torch; print('learner device:', torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu')"

if [ -n "$HIDDEN" ]; then
    start=(--hidden "$HIDDEN")
else
    start=(--init "$INIT")
fi
rm -rf "$RUNS/selfplay"
"$PYTHON" -m paiju.cli train scrofazero --out "$RUNS/selfplay" --actors "$ACTORS" --device "$DEVICE" --seed "$SEED" \
    --minutes "$MINUTES" --value-target "$VALUE_TARGET" --eval-minutes 0 --no-tensorboard "${start[@]}" "$@"
cp "$RUNS/selfplay/model.pt" "$OUT/model.pt"
cp "$RUNS/selfplay/log.csv" "$OUT/log.csv"
