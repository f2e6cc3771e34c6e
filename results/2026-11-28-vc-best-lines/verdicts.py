#!/usr/bin/env python3
"""Joins the restarts' best lines (the `nested` example's output) with each
deal's verdict so far, from a first report and the reports that retried
its unknown deals (later reports win).

usage: verdicts.py SURVEY.txt REPORT.csv [RETRIED.csv ...]
Prints a CSV: seed, verdict, won_by_restarts_in_survey, cards_up,
reserve_left, talon_left; then a summary on stderr.
"""
import csv
import re
import sys
from statistics import median

survey, first, *retried = sys.argv[1:]
verdict = {}
for path in [first, *retried]:
    with open(path) as f:
        for row in csv.DictReader(f):
            seed = int(row["seed"])
            if path == first or row["verdict"] != "unknown":
                verdict[seed] = row["verdict"]
won_line = re.compile(r"^seed (\d+): Some\(\d+\) moves")
best_line = re.compile(
    r"^seed (\d+): best line \d+ steps, value -?\d+, (\d+) cards up, (\d+) left in the reserve, (\d+) in the stock"
)
rows = {}
for line in open(survey):
    if m := won_line.match(line):
        rows[int(m[1])] = ("yes", "", "", "")
    elif m := best_line.match(line):
        rows[int(m[1])] = ("no", int(m[2]), int(m[3]), int(m[4]))
w = csv.writer(sys.stdout)
w.writerow(["seed", "verdict", "won_by_restarts", "cards_up", "reserve_left", "talon_left"])
groups = {}
for seed in sorted(rows):
    v = verdict.get(seed, "?")
    w.writerow([seed, v, *rows[seed]])
    if rows[seed][0] == "no":
        groups.setdefault(v, []).append(rows[seed][1])
won_in_survey = sum(1 for r in rows.values() if r[0] == "yes")
print(f"{len(rows)} deals; the restarts won {won_in_survey} in the survey", file=sys.stderr)
for v, ups in sorted(groups.items()):
    ups.sort()
    print(
        f"not won in the survey, verdict {v}: {len(ups)} deals; cards up: min {ups[0]}, median {median(ups)}, max {ups[-1]}; "
        f">= 80: {sum(u >= 80 for u in ups)}, < 70: {sum(u < 70 for u in ups)}",
        file=sys.stderr,
    )
