#!/bin/sh
# American Toad's deals of seeds 1-1,000 still unknown at 30 M nodes
# (../2026-11-27-two-deck-retry-30M), solved again at 100 M nodes (stage
# 100M: one job, 4 GiB), then those still unknown at 300 M (stage 300M:
# two jobs, 4 GiB each).
# Run from the repository root:
#   DEMON=target/release/demon results/2026-11-28-toad-retry-100M-300M/run.sh 100M
#   DEMON=target/release/demon results/2026-11-28-toad-retry-100M-300M/run.sh 300M
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-toad-retry-100M-300M
case $1 in
100M) FROM=results/2026-11-27-two-deck-retry-30M/american-toad.csv; JOBS=1; MEM=4G ;;
300M) FROM=$D/american-toad-100M.csv; JOBS=2; MEM=8G ;;
*) echo "usage: run.sh 100M|300M" >&2; exit 2 ;;
esac
/usr/bin/time -v -o $D/american-toad-$1.log $DEMON batch american-toad \
    --retry-unknown $FROM --max-nodes $1 --max-memory $MEM --jobs $JOBS \
    --csv $D/american-toad-$1.csv --resume > $D/american-toad-$1.out 2> $D/american-toad-$1.err
