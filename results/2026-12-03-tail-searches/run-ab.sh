#!/bin/sh
# Before (OLD) and with the tail searches (NEW) one after the other, two
# jobs, 3 GiB a deal (--max-memory 6G): GAME seeds SEEDS at NODES nodes a
# deal, reports NAME-old.csv and NAME-new.csv.
OLD=${OLD:-/tmp/demon-cf3eaaf}
NEW=${NEW:-/tmp/demon-HEAD}
GAME=${GAME:-variegated-canfield}
SEEDS=${SEEDS:-1051..1100}
NODES=${NODES:-20M}
NAME=${NAME:-vc-1051-1100-20M}
cd "$(dirname "$0")"
for V in old new; do
  if [ $V = old ]; then D=$OLD; else D=$NEW; fi
  /usr/bin/time -v nice -n 5 "$D" batch $GAME --seeds $SEEDS --jobs 2 \
    --max-memory 6G --max-nodes $NODES --csv $NAME-$V.csv $RESUME \
    >> $NAME-$V.out 2>> $NAME-$V.log || exit
done
