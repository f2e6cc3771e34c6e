#!/bin/sh
# Tail searches (the depth-first search near the end of each NRPA
# search's best line) against none: Variegated Canfield seeds SEEDS at
# NODES nodes a deal, with the build before them (OLD) and the build with
# them (NEW), the two batches side by side, one job and 3G each, so that
# they share the machine alike. One report each: NAME-old.csv, NAME-new.csv.
OLD=${OLD:-/tmp/demon-cf3eaaf}
NEW=${NEW:-/tmp/demon-HEAD}
SEEDS=${SEEDS:-1001..1050}
NODES=${NODES:-20M}
NAME=${NAME:-vc-1001-1050-20M}
GAME=${GAME:-variegated-canfield}
cd "$(dirname "$0")"
for V in old new; do
  if [ $V = old ]; then D=$OLD; else D=$NEW; fi
  /usr/bin/time -v nice -n 5 "$D" batch $GAME --seeds $SEEDS --jobs 1 \
    --max-memory 3G --max-nodes $NODES --csv $NAME-$V.csv $RESUME \
    >> $NAME-$V.out 2>> $NAME-$V.log &
done
wait
