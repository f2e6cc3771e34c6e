#!/bin/sh
# The layered search before (f4a6b18: dead ends tested when their level
# comes) and after (dead ends tested when first stored, going to no file),
# on lost Chameleon deals, one at a time: $OLD and $NEW are the two binaries.
# Writes one JSON answer per run, then ab.csv (to_csv.py).
OLD=${OLD:-/tmp/demon-f4a6b18}
NEW=${NEW:-/tmp/demon-deadstore}
for run in "7533 4G" "5972 4G" "9924 4G" "5972 160M"; do
  set -- $run
  for b in old new; do
    eval bin=\$$(echo $b | tr a-z A-Z)
    /usr/bin/time -v $bin solve chameleon $1 --layered --no-log --max-memory $2 --format json \
      > $1-$2-$b.json 2> $1-$2-$b.time
  done
done
python3 to_csv.py > ab.csv
