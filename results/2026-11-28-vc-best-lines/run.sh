#!/bin/bash
# How near the rollouts' restarts come on Variegated Canfield seeds 1-300:
# restarts alone (the `nested` example), 3 phases of 1 M moves a deal,
# 64 MiB; a deal they do not win gets the end of their best line (cards
# up, reserve and talon left). Then each deal's verdict so far, from the
# reports of seeds 1-300 (verdicts.py). Run from the repository root:
#   results/2026-11-28-vc-best-lines/run.sh
set -e
D=results/2026-11-28-vc-best-lines
R=results
cargo build --release --locked -p demon-solver --example nested
N=target/release/examples/nested
$N variegated-canfield 1 100 1000000 3 restarts > $D/vc-1-100.txt
$N variegated-canfield 101 300 1000000 3 restarts > $D/vc-101-300.txt
T=$R/2026-11-27-two-deck-retry-30M
python3 $D/verdicts.py $D/vc-1-100.txt $T/variegated-canfield-1-100.2M.csv \
    $T/variegated-canfield-1-100.csv $R/2026-11-28-restarts-retry/variegated-canfield-1-100.csv \
    $R/2026-11-28-cuts-retry/variegated-canfield-1-100.csv > $D/vc-1-100.csv
cat2() { cat $1; tail -n +2 $2; }
python3 $D/verdicts.py $D/vc-101-300.txt \
    <(cat2 $T/variegated-canfield-101-200.2M.csv $T/variegated-canfield-201-300.2M.csv) \
    <(cat2 $T/variegated-canfield-101-200.csv $T/variegated-canfield-201-300.csv) \
    <(cat2 $R/2026-11-28-cuts-retry/variegated-canfield-101-200.csv $R/2026-11-28-cuts-retry/variegated-canfield-201-300.csv) \
    > $D/vc-101-300.csv
