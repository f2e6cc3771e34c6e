#!/bin/sh
# The two-deck games' tables, full: in run-full.sh their depth-first
# tables stay small (the rollouts, beams and NRPA beside the search take
# nearly all its nodes, or the deal is won first), so here a deal still
# unknown of each (Variegated Canfield 400, American Toad 812, Double
# Easthaven 43) runs the depth-first search alone (--no-rollouts) in
# 32 MiB (MEM) and at most 100 M nodes (NODES), until its table fills.
DEMON=${DEMON:-/tmp/demon-HEAD}
NODES=${NODES:-100M}
MEM=${MEM:-32M}
cd "$(dirname "$0")"
run() {
  NAME=$1; SEED=$2; shift 2
  /usr/bin/time -v "$DEMON" batch "$@" --seeds $SEED..$SEED --jobs 1 --no-rollouts \
    --max-memory "$MEM" --max-nodes "$NODES" --csv $NAME-alone.csv \
    >> $NAME-alone.out 2>> $NAME-alone.log || exit
}
run variegated-canfield 400 variegated-canfield
run american-toad 812 american-toad
run double-easthaven 43 double-easthaven
