#!/bin/sh
# A/B on Double Easthaven deals of seeds 1-1,000 won late (after 6.4 M
# nodes, where the search under relaxed rules starts): nodes to the win
# with the relaxation (the default) and without (--no-relaxation).
DEMON=${DEMON:-/tmp/demon-1b23b4d}
for s in 667 431 161 118; do
  for o in "" "--no-relaxation"; do
    "$DEMON" solve double-easthaven $s --max-nodes 60M --format json $o > ab-$s$o.json 2>/dev/null
    python3 -c "
import json; d=json.load(open('ab-$s$o.json')); s=d['stats']
print('$s', '${o:-relaxation}', d['verdict'], d['found_by'], s['nodes'], s['relaxed_nodes'], round(s['seconds'],1))"
  done
done
