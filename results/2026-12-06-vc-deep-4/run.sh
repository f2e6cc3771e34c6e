#!/bin/sh
# Variegated Canfield, a fourth deep pass at NODES nodes with
# --rollout-seed 18 (not used before): of the 135 deals of seeds 1-1,000
# still unknown, the 60 that came nearest a win in
# ../2026-12-03-tails-retry (vc-unknown-135-20M.csv, 20 M nodes, seed 16:
# 80 to 65 cards up of 104), vc-nearest-60.csv; the other 75 are in
# vc-rest-75.csv. Their rows are those 20 M rows.
#   ./run.sh                     the run
#   RESUME=--resume ./run.sh     continue an interrupted run
#   INPUTS=vc-rest-75 ./run.sh   other inputs
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-12G}
NODES=${NODES:-140M}
SEED=${SEED:-18}
INPUTS=${INPUTS:-vc-nearest-60}
cd "$(dirname "$0")"
for IN in $INPUTS; do
  OUT=$IN-$NODES
  /usr/bin/time -v nice -n 10 "$DEMON" batch variegated-canfield \
    --retry-unknown $IN.csv --jobs "$JOBS" --max-memory "$MEM" \
    --max-nodes "$NODES" --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
done
