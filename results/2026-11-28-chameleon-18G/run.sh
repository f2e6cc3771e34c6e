#!/bin/sh
# Chameleon's 11 deals unknown at 800 M nodes (4 GiB each, forgetting), again
# with one job and 18 GiB: 20 minutes a deal, every node on the search.
# Resume after an interruption with: RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-93851f9}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch chameleon \
  --retry-unknown chameleon-unknown-11.csv --jobs 1 --max-memory 18G \
  --forget-when-full --no-rollouts --no-probes --timeout 1200 \
  --csv chameleon-18G.csv $RESUME > run.out 2> run.log
