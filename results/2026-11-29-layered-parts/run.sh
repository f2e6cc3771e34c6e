#!/bin/sh
# The layered search before (OLD, cd34eca) and after (NEW, af83c34) its levels
# were split in 16 parts: Chameleon 235 (lost, 85,264,671 positions) and
# Double Easthaven 362 (lost, 10,133,300 positions) at the memories named,
# one run at a time.
OLD=${OLD:-/tmp/demon-cd34eca}
NEW=${NEW:-/tmp/demon-af83c34}
cd "$(dirname "$0")"
one() { # build game seed memory
  name=$(basename "$1")
  /usr/bin/time -v "$1" solve "$2" "$3" --layered --max-memory "$4" --format json \
    > "$2-$3-$4-$name.json" 2> "$2-$3-$4-$name.time"
}
for b in "$OLD" "$NEW"; do one "$b" chameleon 235 150M; done
one "$NEW" chameleon 235 120M
one "$NEW" chameleon 235 100M
for m in 60M 40M 30M; do for b in "$OLD" "$NEW"; do one "$b" double-easthaven 362 $m; done; done
