#!/bin/sh
# The layered search before and after the children's buckets are prefetched
# (f6be533, then eba8ccc): Chameleon 235, 250 MiB, to 30 M nodes, alternating,
# two runs each, beside the Chameleon 93 run on the other core.
cd "$(dirname "$0")"
for i in 1 2; do
  for b in f6be533 eba8ccc; do
    /usr/bin/time -f "%e s, %M KB" /tmp/demon-$b solve chameleon 235 --layered \
      --max-memory 250M --max-nodes 30M --format json > "c235-$b-$i.json" 2> "c235-$b-$i.time"
  done
done
