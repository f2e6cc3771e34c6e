#!/usr/bin/env python3
"""Joins this run's report with the 100 M (beams, 2026-11-28) and 300 M
(2026-11-29-vc-300M) reports on the same deals: one row a deal."""
import csv, sys
def load(p):
    try:
        return {int(r['seed']): r for r in csv.DictReader(open(p))}
    except FileNotFoundError:
        return {}
here = load('vc-first-40-nrpa-100M.csv')
old = load('../2026-11-28-vc-beams-301-1000/vc-301-1000-beams-100M.csv')
big = load('../2026-11-29-vc-300M/vc-301-1000-300M.csv')
def cell(r):
    if not r:
        return ''
    return 'won at %s' % format(int(r['nodes']), ',') if r['verdict'] == 'won' else r['verdict']
print('| seed | 100 M, beams (fc4de6a) | 100 M, NRPA and beams (68f560c) | 300 M, beams (3038de1) |')
print('|---|---|---|---|')
w = [0, 0, 0]
for s in sorted(here):
    rs = [old.get(s), here.get(s), big.get(s)]
    for i, r in enumerate(rs):
        w[i] += bool(r) and r['verdict'] == 'won'
    print('| %d | %s |' % (s, ' | '.join(cell(r) for r in rs)))
print('| won | %d | %d | %d (of %d run) |' % (w[0], w[1], w[2], sum(1 for s in here if s in big)))
