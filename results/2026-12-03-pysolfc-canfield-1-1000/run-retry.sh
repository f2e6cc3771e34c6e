#!/bin/bash
# The games run.sh left unknown, again at 1 G nodes in 8 GiB.
# DEMON=/tmp/demon-b106ddc results/2026-12-03-pysolfc-canfield-1-1000/run-retry.sh [--resume]
set -e
cd "$(dirname "$0")"
DEMON=${DEMON:-demon}
/usr/bin/time -v nice -n 5 "$DEMON" batch canfield --rules pysolfc --retry-unknown pysolfc-canfield.csv \
  --max-nodes 1G --jobs 1 --max-memory 8G --csv pysolfc-canfield-1G.csv "$@" \
  > pysolfc-canfield-1G.out 2> pysolfc-canfield-1G.log
