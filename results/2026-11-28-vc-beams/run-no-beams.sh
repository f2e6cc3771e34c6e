#!/bin/sh
# The control for run.sh: the same 83 Variegated Canfield deals at the same
# 80 M nodes and 4 GiB a deal, with --no-beams (the ladder, the restarts
# and their cuts, as before the beams; the same binary).
# Resume after an interruption with: RESUME=--resume ./run-no-beams.sh
DEMON=${DEMON:-/tmp/demon-f04a571}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield --no-beams \
  --retry-unknown vc-1-300-unknown-30M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 80M --csv vc-1-300-no-beams-80M.csv $RESUME > run-no-beams.out 2> run-no-beams.log
