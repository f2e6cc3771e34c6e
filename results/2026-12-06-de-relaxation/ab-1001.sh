#!/bin/sh
# Double Easthaven seeds 1,001-1,100 at 20 M nodes, with the search under
# relaxed rules (the default) and without (--no-relaxation).
DEMON=${DEMON:-/tmp/demon-relax3}
for o in relaxation no-relaxation; do
  flag=; [ $o = no-relaxation ] && flag=--no-relaxation
  /usr/bin/time -v "$DEMON" batch double-easthaven --seeds 1001..1100 --max-nodes 20M \
      --jobs 1 --max-memory 4G $flag --csv de-1001-1100-$o.csv > de-1001-1100-$o.out 2> de-1001-1100-$o.log
done
