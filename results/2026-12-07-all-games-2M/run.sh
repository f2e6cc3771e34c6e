#!/bin/sh
# Every game under its default rules, and Canfield under the two published
# rule sets, seeds 1-1,000 at 2 M nodes a deal (node-limited, so every
# verdict reproduces on any machine and under any load), all at one
# version: each game's time per deal, nodes a second and positions stored
# measured with one binary on one machine.
#   ./run.sh                     the run
#   RESUME=--resume ./run.sh     continue an interrupted run
DEMON=${DEMON:-/tmp/demon-a53801f}
JOBS=${JOBS:-2}
MEM=${MEM:-8G}
NODES=${NODES:-2M}
cd "$(dirname "$0")"
run() {
  NAME=$1; shift
  /usr/bin/time -v "$DEMON" batch "$@" --seeds 1..1000 --jobs "$JOBS" \
    --max-memory "$MEM" --max-nodes "$NODES" --csv $NAME.csv $RESUME \
    >> $NAME.out 2>> $NAME.log || exit
}
run canfield canfield
run canfield-any canfield --group-moves any
run canfield-solvitaire canfield --group-moves any --tableau-wrap base
run superior-canfield superior-canfield
run double-canfield double-canfield
run rainbow rainbow
run selective-canfield selective-canfield
run chameleon chameleon
run storehouse storehouse
run variegated-canfield variegated-canfield
run american-toad american-toad
run double-easthaven double-easthaven
run easthaven easthaven
