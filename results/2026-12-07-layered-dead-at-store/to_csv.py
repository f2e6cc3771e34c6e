#!/usr/bin/env python3
"""The JSON answers of run.sh as one CSV: a row a run."""
import glob
import json
import re

print("seed,memory,build,verdict,nodes,stored,dead_ends,table_hits,rebuilds,seconds,peak_memory,max_resident_kb")
for path in sorted(glob.glob("*.json")):
    seed, mem, build = path[:-5].split("-")
    a = json.load(open(path))
    s = a["stats"]
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(path[:-5] + ".time").read())
    print(",".join(str(x) for x in [
        seed, mem, build, a["verdict"], s["nodes"], s["positions_stored"], s["dead_ends"],
        s["table_hits"], s["table_rebuilds"], f'{s["seconds"]:.3f}', s["peak_memory_bytes"],
        rss.group(1) if rss else "",
    ]))
