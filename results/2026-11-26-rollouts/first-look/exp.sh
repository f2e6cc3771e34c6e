#!/bin/bash
# game seeds nodes label extra...
g=$1; seeds=$2; n=$3; label=$4; shift 4
/work/main/target/release/demon batch $g --seeds $seeds --max-nodes $n --jobs 2 --csv /tmp/exp-$g-$label.csv "$@" 2>&1 | grep -E '^deals|^time per' | tr '\n' ' ' | sed "s/^/$g $label: /"; echo
