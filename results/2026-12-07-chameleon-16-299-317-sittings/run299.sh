#!/bin/sh
# Chameleon 299 by the layered search with the waste bound, in 12 GiB (its
# heavy levels outgrew a 10 GiB table before), saved in $CK so that a later
# sitting goes on from there (run the same command again). Run in session 61
# with CK=/work/runs/s61/ck299, TIMEOUT=5900, DEMON=/tmp/demon-c71202a, from
# /work/runs/s61 (out and log: run299.json, run299.log), beside 317's sitting.
CK=${CK:-/work/runs/s61/ck299}
/usr/bin/time -v ${DEMON:-/tmp/demon-c71202a} solve chameleon 299 --layered --checkpoint "$CK" --no-log \
    --timeout ${TIMEOUT:-5900} --max-memory ${MEM:-12G} --format json
