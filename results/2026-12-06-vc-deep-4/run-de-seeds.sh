#!/bin/sh
# Double Easthaven's 25 deals still unknown after seed 18
# (de-unknown-25.csv: those rows of de-unknown-26-20M.csv), at 20 M
# nodes in passes with new seeds of the random searches, each pass on
# the deals the passes before left: SEEDS="19 20 21" by default;
# IN names the report the first pass retries (then SEEDS="22 23"
# IN=de-seed-21-20M went on from seed 21's).
# One job beside the Variegated Canfield pass.
DEMON=${DEMON:-/tmp/demon-HEAD}
SEEDS=${SEEDS:-19 20 21}
cd "$(dirname "$0")"
IN=${IN:-de-unknown-25}
for SEED in $SEEDS; do
  OUT=de-seed-$SEED-20M
  /usr/bin/time -v nice -n 10 "$DEMON" batch double-easthaven \
    --retry-unknown $IN.csv --jobs 1 --max-memory 4G \
    --max-nodes 20M --rollout-seed "$SEED" \
    --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
  IN=$OUT
done
