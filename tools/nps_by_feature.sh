#!/usr/bin/env bash
# Where the node rate goes: the default search against the same search with one feature (or a
# `+`-joined set of features) turned off, nodes per second and depth reached on the two
# positions of the `analyze` example, one thread, 16 MiB, a fixed number of nodes each.
#
# Usage: tools/nps_by_feature.sh [nodes per search, default 6000000] [rounds, default 2]
#        [features, default: each pruning and table feature, then sets of them]
#
# A fixed node count gives every run the same tree (the search is deterministic on one
# thread), so only the time varies. Runs alternate feature by feature, round by round, and the
# table prints each run's rate; run it on a quiet machine. Features are the names of
# `Params::set` (see `analyze --off`).
set -euo pipefail
nodes=${1:-6000000}
rounds=${2:-2}
default_features="none late_move_pruning futility reverse_futility lmr null_move iir see qsearch_tt
late_move_pruning+futility late_move_pruning+futility+qsearch_tt"
features=${3:-$default_features}
cd "$(dirname "$0")/.."
cargo build --release --example analyze -q
ours=target/release/examples/analyze

echo "load before: $(uptime)"
printf '%-45s %-11s %5s %12s\n' "feature off" position depth "nodes/s"
for round in $(seq 1 "$rounds"); do
  for f in $features; do
    for name in start middlegame; do
      if [ "$f" = none ]; then off=(); else off=(--off "${f//+/,}"); fi
      "$ours" --position "$name" --hash 16 --nodes "$nodes" "${off[@]}" \
        | grep -E '^[0-9]+/' | tail -n 1 \
        | awk -v f="$f" -v n="$name" '{ split($1, d, "/"); printf "%-45s %-11s %5d %12d\n", f, n, d[1], $5 }'
    done
  done
done
echo "load after:  $(uptime)"
