#!/bin/sh
# Variegated Canfield: the 40 deals of seeds 1-1,000 still unknown that
# came nearest a win in any report (96 to 72 cards up of 104), in short
# passes of NODES nodes a deal, each with a new --rollout-seed, each pass
# retrying only what the pass before left unknown:
#   pass-SEED.csv = demon batch variegated-canfield --retry-unknown
#                   (the pass before, or vc-nearest-40.csv) --rollout-seed SEED
#   ./run.sh                        seeds FIRST..LAST (16..40)
#   FIRST=20 ./run.sh               go on from seed 20's pass
#   RESUME=--resume FIRST=N ./run.sh  continue pass N, interrupted
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
NODES=${NODES:-20M}
FIRST=${FIRST:-16}
LAST=${LAST:-40}
cd "$(dirname "$0")"
S=$FIRST
while [ "$S" -le "$LAST" ]; do
  if [ "$S" -eq 16 ]; then IN=vc-nearest-40; else IN=pass-$((S - 1)); fi
  OUT=pass-$S
  /usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
    --retry-unknown $IN.csv --jobs "$JOBS" --max-memory "$MEM" \
    --max-nodes "$NODES" --rollout-seed "$S" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
  RESUME=
  S=$((S + 1))
done
