#!/bin/sh
for s in 567 589 819 845 894 969; do
  /usr/bin/time -f "%e s %M KB" ${DEMON:-/tmp/demon-13fb0d9} solve double-easthaven $s --deal-when-empty yes --max-nodes 150M --max-memory 4G --no-rollouts --no-beams --no-nrpa --no-tails --no-probes --format json > r150-$s.json 2> r150-$s.log
  python3 -c "
import json; d=json.load(open('r150-$s.json')); s=d.get('stats',{}); print($s, d['verdict'], s.get('nodes'), s.get('positions_stored'), s.get('most_cards_up'), round(s.get('seconds'),1))" >> r150.txt
done
