#!/bin/sh
# Variegated Canfield seeds 301-1,000: the deals the two-deck run at 2 M
# nodes left unknown (../2026-11-26-two-deck-1-1000), solved again at
# 30 M nodes with the ladder, the restarts and the cuts (f3be47b), 4 GiB a
# deal. variegated-canfield-FIRST-LAST.2M.csv holds that run's rows for
# those seeds. Resumable (--resume). Run from the repository root, one
# hundred or more at a time:
#   DEMON=target/release/demon JOBS=1 results/2026-11-28-vc-30M-cuts/run.sh 301-400 401-500
set -e
DEMON=${DEMON:-target/release/demon}
JOBS=${JOBS:-1}
D=results/2026-11-28-vc-30M-cuts
G=variegated-canfield
for r in "$@"; do
    R=$G-$r
    /usr/bin/time -v -o $D/$R.log $DEMON batch $G \
        --retry-unknown $D/$R.2M.csv --max-nodes 30M \
        --max-memory $((4 * JOBS))G --jobs $JOBS --csv $D/$R.csv --resume > $D/$R.out 2> $D/$R.err
    $DEMON merge $D/$R.2M.csv --retried $D/$R.csv > $D/$R.merged.out
done
