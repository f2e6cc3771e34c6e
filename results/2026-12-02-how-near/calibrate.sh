#!/bin/sh
# How near deals of known verdict come under the same limits as run.sh's,
# to read its figures against: deals won only by later searches (unknown
# at these limits before), and deals proved lost.
#   Variegated Canfield (9 M nodes, --rollout-seed 6): won late 26, 107,
#     544, 814 (../2026-12-02-vc-seeds, pass 5), 98, 301, 853 (pass 2),
#     507, 692 (pass 3), 662 (pass 4); lost 47.
#   Double Easthaven (9 M nodes, --rollout-seed 2): won late 88, 782, 801,
#     915 (../2026-11-28-cuts-retry); lost 362.
#   Chameleon (30 M nodes): lost 235 and 723 (and its two won deals, 145
#     and 220, for the record: every card).
# One line each: game seed verdict nodes most_cards_up.
DEMON=${DEMON:-/tmp/demon-HEAD}
cd "$(dirname "$0")"
one() {
  "$DEMON" solve "$@" --max-memory 4G --format json > /tmp/calib.json 2>/dev/null
  python3 -c "import json,sys; v=json.load(open('/tmp/calib.json')); print(sys.argv[1], sys.argv[2], v['verdict'], v['stats']['nodes'], v['stats']['most_cards_up'])" "$1" "$2"
}
for s in 26 107 544 814 98 301 853 507 692 662 47; do
  one variegated-canfield $s --max-nodes 9M --rollout-seed 6
done
for s in 88 782 801 915 362; do
  one double-easthaven $s --max-nodes 9M --rollout-seed 2
done
for s in 235 723 145 220; do
  one chameleon $s --max-nodes 30M
done
