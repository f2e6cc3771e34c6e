#!/bin/sh
# Variegated Canfield: the 40 deals nearest a win (most cards up) of the
# 152 still unknown after pass 10 of ../2026-12-02-vc-seeds, solved again
# at NODES nodes (140 M: the rollout phase of the fifth pause, 25.6 M
# nodes, runs to its end) with --rollout-seed 11.
#   ./run.sh                     the run
#   RESUME=--resume ./run.sh     continue an interrupted run
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
NODES=${NODES:-140M}
SEED=${SEED:-11}
cd "$(dirname "$0")"
OUT=vc-top-40-$NODES
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-top-40.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes "$NODES" --rollout-seed "$SEED" \
  --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log
