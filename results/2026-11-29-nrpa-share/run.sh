#!/bin/sh
# How much of each two-deck rollout phase the NRPA searches should have.
# Three builds: A = 2f2aab7 (NRPA a quarter, beams half, ladder and
# restarts an eighth each); B = 2f2aab7 with NRPA half and beams a
# quarter (the default from this run's commit on); C = 2f2aab7 with
# share-C.patch (NRPA three quarters, beams an eighth, ladder and
# restarts a sixteenth each). Each build solves two deal sets, one deal
# at a time with 4 GiB:
# - late40-2M.csv: the first 40 Variegated Canfield deals of seeds
#   1-1,000 that no recorded search won in under 30 M nodes (a made-up
#   report of them unknown at 2 M, so that --retry-unknown takes them),
#   at 30 M nodes;
# - de-late-2M.csv: the Double Easthaven deals of seeds 1-1,000 won only
#   at 10 M nodes or more (less 428, 509 and 640, won in
#   ../2026-11-29-de-nrpa while this ran), at 20 M nodes.
# Usage: DEMON=<build> ./run.sh A|B|C
cd "$(dirname "$0")"
n=$1
"$DEMON" batch variegated-canfield --retry-unknown late40-2M.csv --jobs 1 --max-memory 4G \
  --max-nodes 30M --csv late40-$n-30M.csv > $n.out 2> $n.log
"$DEMON" batch double-easthaven --retry-unknown de-late-2M.csv --jobs 1 --max-memory 4G \
  --max-nodes 20M --csv de-late-$n-20M.csv > de-$n.out 2> de-$n.log
