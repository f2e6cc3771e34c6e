#!/bin/bash
# base: 34ce56b; new: c7ba013 (reserve bound); new --waste-bound
set -u
for cfg in base new waste; do
  case $cfg in base) bin=/tmp/e2/demon-s8b; extra="";; new) bin=/tmp/e2/demon-c7b; extra="";; waste) bin=/tmp/e2/demon-c7b; extra="--waste-bound";; esac
  for g in superior-canfield rainbow chameleon american-toad variegated-canfield canfield-any; do
    n=100; nodes=1M; opts=""; game=$g
    case $g in american-toad|variegated-canfield) n=30;; canfield-any) game=canfield; opts="--group-moves any"; nodes=2M;; esac
    rm -f $g-$cfg.csv $g-$cfg.csv.run $g-$cfg.csv.pending
    $bin batch $game $opts --seeds 1..$n --max-nodes $nodes --jobs 1 --max-memory 2G $extra --csv $g-$cfg.csv > $g-$cfg.out 2>&1
  done
done
