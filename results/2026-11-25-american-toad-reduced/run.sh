#!/usr/bin/env bash
# American Toad on reduced decks (--ranks N), and at 12 ranks with one rule
# dimension changed at a time. DEMON: the demon binary (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")"
DEMON=${DEMON:-../../target/release/demon}
for r in 7 8 9 10; do
  "$DEMON" batch american-toad --ranks $r --seeds 1..200 --max-nodes 2M --jobs 1 --max-memory 2G --csv ranks-$r.csv 2> ranks-$r.log
done
for r in 11 12 13; do
  "$DEMON" batch american-toad --ranks $r --seeds 1..100 --max-nodes 2M --jobs 1 --max-memory 2G --csv ranks-$r.csv 2> ranks-$r.log
done
for d in "redeals 0" "redeals 2" "redeals unlimited" "piles 4" "draw 3" "group-moves any" "build alternate-colour"; do
  n=${d// /-}
  "$DEMON" batch american-toad --ranks 12 --$d --seeds 1..30 --max-nodes 1M --jobs 1 --max-memory 2G --csv r12-$n.csv 2> r12-$n.log
done
