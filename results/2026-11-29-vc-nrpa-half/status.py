#!/usr/bin/env python3
"""Variegated Canfield seeds 1-1,000 after this folder's retries: the 206
deals unknown before (vc-unknown-206.csv, built from the reports named in
README.md), less those won here. Run from this folder."""
import csv
def rows(p):
    try:
        return list(csv.DictReader(open(p)))
    except FileNotFoundError:
        return []
before = {int(r['seed']) for r in rows('vc-unknown-206.csv')}
assert len(before) == 206, len(before)
won = set()
for p in ['vc-no-nrpa-yet-100M.csv', 'vc-quarter-tried-100M.csv']:
    for r in rows(p):
        assert r['verdict'] != 'lost', r
        if r['verdict'] == 'won':
            assert int(r['seed']) in before
            won.add(int(r['seed']))
print('unknown before: 206; won now: %d (%s)' % (len(won), ' '.join(map(str, sorted(won)))))
print('seeds 1-1,000: %d won, 1 lost, %d unknown' % (793 + len(won), 206 - len(won)))
