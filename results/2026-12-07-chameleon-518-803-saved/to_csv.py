#!/usr/bin/env python3
"""Writes a `demon solve --format json` answer as a row of demon batch's
report format (the columns `demon batch --csv` writes), so that the
recorded-verdicts test and the status table read it like any report:

    python3 to_csv.py chameleon chameleon-803.json > chameleon-803.csv
"""
import json
import sys

game, path = sys.argv[1], sys.argv[2]
a = json.load(open(path))
s = a["stats"]
seed = int(a["title"].rsplit(" ", 1)[1])
print("game,rules,seed,verdict,solution_moves,nodes,stored,seconds,peak_memory,limit,found_by,most_up,table_bytes")
print(",".join(str(x) for x in [
    game, a["rules"], seed, a["verdict"], len(a["steps"]), s["nodes"], s["positions_stored"],
    f'{s["seconds"]:.4f}', s["peak_memory_bytes"], a["limit"] or "", a["found_by"] or "",
    s["most_cards_up"], s["table_bytes"],
]))
