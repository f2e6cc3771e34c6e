#!/bin/sh
# A chain of short passes over a game's unknown deals, one pass for each
# seed of the random searches (NRPA, the restarts and their tail
# searches), each on what the pass before it left unknown, less the deals
# any other report under results/ has decided meanwhile
# (scripts/still_unknown.py writes each pass's input, NAME-in.csv).
#
#   scripts/chain.sh GAME START.csv TAG "SEEDS"
#
# runs, in the current folder, for each seed S of SEEDS:
#   demon batch GAME --retry-unknown TAG-seed-S-NODES-in.csv --max-nodes NODES \
#       --rollout-seed S --jobs JOBS --max-memory MEM --csv TAG-seed-S-NODES.csv
# under nice 10 and /usr/bin/time -v (NAME.log), the summary in NAME.out.
# Settings from the environment: DEMON (the binary; default demon on the
# PATH), NODES (20M), JOBS (1), MEM (6G), ARGS (more options for each
# pass, e.g. ARGS="--playout-weights blocked=-4": split at spaces; the
# files are named by TAG and seed only, so give each ARGS its own TAG).
# RESUME=1 continues a stopped chain: give START.csv as the stopped
# pass's input and SEEDS from its seed on; its input is kept as it was.
#
# Example (Variegated Canfield, 20 M nodes a deal, seeds 40 to 43):
#   cd results/NEW-DIR && DEMON=/tmp/demon-abc1234 ../../scripts/chain.sh \
#       variegated-canfield ../OLD-DIR/vc-seed-33-20M.csv vc "40 41 42 43"
# A pass that leaves no deal unknown ends the chain.
set -e
[ $# -eq 4 ] || { sed -n '2,25s/^# \{0,1\}//p' "$0" >&2; exit 2; }
GAME=$1; START=$2; TAG=$3; SEEDS=$4
DEMON=${DEMON:-demon}
NODES=${NODES:-20M}
JOBS=${JOBS:-1}
MEM=${MEM:-6G}
FILTER=$(cd "$(dirname "$0")" && pwd)/still_unknown.py
PREV=$START
for S in $SEEDS; do
  NAME=$TAG-seed-$S-$NODES
  if [ -n "$RESUME" ]; then
    # The stopped pass's input names its tag, seed and node limit: a
    # resume with another NODES would start a new report instead.
    if [ "$(basename "$PREV")" != "$NAME-in.csv" ]; then
      echo "RESUME=1: START must be $NAME-in.csv (the stopped pass's input; check TAG, the first seed and NODES)" >&2
      exit 2
    fi
    IN=$PREV
    FLAG=--resume
  else
    IN=$NAME-in.csv
    python3 "$FILTER" "$PREV" "$IN"
    FLAG=
    if [ "$(wc -l < "$IN")" -le 1 ]; then echo "$IN: no deal left" >&2; exit 0; fi
  fi
  /usr/bin/time -v nice -n 10 "$DEMON" batch "$GAME" --retry-unknown "$IN" \
    --max-nodes "$NODES" --rollout-seed "$S" --jobs "$JOBS" --max-memory "$MEM" \
    --csv "$NAME.csv" $FLAG $ARGS >> "$NAME.out" 2>> "$NAME.log"
  RESUME=
  PREV=$NAME.csv
done
