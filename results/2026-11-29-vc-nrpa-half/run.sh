#!/bin/sh
# Variegated Canfield seeds 1-1,000's 206 unknown deals (vc-unknown-206.csv:
# each deal's latest unknown row, from the reports named in README.md),
# again at 100 M nodes with NRPA taking half of each rollout phase
# (e78c7af on), one job of 4 GiB (JOBS=1 MEM=4G; the defaults are two jobs
# and 8G). First the 168 never searched with
# NRPA (vc-unknown-no-nrpa-yet.csv), then the 38 left unknown by NRPA with
# a quarter (vc-unknown-nrpa-quarter-tried.csv). Resume after an
# interruption with:   RESUME=--resume ./run.sh [1|2]
DEMON=${DEMON:-/tmp/demon-e78c7af}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
PART=${1:-1}
cd "$(dirname "$0")"
case $PART in
  1) IN=vc-unknown-no-nrpa-yet.csv; OUT=vc-no-nrpa-yet-100M.csv ;;
  2) IN=vc-unknown-nrpa-quarter-tried.csv; OUT=vc-quarter-tried-100M.csv ;;
esac
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown $IN --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv $OUT $RESUME $EXTRA >> run-$PART.out 2>> run-$PART.log
