#!/bin/sh
# Chameleon 16 by the layered search with the waste bound, saved in $CK so
# that a later sitting goes on from there (run the same command again). Run in
# session 60 with CK=/work/runs/s60/ck16, TIMEOUT=2400, DEMON=/tmp/demon-c71202a,
# from /work/runs/s60 (out and log: run16.json, run16.log).
CK=${CK:-/work/runs/s60/ck16}
/usr/bin/time -v ${DEMON:-/tmp/demon-c71202a} solve chameleon 16 --layered --checkpoint "$CK" --no-log \
    --timeout ${TIMEOUT:-2400} --max-memory 8G --format json
