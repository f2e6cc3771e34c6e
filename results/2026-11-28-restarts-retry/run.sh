#!/bin/bash
# The two-deck deals still unknown, solved again with the restarts
# (e399ac9; 8c2430c, whose reports' settings name them): American Toad's
# 4 of seeds 1-1,000 (unknown at 300 M nodes) at 300 M, Variegated
# Canfield's 43 of seeds 1-100 (unknown at 30 M) at 30 M, Double
# Easthaven's 39 of seeds 1-1,000 (unknown at 100 M) at 100 M: the limits
# they were left unknown at. Two deals at a time, 4 GiB
# each; resumable (--resume). Run from the repository root:
#   DEMON=target/release/demon results/2026-11-28-restarts-retry/run.sh [toad|vc|de]...
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-restarts-retry
run() { # name game report limit
    /usr/bin/time -v -o $D/$1.log $DEMON batch $2 --retry-unknown $3 --max-nodes $4 \
        --max-memory 8G --jobs 2 --csv $D/$1.csv --resume > $D/$1.out 2> $D/$1.err
}
stages=${*:-toad vc de}
for stage in $stages; do
    case $stage in
    toad)
        run american-toad american-toad results/2026-11-28-toad-retry-100M-300M/american-toad-300M.csv 300M
        $DEMON merge results/2026-11-26-two-deck-1-1000/american-toad.csv \
            --retried results/2026-11-27-two-deck-retry-30M/american-toad.csv \
            --retried results/2026-11-28-toad-retry-100M-300M/american-toad-100M.csv \
            --retried results/2026-11-28-toad-retry-100M-300M/american-toad-300M.csv \
            --retried $D/american-toad.csv > $D/american-toad.merged.out ;;
    vc)
        R=results/2026-11-27-two-deck-retry-30M
        run variegated-canfield-1-100 variegated-canfield $R/variegated-canfield-1-100.csv 30M
        $DEMON merge $R/variegated-canfield-1-100.2M.csv --retried $R/variegated-canfield-1-100.csv \
            --retried $D/variegated-canfield-1-100.csv > $D/variegated-canfield-1-100.merged.out ;;
    de)
        run double-easthaven double-easthaven results/2026-11-28-double-easthaven-retry-100M/double-easthaven.csv 100M
        $DEMON merge results/2026-11-26-two-deck-1-1000/double-easthaven.csv \
            --retried results/2026-11-27-two-deck-retry-30M/double-easthaven.csv \
            --retried results/2026-11-28-double-easthaven-retry-100M/double-easthaven.csv \
            --retried $D/double-easthaven.csv > $D/double-easthaven.merged.out ;;
    esac
done
