#!/bin/sh
# Variegated Canfield seeds 301-1,000's 160 deals unknown at 100 M nodes
# with the beams (../2026-11-28-vc-beams-301-1000), again at 300 M nodes,
# default settings, one job of 4 GiB (JOBS=, MEM= change them; MEM is
# shared by the jobs). Resume after an interruption with:
#   RESUME=--resume ./run.sh
# A build from 68f560c on searches as 3038de1 did with EXTRA=--no-nrpa
# (session 37 resumed with DEMON=<2f2aab7 build> EXTRA=--no-nrpa).
DEMON=${DEMON:-/tmp/demon-3038de1}
JOBS=${JOBS:-1}
MEM=${MEM:-4G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-301-1000-unknown-100M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 300M --csv vc-301-1000-300M.csv $RESUME $EXTRA >> run.out 2>> run.log
