#!/bin/sh
# The first 40 of Variegated Canfield seeds 301-1,000's 207 deals unknown
# at 60 M nodes (the set ../2026-11-28-vc-beams-301-1000 solved at 100 M
# with the beams: 8 of these 40 won), again at 100 M nodes with the NRPA
# searches beside the rollouts and beams; one job of 4 GiB.
# Resume after an interruption with: RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-nrpa2}
JOBS=${JOBS:-1}
MEM=${MEM:-4G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-first-40-unknown-60M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv vc-first-40-nrpa-100M.csv $RESUME >> run.out 2>> run.log
