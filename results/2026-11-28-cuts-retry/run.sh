#!/bin/bash
# The two-deck deals still unknown, solved again with the restarts that
# start partway along the best line (df25fac, whose reports' settings say
# restarts=cuts) at the limits they were left unknown at: Variegated
# Canfield's 35 of seeds 1-100 (unknown at 30 M nodes) at 30 M (vc), and
# the 42 each of seeds 101-200 (vc2) and 201-300 (vc3), unknown at 30 M
# with the ladder alone, at 30 M. 4 GiB a deal; resumable (--resume). Run
# from the repository root:
#   DEMON=target/release/demon JOBS=1 results/2026-11-28-cuts-retry/run.sh vc
#   DEMON=target/release/demon JOBS=2 results/2026-11-28-cuts-retry/run.sh vc2 vc3
#   DEMON=target/release/demon JOBS=2 results/2026-11-28-cuts-retry/run.sh de
# (de: Double Easthaven's 36 of seeds 1-1,000 unknown at 100 M nodes, at
# 100 M.)
set -e
DEMON=${DEMON:-target/release/demon}
JOBS=${JOBS:-1}
D=results/2026-11-28-cuts-retry
run() { # name game report limit
    /usr/bin/time -v -o $D/$1.log $DEMON batch $2 --retry-unknown $3 --max-nodes $4 \
        --max-memory $((4 * JOBS))G --jobs $JOBS --csv $D/$1.csv --resume > $D/$1.out 2> $D/$1.err
}
stages=${*:-vc}
for stage in $stages; do
    case $stage in
    vc)
        R=results/2026-11-27-two-deck-retry-30M
        run variegated-canfield-1-100 variegated-canfield \
            results/2026-11-28-restarts-retry/variegated-canfield-1-100.csv 30M
        $DEMON merge $R/variegated-canfield-1-100.2M.csv --retried $R/variegated-canfield-1-100.csv \
            --retried results/2026-11-28-restarts-retry/variegated-canfield-1-100.csv \
            --retried $D/variegated-canfield-1-100.csv > $D/variegated-canfield-1-100.merged.out ;;
    vc2|vc3)
        # Seeds 101-200 and 201-300: unknown at 30 M nodes with the ladder
        # alone (never retried with the restarts).
        R=results/2026-11-27-two-deck-retry-30M
        r=$([ $stage = vc2 ] && echo 101-200 || echo 201-300)
        run variegated-canfield-$r variegated-canfield $R/variegated-canfield-$r.csv 30M
        $DEMON merge $R/variegated-canfield-$r.2M.csv --retried $R/variegated-canfield-$r.csv \
            --retried $D/variegated-canfield-$r.csv > $D/variegated-canfield-$r.merged.out ;;
    de)
        # Double Easthaven's 36 of seeds 1-1,000 unknown at 100 M nodes.
        run double-easthaven double-easthaven results/2026-11-28-restarts-retry/double-easthaven.csv 100M
        $DEMON merge results/2026-11-26-two-deck-1-1000/double-easthaven.csv \
            --retried results/2026-11-27-two-deck-retry-30M/double-easthaven.csv \
            --retried results/2026-11-28-double-easthaven-retry-100M/double-easthaven.csv \
            --retried results/2026-11-28-restarts-retry/double-easthaven.csv \
            --retried $D/double-easthaven.csv > $D/double-easthaven.merged.out ;;
    esac
done
