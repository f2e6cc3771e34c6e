#!/bin/sh
# Double Easthaven's 26 and American Toad's 1 unknown deals of seeds
# 1-1,000 again, with --rollout-seed 18 (not used before): DE at 20 M
# nodes, Toad at 100 M, as ../2026-12-03-tails-retry did with seed 16.
# Their rows are that folder's rows (de-unknown-26-20M.csv,
# at-unknown-1-100M.csv). One job beside the Variegated Canfield pass.
DEMON=${DEMON:-/tmp/demon-HEAD}
SEED=${SEED:-18}
cd "$(dirname "$0")"
for IN in de-unknown-26 at-unknown-1; do
  case $IN in
    de-*) GAME=double-easthaven; N=20M ;;
    at-*) GAME=american-toad; N=100M ;;
  esac
  OUT=$IN-$N
  /usr/bin/time -v nice -n 10 "$DEMON" batch $GAME \
    --retry-unknown $IN.csv --jobs 1 --max-memory 4G \
    --max-nodes "$N" --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
done
