#!/bin/sh
# Chameleon 235 (lost, 85,264,671 positions) by the layered search, with the
# builds named in OLD and NEW (default: 59dfc29, before this session's
# changes, and af3c1ab), at 2G (no rebuild) and 250M (15 rebuilds), each
# build in turn, one run at a time.
OLD=${OLD:-/tmp/demon-59dfc29}
NEW=${NEW:-/tmp/demon-af3c1ab}
cd "$(dirname "$0")"
for mem in 2G 250M; do
  for b in "$OLD" "$NEW"; do
    name=$(basename "$b")
    /usr/bin/time -v "$b" solve chameleon 235 --layered --max-memory "$mem" --format json \
      > "c235-$mem-$name.json" 2> "c235-$mem-$name.time"
  done
done
