#!/bin/sh
# Variegated Canfield, a second deep pass at NODES nodes (140 M: the
# rollout phase of the fifth pause, 25.6 M nodes, runs to its end) with
# --rollout-seed 12: first the 40 deals that came nearest a win in pass
# 10 of ../2026-12-02-vc-seeds after the 40 of ../2026-12-02-vc-deep
# (vc-next-40.csv: 65 to 70 cards up of 104, searched at 35 M nodes at
# most), then the 36 that ../2026-12-02-vc-deep left unknown at 140 M
# with seed 11 (vc-top-36.csv), then the other 72 unknown after pass 10,
# nearest first (vc-rest-72.csv: 64 to 34 cards up, their pass-10 rows).
#   ./run.sh                     the run
#   RESUME=--resume ./run.sh     continue an interrupted run
#   INPUTS=vc-top-36 ./run.sh    some of the inputs only
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
NODES=${NODES:-140M}
SEED=${SEED:-12}
INPUTS=${INPUTS:-vc-next-40 vc-top-36 vc-rest-72}
cd "$(dirname "$0")"
for IN in $INPUTS; do
  OUT=$IN-$NODES
  /usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
    --retry-unknown $IN.csv --jobs "$JOBS" --max-memory "$MEM" \
    --max-nodes "$NODES" --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
done
