#!/bin/sh
# Variegated Canfield seeds 1-300's 61 deals unknown at 80 M nodes both
# with and without the beams (../2026-11-28-vc-beams), again at 100 M
# nodes with the NRPA searches beside the rollouts and beams (68f560c);
# one job of 4 GiB. Resume after an interruption with:
#   RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-nrpa2}
JOBS=${JOBS:-1}
MEM=${MEM:-4G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-1-300-unknown-80M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv vc-1-300-nrpa-100M.csv $RESUME >> run.out 2>> run.log
