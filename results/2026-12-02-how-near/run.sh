#!/bin/sh
# How near the deals still unknown come: each game's unknown deals of
# seeds 1-1,000 searched again, short, by a version that records the most
# cards up in one position (the most_up column, 84c91a9):
#   de: Double Easthaven's 27 (../2026-12-01-rollout-seed-1/de-seed-1-35M.csv)
#       at 9 M nodes with a new seed of the random searches (2);
#   sc: Superior Canfield's 3 (sc-unknown-3.csv: their rows of
#       ../2026-11-27-superior-1-1000-30M/deals.csv) at 30 M nodes;
#   ch: Chameleon's 11 (../2026-11-28-chameleon-18G/chameleon-unknown-11.csv)
#       at 30 M nodes.
#   ./run.sh de|sc|ch        RESUME=--resume ./run.sh ...   to go on
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
cd "$(dirname "$0")"
case $1 in
  de) GAME=double-easthaven; IN=../2026-12-01-rollout-seed-1/de-seed-1-35M.csv; NODES=9M; SEED=2 ;;
  sc) GAME=superior-canfield; IN=sc-unknown-3.csv; NODES=30M; SEED=0 ;;
  ch) GAME=chameleon; IN=../2026-11-28-chameleon-18G/chameleon-unknown-11.csv; NODES=30M; SEED=0 ;;
  *) echo "usage: run.sh de|sc|ch" >&2; exit 2 ;;
esac
OUT=$1-$NODES
/usr/bin/time -v nice -n 5 "$DEMON" batch $GAME \
  --retry-unknown $IN --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes "$NODES" --rollout-seed "$SEED" \
  --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log
