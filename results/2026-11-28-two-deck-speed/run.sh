#!/bin/sh
# Two-deck speed, before and after the move-generation and rollout changes
# of b98007f, aa1e09b and 1be6184: the deal sets of
# `cargo bench -p demon-benches --bench limited`, through `demon batch`, one
# job, each binary in turn (ABAB...), wall time of each batch.
# Run from the repository root with the two binaries built:
#   OLD=/tmp/demon-4008e6f NEW=/tmp/demon-1be6184 results/2026-11-28-two-deck-speed/run.sh
set -e
D=results/2026-11-28-two-deck-speed
for rep in 1 2; do
  for b in $OLD $NEW; do
    v=$(basename $b | sed 's/^demon-//')
    for g in "american-toad 1..20" "double-easthaven 1..20" "variegated-canfield 1..10"; do
      set -- $g
      s=$(date +%s.%N)
      $b batch $1 --seeds $2 --max-nodes 2M --jobs 1 --max-memory 2G --csv /tmp/speed-$v-$1-$rep.csv > /dev/null 2>&1
      e=$(date +%s.%N)
      echo "$rep $v $1 $(echo "$e - $s" | bc)"
      [ $rep = 1 ] && cp /tmp/speed-$v-$1-$rep.csv $D/$1-$v.csv
    done
  done
done
