#!/bin/sh
# One pass of NODES nodes a deal (10M unless set; seed 0 of the random
# searches) over Variegated Canfield's 125 deals unknown in seeds 1-1,000
# (vc-all-in.csv: each deal's unknown row of the most nodes under
# results/, nearest a win first by status-1-1000.md's most cards up), for
# each playout value given:
#   DEMON=/tmp/demon-88ef225 ./sweep.sh NAME=WEIGHTS ...
# e.g. ./sweep.sh r15=reserve=15 writes vc-r15-seed-0-10M.csv with
# --playout-weights reserve=15; each pass's input is vc-all-in.csv less
# every deal decided anywhere under results/ by then (scripts/chain.sh,
# scripts/still_unknown.py).
export NODES=${NODES:-10M}
for V in "$@"; do
  NAME=${V%%=*}
  W=${V#*=}
  ARGS="--playout-weights $W" ../../scripts/chain.sh variegated-canfield vc-all-in.csv "vc-$NAME" 0
done
