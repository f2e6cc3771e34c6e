#!/bin/sh
# Variegated Canfield's deals of seeds 1-1,000 still unknown after
# ../2026-12-01-rollout-seed-1 (167, unknown at 35 M nodes with
# --rollout-seed 1 and at 100 M with seed 0), in short passes, each with
# a new seed of the random searches: pass k retries the unknown deals of
# pass k-1's report (pass 2's input: ../2026-12-01-rollout-seed-1/
# vc-seed-1-35M.csv) at NODES nodes with --rollout-seed k.
#   ./run.sh K              one pass, seed K (needs pass K-1's report)
#   RESUME=--resume ./run.sh K   continue an interrupted pass
#   IN=REPORT NODES=35M ./run.sh K   pass K on REPORT's unknown deals at
#                                    another limit
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
NODES=${NODES:-9M}
cd "$(dirname "$0")"
K=$1
[ -n "$K" ] && [ "$K" -ge 2 ] || { echo "usage: run.sh SEED (2 or more)" >&2; exit 2; }
if [ -n "$IN" ]; then
  :
elif [ "$K" -eq 2 ]; then
  IN=../2026-12-01-rollout-seed-1/vc-seed-1-35M.csv
else
  IN=vc-seed-$((K - 1))-$NODES.csv
fi
OUT=vc-seed-$K-$NODES
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield \
  --retry-unknown $IN --jobs "$JOBS" --max-memory "$MEM" \
  --max-nodes "$NODES" --rollout-seed "$K" \
  --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log
