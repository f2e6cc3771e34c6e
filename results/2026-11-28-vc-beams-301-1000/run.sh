#!/bin/sh
# Variegated Canfield seeds 301-1,000's 207 deals unknown at 60 M nodes
# (../2026-11-28-vc-60M), again at 100 M nodes with the beams, default
# settings, 4 GiB a deal: JOBS=2 MEM=8G (shared by the jobs).
# Resume after an interruption with: RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-fc4de6a}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-301-1000-unknown-60M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv vc-301-1000-beams-100M.csv $RESUME >> run.out 2>> run.log
