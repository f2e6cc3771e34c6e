#!/bin/bash
# Seeds 1-1,000 at 2 M nodes a deal, 2 jobs sharing 4 GiB (2 GiB a deal),
# after c9878b3 (the last pass's nearest waste cards first; rollouts leave
# out reversible moves that uncover nothing for the foundations): the games
# with a limited stock, and Double Easthaven for the rollout change.
#   DEMON=/tmp/demon-c9878b3 results/2026-11-26-last-pass-1-1000/run.sh [GAME...]
set -u
cd "$(dirname "$0")"
DEMON=${DEMON:-../../target/release/demon}
games=${*:-american-toad double-easthaven variegated-canfield}
for g in $games; do
  $DEMON batch $g --seeds 1..1000 --max-nodes 2M --jobs 2 --max-memory 4G --csv $g.csv --resume > $g.out 2>&1
done
