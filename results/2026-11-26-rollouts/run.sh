#!/bin/bash
# Nested rollouts (e497aaa) against the same search without them
# (--no-rollouts), same deals and node limits, 2 jobs sharing 4 GiB.
#   DEMON=target/release/demon results/2026-11-26-rollouts/run.sh
set -u
cd "$(dirname "$0")"
DEMON=${DEMON:-../../target/release/demon}
run() { # name game seeds nodes options...
  local name=$1 game=$2 seeds=$3 nodes=$4; shift 4
  for cfg in off on; do
    local extra=""; [ $cfg = off ] && extra="--no-rollouts"
    rm -f $name-$cfg.csv $name-$cfg.csv.run $name-$cfg.csv.pending
    $DEMON batch $game "$@" --seeds $seeds --max-nodes $nodes --jobs 2 --max-memory 4G $extra --csv $name-$cfg.csv > $name-$cfg.out 2>&1
  done
}
run american-toad american-toad 1..100 10M
run double-easthaven double-easthaven 1..100 2M
run rainbow-pysolfc rainbow 1..100 2M --rules pysolfc
run chameleon-pysolfc chameleon 1..100 2M --rules pysolfc
run variegated-canfield variegated-canfield 1..40 2M
run superior-canfield superior-canfield 1..200 2M
run canfield-any canfield 1..300 2M --group-moves any
