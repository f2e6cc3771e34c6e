#!/usr/bin/env bash
# Canfield (--group-moves any) seeds 1-1000, one job, 4 GiB per deal, no node limit.
set -euo pipefail
DEMON=${DEMON:-target/release/demon}
cd "$(dirname "$0")"
/usr/bin/time -v "$DEMON" batch canfield --group-moves any --seeds 1..1000 --jobs 1 --max-memory 4G --csv deals.csv > run.out 2> run.log
