#!/bin/sh
# One pass of 20 M nodes a deal (seed 0 of the random searches) over
# Double Easthaven's deals still unknown, for each playout value given:
#   DEMON=/tmp/demon-88ef225 ./sweep.sh NAME=WEIGHTS ...
# e.g. ./sweep.sh low0=low=0 u2=unbuilt=-2 writes de-low0-seed-0-20M.csv
# with --playout-weights low=0, and so on, one after another; each pass's
# input is de-all-in.csv less every deal decided anywhere under results/
# by then (scripts/chain.sh, scripts/still_unknown.py).
for V in "$@"; do
  NAME=${V%%=*}
  W=${V#*=}
  ARGS="--playout-weights $W" ../../scripts/chain.sh double-easthaven de-all-in.csv "de-$NAME" 0
done
