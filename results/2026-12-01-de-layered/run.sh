#!/bin/sh
# Double Easthaven's unknown deals by the layered search, which had been
# tried on 263 alone (../2026-11-28-layered-de, before the levels were
# split in parts and tableau classes joined it). First the nine others on
# which the ladder had run out of levels and a thousand level-2 restarts
# won nothing (de-ladder-out-9.csv: 43, 72, 101, 182, 214, 422, 431, 819,
# 894; rows from ../2026-12-01-rollout-seed-1/de-unknown-27.csv), at most
# 100 M positions expanded a deal, one job, 10 GiB.
# Ctrl-C saves the deal under way in $CK (outside the repository: large);
# resume with RESUME=--resume ./run.sh
DEMON=${DEMON:-/tmp/demon-HEAD}
NODES=${NODES:-100M}
CK=${CK:-/work/runs/de-layered-ck}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch double-easthaven --retry-unknown de-ladder-out-9.csv \
  --layered --jobs 1 --max-memory 10G --max-nodes "$NODES" --checkpoint-dir "$CK" \
  --csv de-layered-$NODES.csv $RESUME >> run-$NODES.out 2>> run-$NODES.log
