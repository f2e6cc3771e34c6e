#!/bin/sh
# What a stored position costs in each game: for every game under its
# default rules, and Canfield under the two published rule sets, the deal
# that stored the most positions in ../2026-12-03-all-games-2M (seeds
# 1-1,000 at 2 M nodes), solved again at the same limit by a build that
# records the table's bytes (f9d6911 and later: the report's table_bytes
# column). Node-limited, so each deal's positions and table are those of
# that run whatever the machine's load.
DEMON=${DEMON:-/tmp/demon-HEAD}
NODES=${NODES:-2M}
cd "$(dirname "$0")"
run() {
  NAME=$1; SEED=$2; shift 2
  /usr/bin/time -v "$DEMON" batch "$@" --seeds $SEED..$SEED --jobs 1 \
    --max-memory 4G --max-nodes "$NODES" --csv $NAME.csv \
    >> $NAME.out 2>> $NAME.log || exit
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
