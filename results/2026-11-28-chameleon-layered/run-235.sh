#!/bin/sh
# Chameleon 235 (lost, 85.3 M positions) by the layered search at a memory
# limit given as MEM (default 250M), for the memory each version needs.
DEMON=${DEMON:-/tmp/demon-4649db3}
MEM=${MEM:-250M}
cd "$(dirname "$0")"
/usr/bin/time -v "$DEMON" solve chameleon 235 --layered --max-memory "$MEM" \
  > "chameleon-235-$MEM.txt" 2> "chameleon-235-$MEM.log"
