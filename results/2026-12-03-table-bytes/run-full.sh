#!/bin/sh
# What a stored position costs in a full table: the deals of run.sh again,
# each in 32 MiB (MEM) and at most 100 M nodes (NODES), so that the
# depth-first table fills and the search stops at the memory limit (or
# decides the deal first).
DEMON=${DEMON:-/tmp/demon-HEAD}
NODES=${NODES:-100M}
MEM=${MEM:-32M}
cd "$(dirname "$0")"
run() {
  NAME=$1; SEED=$2; shift 2
  /usr/bin/time -v "$DEMON" batch "$@" --seeds $SEED..$SEED --jobs 1 \
    --max-memory "$MEM" --max-nodes "$NODES" --csv $NAME-full.csv \
    >> $NAME-full.out 2>> $NAME-full.log || exit
}
run canfield 546 canfield
run canfield-any 500 canfield --group-moves any
run canfield-solvitaire 545 canfield --group-moves any --tableau-wrap base
run superior-canfield 619 superior-canfield
run double-canfield 371 double-canfield
run rainbow 146 rainbow
run selective-canfield 973 selective-canfield
run chameleon 93 chameleon
run storehouse 829 storehouse
run variegated-canfield 400 variegated-canfield
run american-toad 792 american-toad
run double-easthaven 659 double-easthaven
run easthaven 165 easthaven
