#!/bin/sh
# Chameleon 518 by the layered search with the waste bound, saved in $CK so that a
# later sitting goes on from there (run the same command again). Run in session 59
# with CK=/work/runs/s59/ck518, TIMEOUT=8100, from /work/runs/s59 (out and log: run518.out, run518.log).
CK=${CK:-/work/runs/s59/ck518}
/usr/bin/time -v ${DEMON:-/tmp/demon-f4a6b18} solve chameleon 518 --layered --checkpoint "$CK" --no-log \
    --timeout ${TIMEOUT:-8100} --max-memory 10G --format json
