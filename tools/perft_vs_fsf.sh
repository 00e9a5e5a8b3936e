#!/usr/bin/env bash
# Perft speed of xiangqi-core against Fairy-Stockfish (Debian package `fairy-stockfish`),
# measured in the same run on the same machine. Usage: tools/perft_vs_fsf.sh [depth]
set -euo pipefail
depth=${1:-5}
fsf=${FSF:-/usr/games/fairy-stockfish}
cd "$(dirname "$0")/.."
cargo build --release --example perft -q
ours_line=$(./target/release/examples/perft "$depth" | tail -n 1)
echo "xiangqi-core: $ours_line"
start=$(date +%s%N)
fsf_nodes=$(printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft %s\nquit\n' "$depth" \
  | "$fsf" | awk '/Nodes searched/ {print $3}')
end=$(date +%s%N)
fsf_ms=$(( (end - start) / 1000000 ))
fsf_nps=$(( fsf_nodes * 1000 / (fsf_ms > 0 ? fsf_ms : 1) ))
echo "fairy-stockfish: nodes $fsf_nodes time $fsf_ms ms nps $fsf_nps (includes start-up)"
ours_nps=$(echo "$ours_line" | awk '{print $NF}')
awk -v a="$ours_nps" -v b="$fsf_nps" 'BEGIN { printf "ratio xiangqi-core / fairy-stockfish: %.2f\n", a / b }'
