#!/bin/sh
# Variegated Canfield seeds 1-300's 83 deals unknown at 30 M nodes after
# three passes (../2026-11-28-cuts-retry), again at 80 M nodes with the
# beams (crates/solver/src/beam.rs), default settings, 4 GiB a deal:
# JOBS=2 MEM=8G (shared by the jobs).
# Resume after an interruption with: RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-f04a571}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-1-300-unknown-30M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 80M --csv vc-1-300-beams-80M.csv $RESUME > run.out 2> run.log
