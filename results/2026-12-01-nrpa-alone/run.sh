#!/bin/sh
# NRPA alone (the `nrpa` example: GAME LEVEL MAX_MOVES SEED...; the random
# stream of each deal is its seed unless RNG= is set; ITER= sets the
# searches of the level below that each level runs), as recorded in
# README.md. Build with
#   cargo build --release -p demon-solver --example nrpa
# and set NRPA to the binary (target/release/examples/nrpa).
cd "$(dirname "$0")"
LATE="1 37 50 54 57 100 134 140 164 168 176 187 191 206 222 230 236 243 249 265 270 279 308 309 312 313 316 325 327 339 340 346 348 354 374 381 382 394 402 414"
case $1 in
  superior) "$NRPA" superior-canfield 2 20000000 339 500 766 > superior-20M.txt ;;
  rng7) RNG=7 "$NRPA" variegated-canfield 2 5000000 $LATE > late40-rng7.txt ;;
  iter50) ITER=50 "$NRPA" variegated-canfield 2 5000000 $LATE > late40-iter50.txt ;;
esac
