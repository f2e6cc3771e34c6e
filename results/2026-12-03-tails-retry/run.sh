#!/bin/sh
# The deals of seeds 1-1,000 still unknown in the games with NRPA
# searches (and so tail searches), again with the tail searches and
# --rollout-seed SEED: Double Easthaven's 26 and Variegated Canfield's
# 135 at NODES nodes a deal, American Toad's 812 at TOAD_NODES.
#   ./run.sh                      the run
#   RESUME=--resume ./run.sh      continue an interrupted run
#   INPUTS="vc-unknown-135" ./run.sh   some of the inputs only
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
NODES=${NODES:-20M}
TOAD_NODES=${TOAD_NODES:-100M}
SEED=${SEED:-16}
INPUTS=${INPUTS:-de-unknown-26 at-unknown-1 vc-unknown-135}
cd "$(dirname "$0")"
for IN in $INPUTS; do
  case $IN in
    de-*) GAME=double-easthaven; N=$NODES ;;
    at-*) GAME=american-toad; N=$TOAD_NODES ;;
    vc-*) GAME=variegated-canfield; N=$NODES ;;
  esac
  OUT=$IN-$N
  /usr/bin/time -v nice -n 5 "$DEMON" batch $GAME \
    --retry-unknown $IN.csv --jobs "$JOBS" --max-memory "$MEM" \
    --max-nodes "$N" --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
done
