#!/bin/bash
# Double Easthaven 263, one of the ten deals whose rollouts found nothing
# (the ladder ran out of levels; a thousand level-2 restarts won nothing),
# solved by the exhaustive search alone (--no-rollouts --no-probes) with
# 12 GiB (MEM), 80 minutes a sitting: can a deal believed lost be proved
# lost? The search is saved to checkpoints/ (not in git; the working copy
# keeps it from session to session) when a limit stops it, and the next
# sitting goes on from there (with more memory, if memory stopped it). Run
# from the repository root:
#   DEMON=target/release/demon [MEM=20G] results/2026-11-28-de-search-alone/run.sh [SEED]
set -e
DEMON=${DEMON:-target/release/demon}
D=results/2026-11-28-de-search-alone
S=${1:-263}
mkdir -p checkpoints
n=1
while [ -e $D/double-easthaven-$S-$n.json ]; do n=$((n + 1)); done
/usr/bin/time -v -o $D/double-easthaven-$S-$n.log $DEMON solve double-easthaven $S \
    --no-rollouts --no-probes --max-memory ${MEM:-12G} --timeout 4800 --format json \
    --checkpoint checkpoints/double-easthaven-$S.ck \
    > $D/double-easthaven-$S-$n.json 2> $D/double-easthaven-$S-$n.err || true
