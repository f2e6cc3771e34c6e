#!/bin/sh
# Seeds 1-1,000 of the other games with a reserve, at short node limits,
# with the pile tops: their verdicts must agree with every earlier report
# (crates/batch/tests/recorded_verdicts.rs, no_deal_is_both_won_and_lost).
# Run from this folder: DEMON=/tmp/demon-f4dad67 ./checks.sh A|B
set -e
DEMON=${DEMON:-demon}
run() { name=$1; shift; /usr/bin/time -v "$DEMON" batch "$@" --jobs 1 --max-memory 4G --csv "$name.csv" > "$name.out" 2> "$name.log"; }
case $1 in
A)
  run canfield-1-1000-2M canfield --seeds 1..1000 --max-nodes 2M
  run rainbow-1-1000-2M rainbow --seeds 1..1000 --max-nodes 2M
  run chameleon-1-1000-1M chameleon --seeds 1..1000 --max-nodes 1M
  ;;
B)
  run selective-1-1000-2M selective-canfield --seeds 1..1000 --max-nodes 2M
  run storehouse-1-1000-2M storehouse --seeds 1..1000 --max-nodes 2M
  run canfield-any-1-1000-2M canfield --group-moves any --seeds 1..1000 --max-nodes 2M
  run toad-1-200-2M american-toad --seeds 1..200 --max-nodes 2M
  ;;
esac
