#!/bin/sh
# Double Easthaven seeds 1-1,000's 32 deals unknown at 100 M nodes
# (../2026-11-28-cuts-retry/double-easthaven.csv, copied here as
# de-unknown-100M.csv), again at 100 M nodes with the NRPA searches
# beside the rollouts and beams (default settings since 68f560c); one
# job of 4 GiB. Resume after an interruption with:
#   RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-2f2aab7}
JOBS=${JOBS:-1}
MEM=${MEM:-4G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch double-easthaven \
  --retry-unknown de-unknown-100M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv de-nrpa-100M.csv $RESUME $EXTRA >> run.out 2>> run.log
