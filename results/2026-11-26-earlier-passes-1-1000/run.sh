#!/bin/bash
# Seeds 1-1,000 at 2 M nodes a deal, 2 jobs sharing 4 GiB (2 GiB a deal),
# after 7094936 (nearer waste cards first in every pass of a limited stock,
# most in the last): the games whose stock has limited redeals.
#   DEMON=/tmp/demon-7094936 results/2026-11-26-earlier-passes-1-1000/run.sh [GAME...]
set -u
cd "$(dirname "$0")"
DEMON=${DEMON:-../../target/release/demon}
games=${*:-american-toad variegated-canfield}
for g in $games; do
  $DEMON batch $g --seeds 1..1000 --max-nodes 2M --jobs 2 --max-memory 4G --csv $g.csv --resume > $g.out 2>&1
done
