#!/bin/sh
# The layered search (with the waste bound) on Chameleon 16, 60 minutes, saved if unknown.
cd "$(dirname "$0")"
TMPDIR=$PWD/tmp /usr/bin/time -v ${DEMON:-/tmp/demon-3ff0b8c} batch chameleon --retry-unknown in16.csv \
    --layered --no-log --timeout 3600 --jobs 1 --max-memory 10G --checkpoint-dir ck16 --keep-unknown --csv layered-16.csv
