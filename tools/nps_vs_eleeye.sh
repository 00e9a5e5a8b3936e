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
    | awk '/^info time/ { t = $3; n = $5 } END { printf "%d nodes in %d ms: %d nodes/s", n, t, n * 1000 / t }'
}

ours_nps() {
  local name=$1
  "$ours" --position "$name" --hash 16 --movetime $((secs * 1000)) \
    | grep -E '^[0-9]+/' | tail -n 1 \
    | awk '{ printf "%d nodes in %d ms: %d nodes/s", $4, $7 * 1000, $5 }'
}

echo "load before: $(uptime)"
for round in $(seq 1 "$rounds"); do
  for name in start middlegame; do
    fen=$start_fen
    [ "$name" = middlegame ] && fen=$middle_fen
    o=$(ours_nps "$name")
    e=$(eleeye_nps "$fen")
    on=$(echo "$o" | awk '{print $(NF-1)}')
    en=$(echo "$e" | awk '{print $(NF-1)}')
    awk -v r="$round" -v n="$name" -v o="$o" -v e="$e" -v a="$on" -v b="$en" 'BEGIN {
      printf "round %d %-10s  ours: %s   ElephantEye: %s   ratio %.2f\n", r, n, o, e, a / b }'
  done
done
echo "load after:  $(uptime)"
