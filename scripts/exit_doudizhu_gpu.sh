#!/usr/bin/env bash
# DouDizhu expert iteration, one generation, in one command of under 10 minutes on a machine with 16 CPU cores:
#
#   1. a corpus of `search` games (every seat searches; each record keeps the searched candidates' values), made by
#      `paiju records generate` on all the cores (GAMES games; a corpus already in $OUT/corpus is extended);
#   2. PerfectDou's networks imitate it (`paiju train ppo --warm-records`: hard targets, one pass, Adam at 1e-4,
#      one epoch a batch — the setting that measured best, BENCHMARKS.md), starting from
#      INIT (the shipped networks by default), one actor for the PPO that follows (the run stops when the
#      corpus's training games are imitated).
#
# Run it from the repository root with the machine's python3 (it needs numpy, torch, typer, rich and Cython,
# nothing else; the compiled engines are built for that Python first):
#
#   OUT=/somewhere scripts/exit_doudizhu_gpu.sh
#   OUT=/somewhere POLICY=perfectdou:/somewhere/exit.pt scripts/exit_doudizhu_gpu.sh   # the next generation
#
# POLICY is the search's prior (default: the search's own, `rules`): a network from the previous generation
# makes the next generation's search. $OUT receives the corpus (corpus/, resumable), the network (exit.pt), its
# held-out agreement with the search (exit-accuracy.json) and its log. Evaluate it on any machine, e.g.
# `paiju eval doudizhu perfectdou:$OUT/exit.pt rules --decks 2000 --workers 2`.
set -euo pipefail

OUT=${OUT:?set OUT to the folder that receives the corpus and the network}
RUNS=${RUNS:-/tmp/paiju-exit-runs}
WORKERS=${WORKERS:-16}
GAMES=${GAMES:-8000}
SHARD=${SHARD:-100}
POLICY=${POLICY:-}
INIT=${INIT:-src/paiju/agents/perfectdou/weights/doudizhu.pt}
TARGET=${TARGET:-hard}
PASSES=${PASSES:-1}
SEED=${SEED:-2026}
PYTHON=${PYTHON:-python3}

mkdir -p "$OUT" "$RUNS"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
if ! "$PYTHON" -c "import paiju.games.doudizhu._movegen_fast" 2>/dev/null; then
    "$PYTHON" setup.py --quiet build_ext --inplace --parallel "$WORKERS"
fi
AGENT=search${POLICY:+:policy=$POLICY}
"$PYTHON" -m paiju.cli records generate --game doudizhu --agents "$AGENT" --games "$GAMES" --shard-size "$SHARD" \
    --seed "$SEED" --workers "$WORKERS" --out "$OUT/corpus"
TRAINING=$(( GAMES - (GAMES * 5 + 99) / 100 ))   # the games not held out (--warm-holdout 0.05)
rm -rf "$RUNS/exit"
"$PYTHON" -m paiju.cli train ppo --out "$RUNS/exit" --init "$INIT" --warm-records "$OUT/corpus" --warm-holdout 0.05 \
    --warm-target "$TARGET" --warm-passes "$PASSES" --learning-rate 1e-4 --epochs 1 --games "$(( TRAINING * PASSES ))" \
    --minutes 0 --actors 1 \
    --learner-threads "$WORKERS" --seed "$SEED" --eval-minutes 0 --no-final-eval --no-tensorboard
cp "$RUNS/exit/model.pt" "$OUT/exit.pt"
cp "$RUNS/exit/warm-accuracy.json" "$OUT/exit-accuracy.json"
cp "$RUNS/exit/log.csv" "$OUT/exit-log.csv"
