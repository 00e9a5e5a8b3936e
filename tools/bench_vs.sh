#!/usr/bin/env bash
# Time-to-depth and node rate of two engine builds on `bench`'s ten positions, alternating
# run by run so that both see the same machine: e.g. the search before and after a change.
#
# Usage: tools/bench_vs.sh OLD_ENGINE NEW_ENGINE [depth, default 14] [rounds, default 3]
#
# `bench` searches each position from a cleared searcher, one thread, 16 MiB, with the
# hand-written evaluator (so the figure is the search's, whatever net is embedded); its node
# count is deterministic, the time is not: run it on a quiet machine (load average below 1).
set -euo pipefail
old=$1 new=$2 depth=${3:-14} rounds=${4:-3}
echo "load before: $(uptime)"
printf '%-8s %6s %12s %10s %12s\n' build round nodes "time ms" "nodes/s"
for round in $(seq 1 "$rounds"); do
  for which in old new; do
    bin=$old; [ "$which" = new ] && bin=$new
    "$bin" bench "$depth" | awk -v w="$which" -v r="$round" '
      /^Total time/ { t = $NF } /^Nodes searched/ { n = $NF } /^Nodes\/second/ { s = $NF }
      END { printf "%-8s %6d %12d %10d %12d\n", w, r, n, t, s }'
  done
done
echo "load after:  $(uptime)"
