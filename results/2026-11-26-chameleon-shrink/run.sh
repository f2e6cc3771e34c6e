#!/usr/bin/env bash
# Chameleon: the deals unknown at 200 M nodes (2026-11-25-rainbow-chameleon-forget)
# but seed 254 (solved alone, see README), with forgetting (and the table's
# shrink for deep paths), the waste bound, 4 GiB a deal, two jobs, at most
# 800 M nodes a deal.
set -euo pipefail
DEMON=${DEMON:-target/release/demon}
cd "$(dirname "$0")"
/usr/bin/time -v "$DEMON" batch chameleon --retry-unknown chameleon-unknown-12.csv \
    --jobs 2 --max-memory 8G --forget-when-full --waste-bound --max-nodes 800M \
    --csv chameleon-retry.csv > run.out 2> run.log
