#!/bin/sh
# The two-deck deals of seeds 1-1,000 that seed 0's random searches left
# unknown at 100 M nodes, again with another seed of the random searches
# (--rollout-seed 1: the NRPA searches' stream and the restarts' noises;
# the exhaustive search, the ladder and the beams are as before), two jobs
# of 4 GiB, at 35 M nodes (the phase from 6.4 M ends at 32 M):
#   de: Double Easthaven's 27 (de-unknown-27.csv, each deal's row from
#       ../2026-11-29-de-nrpa);
#   vc: Variegated Canfield's 174 (vc-unknown-174.csv, each deal's latest
#       row from ../2026-11-29-vc-nrpa-half).
# Resume after an interruption with:   RESUME=--resume ./run.sh de|vc
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
NODES=${NODES:-35M}
SEED=${SEED:-1}
cd "$(dirname "$0")"
case $1 in
  de) GAME=double-easthaven; IN=de-unknown-27.csv ;;
  vc) GAME=variegated-canfield; IN=vc-unknown-174.csv ;;
  *) echo "usage: run.sh de|vc" >&2; exit 2 ;;
esac
OUT=$1-seed-$SEED-$NODES
/usr/bin/time -v nice -n 5 "$DEMON" batch $GAME \
  --retry-unknown $IN --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes "$NODES" --rollout-seed "$SEED" \
  --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log
