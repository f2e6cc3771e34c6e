#!/bin/sh
# The tail searches on the restarts' best lines too (2f8a137), on the same
# deals and limits as run.sh (3 GiB a deal), two jobs: NAME-restarts.csv,
# to set beside NAME-new.csv (bdea5ad, the NRPA searches' lines only).
DEMON=${DEMON:-/tmp/demon-HEAD}
SEEDS=${SEEDS:-1001..1050}
NODES=${NODES:-20M}
NAME=${NAME:-vc-1001-1050-20M}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield --seeds $SEEDS \
  --jobs 2 --max-memory 6G --max-nodes $NODES --csv $NAME-restarts.csv $RESUME \
  >> $NAME-restarts.out 2>> $NAME-restarts.log
