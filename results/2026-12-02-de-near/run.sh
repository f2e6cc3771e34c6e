#!/bin/sh
# The Double Easthaven deals still unknown that came nearest (30 or more
# of 104 cards up at 9 M nodes, ../2026-12-02-how-near/de-9M.csv; their
# rows in de-near-30.csv), at 35 M nodes with a new seed of the random
# searches (--rollout-seed 3).
DEMON=${DEMON:-/tmp/demon-HEAD}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch double-easthaven \
  --retry-unknown de-near-30.csv --jobs 2 --max-memory 8G \
  --max-nodes 35M --rollout-seed 3 --csv de-seed-3-35M.csv $RESUME \
  >> de-seed-3-35M.out 2>> de-seed-3-35M.log
