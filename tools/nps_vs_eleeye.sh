#!/usr/bin/env bash
# Search speed (nodes per second, one thread) of our engine against ElephantEye 3.3, measured
# in the same run on the same machine, on the two positions of the `analyze` example.
#
# Usage: tools/nps_vs_eleeye.sh [seconds per search, default 10] [rounds, default 2]
#
# ElephantEye is not a dependency of this project; the script builds it from its source:
# ELEEYE_SRC may point at a checkout of https://github.com/xqbase/eleeye (default: a clone in
# target/eleeye-src, made with git the first time; needs network once), or ELEEYE_BIN at a
# built binary. It is built like its own makefile.sh does, with g++ -O3 -march=native.
#
# Both engines count nodes the same way: one per call of the full-width search and one per
# call of the quiescence search (ElephantEye: search.cpp, `Search2.nAllNodes ++`). ElephantEye
# prints "info time <ms> nodes <n>" (the last one comes before its bestmove); we read the last `analyze` line.
# Run it on a quiet machine: both searches are single-threaded and take a core each in turn.
#
# Ours is measured twice: as it plays (the default search), and searching as ElephantEye does
# (`--off $LIKE_ELEEYE`: the features ElephantEye 3.3 does not have turned off: late-move
# reductions and pruning, futility and reverse futility pruning, internal iterative reduction,
# and the transposition table in quiescence, which ElephantEye leaves out: HASH_QUIESC is not
# defined in its build). The evaluation is our default one in both. The second figure compares
# the cost of a node like for like; the first is what the engine does in play, where the
# selective search prunes most moves before making them, so the work of a node is spread
# over fewer nodes (and the search goes twice as deep). A third figure is the default search
# with its two move-pruning features off (`--off $NO_MOVE_PRUNING`: late-move pruning and
# futility pruning, which drop moves before making them): the one setting of our search that
# reaches ElephantEye's rate, which costs about 150 Elo in play (see the README).
set -euo pipefail
secs=${1:-10}
rounds=${2:-2}
cd "$(dirname "$0")/.."
root=$(pwd)

start_fen='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
middle_fen=$(sed -n 's/^const MIDDLEGAME: &str = "\([^"]*\)";/\1/p' examples/analyze.rs)
if [ -z "$middle_fen" ]; then
  echo "could not read the middlegame FEN from examples/analyze.rs" >&2
  exit 1
fi

eleeye=${ELEEYE_BIN:-}
if [ -z "$eleeye" ]; then
  src=${ELEEYE_SRC:-$root/target/eleeye-src}
  if [ ! -d "$src/eleeye" ]; then
    git clone --depth 1 https://github.com/xqbase/eleeye "$src"
  fi
  eleeye=$root/target/eleeye-bin
  (cd "$src/eleeye" && g++ -DNDEBUG -O3 -march=native -Wno-deprecated-declarations -o "$eleeye" \
    ../base/pipe.cpp ucci.cpp pregen.cpp position.cpp genmoves.cpp hash.cpp book.cpp \
    movesort.cpp preeval.cpp evaluate.cpp search.cpp eleeye.cpp -lpthread)
fi

cargo build --release --example analyze -q
ours=$root/target/release/examples/analyze

eleeye_nps() {
  local fen=$1
  { printf 'ucci\nsetoption usebook false\nsetoption hashsize 16\nposition fen %s\ngo depth 32\n' "$fen"
    sleep "$secs"; echo stop; sleep 1; echo quit; } | "$eleeye" \
    | awk '/^info depth [0-9]+ score/ { d = $3 } /^info time/ { t = $3; n = $5 }
      END { printf "%d nodes in %d ms: %d nodes/s, depth %d", n, t, n * 1000 / t, d }'
}

LIKE_ELEEYE=lmr,late_move_pruning,futility,reverse_futility,iir,qsearch_tt
NO_MOVE_PRUNING=late_move_pruning,futility

# ours_nps NAME [analyze options...]
ours_nps() {
  local name=$1
  shift
  "$ours" --position "$name" --hash 16 --movetime $((secs * 1000)) "$@" \
    | grep -E '^[0-9]+/' | tail -n 1 \
    | awk '{ split($1, d, "/"); printf "%d nodes in %d ms: %d nodes/s, depth %d", $4, $7 * 1000, $5, d[1] }'
}

echo "load before: $(uptime)"
for round in $(seq 1 "$rounds"); do
  for name in start middlegame; do
    fen=$start_fen
    [ "$name" = middlegame ] && fen=$middle_fen
    o=$(ours_nps "$name")
    l=$(ours_nps "$name" --off "$LIKE_ELEEYE")
    p=$(ours_nps "$name" --off "$NO_MOVE_PRUNING")
    e=$(eleeye_nps "$fen")
    rate() { echo "$1" | awk '{ for (i = 1; i < NF; i++) if ($(i + 1) ~ /^nodes\/s/) print $i }'; }
    awk -v r="$round" -v n="$name" -v o="$o" -v l="$l" -v e="$e" \
      -v p="$p" -v a="$(rate "$o")" -v c="$(rate "$l")" -v q="$(rate "$p")" \
      -v b="$(rate "$e")" 'BEGIN {
      printf "round %d %s\n", r, n
      printf "  ours (as it plays):          %s   ratio %.2f\n", o, a / b
      printf "  ours (searching like EE):    %s   ratio %.2f\n", l, c / b
      printf "  ours (no move pruning):      %s   ratio %.2f\n", p, q / b
      printf "  ElephantEye:                 %s\n", e }'
  done
done
echo "load after:  $(uptime)"
