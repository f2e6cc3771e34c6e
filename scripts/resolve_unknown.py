#!/usr/bin/env python3
"""Re-solves a random sample of a batch report's UNKNOWN deals at a larger
limit, to estimate what the unknown deals turn out to be.

    python3 scripts/resolve_unknown.py results/winnability/canfield-published.csv \\
        --options "--group-moves any --tableau-wrap base" --sample 40 \\
        --max-nodes 20000000 --out results/2026-11-23-canfield-published-unknown-sample

The sample is drawn with a fixed random seed (--seed), so the same command
picks the same deals. Each deal goes through `demon solve` (whose WON
verdicts are replayed by the independent checker); the rows are appended to
OUT/deals.csv as they finish, and a rerun skips the seeds already there.
The game comes from the report; its rule options must be given again
(--options), and are checked: the rule set `demon solve` reports must be the
report's.
"""

import argparse
import csv
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIELDS = ["seed", "verdict", "nodes", "stored", "seconds", "peak_memory", "limit"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="a demon batch CSV report")
    ap.add_argument("--options", default="", help="the report's rule options, as given to demon batch")
    ap.add_argument("--sample", type=int, default=40, help="unknown deals to re-solve (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random sample (default 1)")
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--max-memory", default="4G")
    ap.add_argument("--demon", default=os.path.join(ROOT, "target", "release", "demon"))
    ap.add_argument("--out", required=True, help="directory for deals.csv")
    a = ap.parse_args()

    with open(a.report, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{a.report}: no rows")
    game, rules = rows[0]["game"], rows[0]["rules"]
    unknown = sorted(int(r["seed"]) for r in rows if r["verdict"] == "unknown")
    sample = sorted(random.Random(a.seed).sample(unknown, min(a.sample, len(unknown))))
    print(f"{a.report}: {len(rows)} deals, {len(unknown)} unknown; re-solving {len(sample)} "
          f"at {a.max_nodes:,} nodes", flush=True)

    os.makedirs(a.out, exist_ok=True)
    # One sample per directory: a rerun must ask for the same one.
    params = {"report": os.path.relpath(os.path.abspath(a.report), ROOT), "options": a.options,
              "sample": a.sample, "seed": a.seed, "max_nodes": a.max_nodes, "max_memory": a.max_memory}
    pf = os.path.join(a.out, "params.json")
    if os.path.exists(pf):
        was = json.load(open(pf))
        if was != params:
            sys.exit(f"{a.out} holds another sample: {was}; use another --out")
    else:
        with open(pf, "w") as f:
            json.dump(params, f, indent=1)
            f.write("\n")
    out = os.path.join(a.out, "deals.csv")
    # A line cut short by a kill is dropped (its deal is solved again).
    if os.path.exists(out):
        data = open(out, "rb").read()
        if data and not data.endswith(b"\n"):
            with open(out, "wb") as f:
                f.write(data[: data.rfind(b"\n") + 1])
    done = set()
    if os.path.exists(out):
        with open(out, newline="") as f:
            done = {int(r["seed"]) for r in csv.DictReader(f)}
    new = not os.path.exists(out)
    with open(out, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        for seed in sample:
            if seed in done:
                continue
            cmd = [a.demon, "solve", game, str(seed), *a.options.split(), "--max-nodes",
                   str(a.max_nodes), "--max-memory", a.max_memory, "--format", "json"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode not in (0, 3, 4):
                sys.exit(f"seed {seed}: demon solve failed (exit {r.returncode}): {r.stderr.strip()}")
            d = json.loads(r.stdout)
            if d["rules"] != rules:
                sys.exit(f"the options give rules '{d['rules']}', the report has '{rules}'")
            s = d["stats"]
            row = {"seed": seed, "verdict": d["verdict"], "nodes": s["nodes"], "stored": s["positions_stored"],
                   "seconds": s["seconds"], "peak_memory": s["peak_memory_bytes"], "limit": d["limit"] or ""}
            w.writerow(row)
            f.flush()
            print(f"seed {seed}: {d['verdict']} ({s['nodes']:,} nodes, {s['seconds']:.1f} s)", flush=True)

    with open(out, newline="") as f:
        got = [r for r in csv.DictReader(f) if int(r["seed"]) in sample]
    count = {v: sum(1 for r in got if r["verdict"] == v) for v in ("won", "lost", "unknown")}
    print(f"{len(got)} re-solved: won {count['won']}, lost {count['lost']}, unknown {count['unknown']}")


if __name__ == "__main__":
    main()
