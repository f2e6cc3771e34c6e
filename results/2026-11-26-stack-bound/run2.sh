#!/bin/bash
set -u
bin=/tmp/e2/demon-6b5
for g in superior-canfield rainbow chameleon american-toad variegated-canfield canfield-any; do
  n=100; nodes=1M; opts=""; game=$g
  case $g in american-toad|variegated-canfield) n=30;; canfield-any) game=canfield; opts="--group-moves any"; nodes=2M;; esac
  for cfg in final finalw; do
    extra=""; [ $cfg = finalw ] && extra="--waste-bound"
    rm -f $g-$cfg.csv $g-$cfg.csv.run
    $bin batch $game $opts --seeds 1..$n --max-nodes $nodes --jobs 1 --max-memory 2G $extra --csv $g-$cfg.csv > $g-$cfg.out 2>&1
  done
done
