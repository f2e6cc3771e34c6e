#!/bin/sh
# Chameleon seeds 1-1,000's unknown deals that no layered search had tried
# (chameleon-unknown-9.csv: the rows of
# ../2026-11-28-chameleon-layered/chameleon-unknown-11.csv less 16 and 93),
# by the layered search, one job, 10 GiB, at most 300 M positions expanded
# a deal. Seed 254, the largest by the depth-first search (1.81 G nodes),
# was started first and then set aside, saved in $CK, for the other eight
# (chameleon-unknown-8.csv):
#   ./run.sh 8        the eight, into chameleon-8-layered.csv
#   ./run.sh 254      254 alone, continued from its save
# Ctrl-C saves the deal under way in $CK (outside the repository: large);
# resume the eight with RESUME=--resume ./run.sh 8. From f73c98a, KEEP=--keep-unknown
# keeps the save of each deal left unknown in $CK too, for a retry at a larger
# limit to go on from.
DEMON=${DEMON:-/tmp/demon-c93950a}
NODES=${NODES:-300M}
CK=${CK:-/work/runs/chameleon-9-ck}
cd "$(dirname "$0")"
case $1 in
  8) /usr/bin/time -v "$DEMON" batch chameleon --retry-unknown chameleon-unknown-8.csv \
       --layered --jobs 1 --max-memory 10G --max-nodes "$NODES" --checkpoint-dir "$CK" \
       --csv chameleon-8-layered.csv $RESUME $KEEP >> run-8.out 2>> run-8.log ;;
  254) /usr/bin/time -v "$DEMON" solve chameleon 254 --layered --max-memory 10G \
       --max-nodes "$NODES" --checkpoint "$CK/chameleon-254.layered" --format json \
       >> run-254.json 2>> run-254.log ;;
esac
