#!/usr/bin/env python3
"""Picks the unknown deals of seeds 1-1,000 that came nearest a win, as a
report that `demon batch --retry-unknown` takes.

    python3 scripts/nearest_unknown.py "Variegated Canfield" 20 \\
        results/2026-12-06-vc-deep-4/vc-nearest-60.csv \\
        results/2026-12-06-vc-deep-4/vc-rest-75.csv > nearest-20.csv

With --fewest (before GAME) the N with the fewest cards up are kept
instead, fewest first: the deals most likely lost, for a search that
proves deals lost (the layered search).

The deals still unknown, and the most cards up any report recorded for
each, are read from results/status-1-1000.md (the section whose heading is
GAME, as written there; a deal listed without a count, which no report
measured, is not picked); the N with the most cards up (ties: the smaller
seed first) are kept, and their rows are copied from the REPORTs, batch
reports of that game and rules that hold a row for each of them between
them (`--retry-unknown` reads the game's rules from its rows; where two
hold a seed, the later one's row is taken). A deal no REPORT has a row
for, or whose row is not unknown, is an error: the reports and the status
file disagree, and a retry would not run what was asked.
"""
import csv
import pathlib
import re
import sys

STATUS = pathlib.Path(__file__).resolve().parent.parent / "results" / "status-1-1000.md"


def unknown_deals(game):
    """(seed, cards up) of the game's unknown deals in the status file."""
    text = STATUS.read_text()
    m = re.search(r"^## " + re.escape(game) + r"\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        sys.exit(f"no section '## {game}' in {STATUS}")
    deals = re.findall(r"(\d+) \([^;)]*; (\d+) up\)", m.group(1))
    return [(int(s), int(u)) for s, u in deals]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    args = sys.argv[1:]
    fewest = args[:1] == ["--fewest"]
    if fewest:
        args = args[1:]
    if len(args) < 3:
        sys.exit(__doc__)
    game, n, reports = args[0], int(args[1]), args[2:]
    deals = unknown_deals(game)
    if not deals:
        sys.exit(f"{game}: no unknown deal with a 'cards up' count in {STATUS}")
    sign = 1 if fewest else -1
    chosen = sorted(deals, key=lambda d: (sign * d[1], d[0]))[:n]
    by_seed, fields = {}, None
    for report in reports:
        with open(report, newline="") as f:
            reader = csv.DictReader(f)
            if fields is None:
                fields = reader.fieldnames
            elif reader.fieldnames != fields:
                sys.exit(f"{report}: its columns are not {reports[0]}'s")
            for r in reader:
                by_seed[int(r["seed"])] = r
    out = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
    out.writeheader()
    for seed, up in chosen:
        row = by_seed.get(seed)
        if row is None:
            sys.exit(f"no report has a row for seed {seed} ({up} up in the status file)")
        if row["verdict"] != "unknown":
            sys.exit(f"seed {seed} is {row['verdict']} in a report, unknown in the status file")
        out.writerow(row)
    print(
        f"{len(chosen)} deals: " + ", ".join(f"{s} ({u} up)" for s, u in chosen),
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
