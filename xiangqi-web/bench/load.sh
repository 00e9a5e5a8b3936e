#!/usr/bin/env bash
# Load benchmark of the engine service with wrk (Debian: apt-get install wrk): engine moves at
# a small fixed node limit and legal-move requests, with 1, 4, 32 and 256 concurrent clients,
# and the trivial /healthz for comparison. Prints a Markdown table: throughput, p50/p99
# latency, answers by status (only 200 and the documented 503 are expected), peak RSS.
#
#   cargo build --release -p xiangqi-web && xiangqi-web/bench/load.sh [seconds per run]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-10}
port=${PORT:-18181}
bin=../../target/release/xiangqi-web
"$bin" --listen "127.0.0.1:$port" "${@:2}" > /tmp/xiangqi-web-load.log 2>&1 &
server=$!
trap 'kill $server' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/healthz" > /dev/null && break; sleep 0.1; done

run() { # name path body clients
  local out
  out=$(URLPATH="$2" BODY="$3" wrk -t "$(( $4 < 2 ? 1 : 2 ))" -c "$4" -d "${secs}s" --timeout 30s -s post.lua "http://127.0.0.1:$port" | grep '^RESULT')
  local rss
  rss=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
  # shellcheck disable=SC2086
  set -- "$1" "$4" $out
  printf '| %s | %s | %s | %s | %s | %s | %s | %s MiB |\n' "$1" "$2" "${4#rps=}" "${5#p50_ms=}" "${6#p99_ms=}" "${7#statuses=}" "${8#socket_errors=}" "$((rss / 1024))"
}

echo "| request | clients | requests/s | p50 ms | p99 ms | answers by status | socket errors | peak RSS |"
echo "|---|---|---|---|---|---|---|---|"
for c in 1 4 32 256; do
  run "engine move, 2000 nodes" /api/v1/move "{\"moves\":[@MOVES@],\"limits\":{\"nodes\":2000},\"book\":false}" "$c"
done
for c in 1 4 32 256; do
  run "legal moves" /api/v1/position "{\"moves\":[@MOVES@]}" "$c"
done
for c in 1 32 256; do
  run "healthz" /healthz "" "$c"
done
