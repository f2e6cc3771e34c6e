#!/bin/sh
# Double Easthaven seeds 1-1,000's 27 deals unknown at 100 M nodes with
# NRPA taking a quarter of each rollout phase (../2026-11-29-de-nrpa,
# copied here as de-nrpa-quarter-100M.csv), again at 100 M nodes with
# NRPA taking half and the beams a quarter (e78c7af on); one job of
# 4 GiB. Resume after an interruption with:
#   RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-e78c7af}
JOBS=${JOBS:-1}
MEM=${MEM:-4G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch double-easthaven \
  --retry-unknown de-nrpa-quarter-100M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 100M --csv de-nrpa-half-100M.csv $RESUME $EXTRA >> run.out 2>> run.log
