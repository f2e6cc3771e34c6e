#!/bin/sh
# Variegated Canfield, a third deep pass at NODES nodes with
# --rollout-seed 13: the 70 deals that ../2026-12-03-vc-deep-2 left
# unknown at 140 M nodes with seed 12 among the nearest 76 (its
# vc-top-36 and vc-next-40), split by how near they came there:
# vc-near-a.csv the 35 with most cards up (85 to 74 of 104),
# vc-near-b.csv the other 35 (74 to 63). Their rows are those 140 M rows.
#   ./run.sh                     the run
#   RESUME=--resume ./run.sh     continue an interrupted run
#   INPUTS=vc-near-b ./run.sh    some of the inputs only
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
NODES=${NODES:-140M}
SEED=${SEED:-13}
INPUTS=${INPUTS:-vc-near-a vc-near-b}
cd "$(dirname "$0")"
for IN in $INPUTS; do
  OUT=$IN-$NODES
  /usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
    --retry-unknown $IN.csv --jobs "$JOBS" --max-memory "$MEM" \
    --max-nodes "$NODES" --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
done
