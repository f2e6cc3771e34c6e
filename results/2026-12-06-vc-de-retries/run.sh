#!/bin/sh
# Retries of the two-deck deals still unknown in seeds 1-1,000 with seeds
# of the random searches not used before on them.
#   ./run.sh vc     Variegated Canfield: the deals of VC_IN.csv (by
#                   default vc-nearest.csv, the 14 that came nearest a win,
#                   picked by scripts/nearest_unknown.py from
#                   ../status-1-1000.md), at VC_NODES nodes with
#                   --rollout-seed VC_SEED
#   ./run.sh de     Double Easthaven: de-unknown.csv, in passes of
#                   DE_NODES with each seed of DE_SEEDS, each pass on what
#                   the one before left
#   RESUME=--resume ./run.sh vc|de   continue an interrupted pass
DEMON=${DEMON:-/tmp/demon-HEAD}
JOBS=${JOBS:-2}
MEM=${MEM:-6G}
VC_NODES=${VC_NODES:-140M}
VC_SEED=${VC_SEED:-19}
VC_IN=${VC_IN:-vc-nearest}
DE_NODES=${DE_NODES:-20M}
DE_SEEDS=${DE_SEEDS:-"24 25"}
cd "$(dirname "$0")"
batch() {
  OUT=$1; shift
  /usr/bin/time -v nice -n 10 "$DEMON" batch "$@" --jobs "$JOBS" \
    --max-memory "$MEM" --csv $OUT.csv $RESUME >> $OUT.out 2>> $OUT.log || exit
}
case $1 in
vc)
  batch $VC_IN-$VC_NODES-seed-$VC_SEED variegated-canfield \
    --retry-unknown $VC_IN.csv --max-nodes $VC_NODES --rollout-seed $VC_SEED ;;
de)
  IN=${IN:-de-unknown}
  for S in $DE_SEEDS; do
    OUT=de-seed-$S-$DE_NODES
    batch $OUT double-easthaven --retry-unknown $IN.csv --max-nodes $DE_NODES --rollout-seed $S
    IN=$OUT
  done ;;
*) echo "usage: $0 vc|de" >&2; exit 2 ;;
esac
