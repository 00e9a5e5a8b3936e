#!/usr/bin/env bash
# Perft speed of xiangqi-core against Pikafish's `go perft`, in the same run on the same
# machine, alternating, REPS times: a ratio that holds on any machine, where a leaves-per-second
# figure holds only on the one it was measured on. Pikafish is a measuring instrument, not part
# of the project: give the path of a build (../shared/anchors/README.md says where one is).
#
#   tools/perft_vs_pikafish.sh PIKAFISH [DEPTH (5)] [REPS (7)]
#
# Each side is timed by its CPU time (user + system), which a machine shared with other work
# disturbs far less than wall time (shown too); Pikafish's start-up, timed as a `go perft 1`
# run after each, is taken off its times. Both count leaves in bulk at the last ply.
set -euo pipefail
pf=${1:?usage: tools/perft_vs_pikafish.sh PIKAFISH [DEPTH] [REPS]}
depth=${2:-5}
reps=${3:-7}
cd "$(dirname "$0")/.."
cargo build --release --example perft -q
ours="${CARGO_TARGET_DIR:-target}/release/examples/perft"
TIMEFORMAT='%R %U %S'
time_ours() { { time "$ours" "$depth" >/dev/null; } 2>&1; }
time_pf() { { time (printf 'uci\nposition startpos\ngo perft %s\nquit\n' "$1" | "$pf" >/dev/null); } 2>&1; }
nodes=$("$ours" "$depth" | tail -n 1 | awk '{print $2}')
pf_nodes=$(printf 'uci\nposition startpos\ngo perft %s\nquit\n' "$depth" | "$pf" | awk '/Nodes searched/ {print $3}')
if [ "$nodes" != "$pf_nodes" ]; then
    echo "perft $depth: xiangqi-core counts $nodes, Pikafish $pf_nodes" >&2
    exit 1
fi
echo "perft $depth from the start: $nodes leaves"
ratios=()
for i in $(seq "$reps"); do
    read -r ow ou os < <(time_ours)
    read -r pw pu ps < <(time_pf "$depth")
    read -r zw zu zs < <(time_pf 1)
    line=$(awk -v n="$nodes" -v ow="$ow" -v oc="$(awk "BEGIN{print $ou+$os}")" -v pw="$pw" \
        -v pc="$(awk "BEGIN{print $pu+$ps}")" -v zw="$zw" -v zc="$(awk "BEGIN{print $zu+$zs}")" 'BEGIN {
        printf "%.2f xiangqi-core %.1f M leaves/s CPU (%.1f wall), pikafish %.1f M/s CPU (%.1f wall)",
            (pc - zc) / oc, n / oc / 1e6, n / ow / 1e6, n / (pc - zc) / 1e6, n / (pw - zw) / 1e6 }')
    ratios+=("${line%% *}")
    echo "run $i: ratio ${line}"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ r[NR] = $1 } END {
    printf "ratio xiangqi-core / pikafish (CPU time), median of %d: %.2f\n", NR, r[int((NR + 1) / 2)] }'
