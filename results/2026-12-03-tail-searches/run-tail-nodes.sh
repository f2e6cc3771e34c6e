#!/bin/sh
# The tail searches with another budget a line (--tail-nodes TAIL, a
# hidden option for experiments, 0162a22): Variegated Canfield seeds
# SEEDS at NODES nodes a deal, two jobs of 3 GiB, report
# NAME-tail-TAIL.csv, to set beside the default's (100,000 a line).
DEMON=${DEMON:-/tmp/demon-HEAD}
SEEDS=${SEEDS:-1001..1100}
NODES=${NODES:-20M}
TAIL=${TAIL:-400k}
NAME=${NAME:-vc-1001-1100-20M}
cd "$(dirname "$0")"
/usr/bin/time -v nice -n 5 "$DEMON" batch variegated-canfield --seeds $SEEDS \
  --jobs 2 --max-memory 6G --max-nodes $NODES --tail-nodes $TAIL \
  --csv $NAME-tail-$TAIL.csv $RESUME >> $NAME-tail-$TAIL.out 2>> $NAME-tail-$TAIL.log
