#!/bin/sh
# Best-first probes on and off in the one-deck games with unlimited redeals
# (Superior Canfield seeds 1-1,000 at 2 M nodes, Selective Canfield 1-200
# at 2 M nodes), two jobs at 4 GiB in all. The Canfield file was made
# before the option existed (see README.md).
# Run from the repository root: DEMON=target/release/demon results/2026-11-27-probes/run.sh
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-27-probes
for p in probes no-probes; do
    $DEMON batch superior-canfield --seeds 1..200 --max-nodes 2M --max-memory 4G --jobs 2 --$p --csv $D/superior-1-200-$p.csv
    $DEMON batch superior-canfield --seeds 201..1000 --max-nodes 2M --max-memory 4G --jobs 2 --$p --csv $D/superior-201-1000-$p.csv
    $DEMON batch selective-canfield --seeds 1..200 --max-nodes 2M --max-memory 4G --jobs 2 --$p --csv $D/selective-1-200-$p.csv
done
