#!/bin/sh
# Seeds 1-1,000 of the games with a reserve, at short node limits, with
# the stack bound's choice of heights (a53801f): their verdicts must
# agree with every earlier report (crates/batch/tests/recorded_verdicts.rs,
# no_deal_is_both_won_and_lost). Lane T is the timed runs, on an
# otherwise idle machine.
# Run from this folder: DEMON=/tmp/demon-a53801f ./checks.sh A|B|T
set -e
DEMON=${DEMON:-demon}
run() { name=$1; shift; /usr/bin/time -v "$DEMON" batch "$@" --max-memory 4G --csv "$name.csv" > "$name.out" 2> "$name.log"; }
case $1 in
A)
  run canfield-1-1000-2M canfield --seeds 1..1000 --max-nodes 2M --jobs 1
  run rainbow-1-1000-2M rainbow --seeds 1..1000 --max-nodes 2M --jobs 1
  run selective-1-1000-2M selective-canfield --seeds 1..1000 --max-nodes 2M --jobs 1
  ;;
B)
  run canfield-any-1-1000-2M canfield --group-moves any --seeds 1..1000 --max-nodes 2M --jobs 1
  run chameleon-1-1000-1M chameleon --seeds 1..1000 --max-nodes 1M --jobs 1
  run storehouse-1-1000-2M storehouse --seeds 1..1000 --max-nodes 2M --jobs 1
  run toad-1-200-2M american-toad --seeds 1..200 --max-nodes 2M --jobs 1
  ;;
T)
  run canfield-published-1-1000 canfield --group-moves any --tableau-wrap base --seeds 1..1000 --jobs 1 --threads 2
  run superior-1-1000-2M superior-canfield --seeds 1..1000 --max-nodes 2M --jobs 2
  ;;
esac
