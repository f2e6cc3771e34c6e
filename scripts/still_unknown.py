#!/usr/bin/env python3
"""Copies the unknown rows of a batch report, leaving out every deal that
some other report under results/ has decided since, as a report that
`demon batch --retry-unknown` takes.

    python3 scripts/still_unknown.py results/DIR/vc-seed-23-20M.csv \\
        results/DIR/vc-next-in.csv

Chains of passes (scripts/chain.sh) each take the unknown rows of the pass
before; two chains over the same deals, or a chain beside other runs,
would search again a deal another run has just won. Here a row of IN is
left out when a report anywhere under results/ (any *.csv with a batch
report's columns, finished or still being written) holds a won or lost
row for the same game, rules and seed. OUT gets IN's columns and the
kept rows in IN's order, and IN's `.run` side file is copied beside it
(what `--retry-unknown` needs nothing from, but every report under
results/ keeps its limits with it). The deals left out are named on
standard error. OUT must not exist: reports are not overwritten.
"""
import csv
import pathlib
import shutil
import sys

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "results"
KEY = ("game", "rules", "seed")


def decided(skip):
    """(game, rules, seed) -> (verdict, report) of every decided row under results/."""
    out = {}
    for path in sorted(RESULTS.rglob("*.csv")):
        if path.resolve() == skip:
            continue
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if not reader.fieldnames or not set(KEY + ("verdict",)) <= set(reader.fieldnames):
                continue
            for r in reader:
                # A row torn by a run still writing has no verdict yet.
                if r.get("verdict") in ("won", "lost"):
                    out[tuple(r[k] for k in KEY)] = (r["verdict"], path)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    if dst.exists():
        sys.exit(f"{dst} already exists; choose another file")
    known = decided(src.resolve())
    with open(src, newline="") as f:
        reader = csv.DictReader(f)
        fields = reader.fieldnames
        rows = [r for r in reader if r["verdict"] == "unknown"]
    kept, dropped = [], []
    for r in rows:
        hit = known.get(tuple(r[k] for k in KEY))
        if hit:
            dropped.append(f"{r['seed']} ({hit[0]} in {hit[1].relative_to(RESULTS)})")
        else:
            kept.append(r)
    with open(dst, "x", newline="") as f:
        out = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        out.writeheader()
        out.writerows(kept)
    run = src.with_name(src.name + ".run")
    if run.exists():
        shutil.copyfile(run, dst.with_name(dst.name + ".run"))
    print(
        f"{dst}: {len(kept)} of {len(rows)} unknown deals"
        + (f"; left out, decided elsewhere: {', '.join(dropped)}" if dropped else ""),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
