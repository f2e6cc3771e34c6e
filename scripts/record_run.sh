#!/usr/bin/env bash
# Records one solver run under results/: the exact command, demon's version
# (git commit), the machine, the raw per-deal CSV and its summary.
#
#   scripts/record_run.sh NAME GAME FIRST LAST TIMEOUT_S [option=value ...]
#
# e.g. scripts/record_run.sh canfield-any-1-1000 canfield 1 1000 30 group-moves=any
# The run uses the `sweep` example of demon-solver (until `demon batch`).
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1; shift
dir="results/$(date -u +%Y-%m-%d)-$name"
mkdir -p "$dir"
cargo build --release -q -p demon-solver --example sweep
cmd=(target/release/examples/sweep "$@")
{
  echo "# $name"
  echo
  echo "- command: \`${cmd[*]}\` (built with \`cargo build --release -p demon-solver --example sweep\`)"
  echo "- memory limit per deal: ${DEMON_MEM_MB:-4096} MiB"
  echo "- version: $(git rev-parse HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB RAM, $(uname -sr)"
  echo "- rustc: $(rustc --version)"
  echo
} > "$dir/README.md"
/usr/bin/time -v "${cmd[@]}" > "$dir/deals.csv" 2> "$dir/stderr.txt"
{
  echo "## Summary"
  echo
  echo '```'
  grep -v '^\s' "$dir/stderr.txt" | grep -v '^Command' || true
  grep -E 'Maximum resident|Elapsed \(wall' "$dir/stderr.txt" || true
  echo '```'
} >> "$dir/README.md"
echo "$dir"
