#!/bin/sh
# The free-class size memo (5e1eab9) against the search before it
# (3b8c212): Superior Canfield seeds 1-200 at 2 M nodes a deal, one job,
# each binary twice, alternated (A B A B), so that both meet the same
# load. Node-limited: both must give the same report but for the times.
OLD=${OLD:-/tmp/demon-3b8c212}
NEW=${NEW:-/tmp/demon-HEAD}
cd "$(dirname "$0")"
for i in 1 2; do
  for b in old new; do
    if [ $b = old ]; then D=$OLD; else D=$NEW; fi
    /usr/bin/time -v nice -n 5 "$D" batch superior-canfield --seeds 1..200 --jobs 1 \
      --max-memory 2G --max-nodes 2M --csv sc-$b-$i.csv > sc-$b-$i.out 2> sc-$b-$i.log || exit
  done
done
