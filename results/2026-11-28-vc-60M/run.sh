#!/bin/sh
# Variegated Canfield seeds 301-1,000's 240 deals unknown at 30 M nodes
# (../2026-11-28-vc-30M-cuts), again at 60 M nodes, default settings,
# 2 GiB a deal: JOBS=1 MEM=2G, or JOBS=2 MEM=4G (shared by the jobs).
# Resume after an interruption with: RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-93851f9}
JOBS=${JOBS:-1}
MEM=${MEM:-2G}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown vc-301-1000-unknown-30M.csv --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes 60M --csv vc-60M.csv $RESUME > run.out 2> run.log
