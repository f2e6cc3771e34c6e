#!/bin/bash
# PySolFC's Canfield games 1-1000 under PySolFC's rules (game 105), 30 M nodes a deal.
# DEMON=/tmp/demon-b106ddc results/2026-12-03-pysolfc-canfield-1-1000/run.sh [--resume]
set -e
cd "$(dirname "$0")"
DEMON=${DEMON:-demon}
/usr/bin/time -v nice -n 5 "$DEMON" batch canfield --rules pysolfc --pysolfc 1..1000 \
  --max-nodes 30M --jobs 1 --max-memory 4G --csv pysolfc-canfield.csv "$@" \
  > pysolfc-canfield.out 2> pysolfc-canfield.log
