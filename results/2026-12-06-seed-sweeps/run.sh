#!/bin/sh
# Many short passes, each with a seed of the random searches (NRPA, the
# restarts and their tail searches) not used before, over the two-deck
# deals still unknown in seeds 1-1,000. Each pass takes what the pass
# before it left unknown.
#   ./run.sh vc   Variegated Canfield: vc-nearest-60.csv (the 60 unknown
#                 deals that came nearest a win, by scripts/nearest_unknown.py),
#                 NODES nodes a deal, one pass for each seed of SEEDS
#   ./run.sh de   Double Easthaven: de-unknown.csv, the same way
#   RESUME=--resume ./run.sh vc|de   continue an interrupted pass (give
#                 SEEDS from the interrupted one on, and IN its input)
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-1}
MEM=${MEM:-6G}
NODES=${NODES:-20M}
cd "$(dirname "$0")"
case $1 in
vc) GAME=variegated-canfield; IN=${IN:-vc-nearest-60}; SEEDS=${SEEDS:-"20 21 22 23 24 25 26 27"} ;;
de) GAME=double-easthaven; IN=${IN:-de-unknown}; SEEDS=${SEEDS:-"24 25 26 27 28 29"} ;;
*) echo "usage: $0 vc|de" >&2; exit 2 ;;
esac
for S in $SEEDS; do
  OUT=$1-seed-$S-$NODES
  /usr/bin/time -v nice -n 10 "$DEMON" batch $GAME --retry-unknown $IN.csv \
    --max-nodes $NODES --rollout-seed $S --jobs "$JOBS" --max-memory "$MEM" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
  RESUME=
  IN=$OUT
done
