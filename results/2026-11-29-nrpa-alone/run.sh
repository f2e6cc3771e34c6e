#!/bin/sh
# NRPA alone (the `nrpa` example: GAME LEVEL MAX_MOVES SEED...; the random
# stream of each deal is its seed unless RNG= is set), on Variegated
# Canfield deals, as recorded in README.md. Build with
#   cargo build --release -p demon-solver --example nrpa
# and set NRPA to the binary (target/release/examples/nrpa).
cd "$(dirname "$0")"
HARD="302 315 317 326 336 350 359 363 364 369 372 387 393 399 400 408 435 436"
LATE="1 37 50 54 57 100 134 140 164 168 176 187 191 206 222 230 236 243 249 265 270 279 308 309 312 313 316 325 327 339 340 346 348 354 374 381 382 394 402 414"
case $1 in
  hard-20M) "$NRPA" variegated-canfield 2 20000000 301 $HARD > nrpa-hard-20M.txt ;;
  hard-L3) "$NRPA" variegated-canfield 3 60000000 $HARD > nrpa-hard-L3-60M.txt ;;
  hard-200M) "$NRPA" variegated-canfield 2 200000000 $HARD > nrpa-hard-200M.txt ;;
  stab1) "$NRPA" variegated-canfield 2 5000000 $LATE > stab1.txt ;;
  stab4) STAB=4 "$NRPA" variegated-canfield 2 5000000 $LATE > stab4.txt ;;
esac
