#!/bin/sh
# The layered search (with the waste bound, on by default at 3ff0b8c) on the four
# Chameleon deals of seeds 1-1,000 that had only 10 minutes of forgetting search.
cd "$(dirname "$0")"
TMPDIR=$PWD/tmp /usr/bin/time -v ${DEMON:-/tmp/demon-3ff0b8c} batch chameleon --retry-unknown in4.csv \
    --layered --no-log --timeout 3000 --jobs 2 --max-memory 20G --csv layered-4.csv
