#!/bin/bash
# usage: restrict.sh NODES OUT ; runs 21 DE unknowns with restricted safe moves, DFS alone
N=$1; OUT=$2
for s in 43 61 72 90 119 124 182 185 214 263 299 379 422 441 506 567 589 819 845 894 969; do echo $s; done | \
xargs -P 2 -I{} sh -c "DEMON_EXP_RESTRICT=1 /tmp/demon-restrict solve double-easthaven {} --max-nodes $N --max-memory 4G --no-rollouts --no-beams --no-nrpa --no-tails --no-probes --no-relaxation --format json > $OUT.{}.json 2>&1; echo {} \$(grep -o '\"verdict\": *\"[a-z]*\"' $OUT.{}.json)"
