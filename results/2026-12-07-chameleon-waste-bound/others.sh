#!/bin/sh
# The waste bound on the other games with a last pass through the stock,
# with and without --waste-bound, one job, 2 M nodes:
#   DEMON=/tmp/demon-c08ff37 ./others.sh
DEMON=${DEMON:-/tmp/demon-HEAD}
cd "$(dirname "$0")"
run() { # name game seeds [options]
  name=$1; game=$2; seeds=$3; shift 3
  for cfg in plain wb; do
    extra=""; [ $cfg = wb ] && extra=--waste-bound
    "$DEMON" batch "$game" --seeds "$seeds" --max-nodes 2M --jobs 1 --max-memory 4G $extra "$@" \
      --csv "$name-$cfg.csv" > "$name-$cfg.out" 2>&1 || exit
  done
}
run rainbow-1-200 rainbow 1..200
run storehouse-1-200 storehouse 1..200
run american-toad-1-50 american-toad 1..50
run variegated-canfield-1-50 variegated-canfield 1..50
run rainbow-pysolfc-1-200 rainbow 1..200 --rules pysolfc
run chameleon-pysolfc-1-200 chameleon 1..200 --rules pysolfc
