#!/usr/bin/env python3
"""Variegated Canfield seeds 1-1,000 after this session's retries: the 221
deals unknown before (seeds 1-300: unknown at 80 M nodes both with and
without the beams; 301-1,000: unknown at 100 M with the beams), less
those any retry of this session won. Run from this folder."""
import csv
def rows(p):
    try:
        return list(csv.DictReader(open(p)))
    except FileNotFoundError:
        return []
before = {int(r['seed']) for r in rows('vc-1-300-unknown-80M.csv')}
before |= {int(r['seed']) for r in rows('../2026-11-29-vc-300M/vc-301-1000-unknown-100M.csv')}
won = {}
for p in ['vc-1-300-nrpa-100M.csv', '../2026-11-29-vc-300M/vc-301-1000-300M.csv',
          '../2026-11-29-vc-nrpa/vc-first-40-nrpa-100M.csv']:
    for r in rows(p):
        s = int(r['seed'])
        if r['verdict'] == 'won' and s in before:
            won.setdefault(s, []).append(p.split('/')[-1])
        assert r['verdict'] != 'lost', r
assert len(before) == 221, len(before)
print('unknown before: %d; won now: %d (%s)' % (len(before), len(won), ' '.join(map(str, sorted(won)))))
print('seeds 1-1,000: %d won, 1 lost, %d unknown' % (778 + len(won), 221 - len(won)))
