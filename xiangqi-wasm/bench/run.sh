#!/usr/bin/env bash
# The package's benchmark: installs the packed tarball (build.sh makes it) and ffish-es6 from
# npm into a scratch folder, runs the native peer (examples/native_peer.rs) and then bench.mjs
# in Node on the same machine, one after the other, and prints the ratios and the sizes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
depth="${1:-18}"
tarball="$(ls -t "$here"/../xiangqi-wasm-*.tgz | head -1)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$tarball" ffish-es6@0.7.10)
pkg="$scratch/node_modules/xiangqi-wasm"
wasm="$pkg/wasm/xiangqi_wasm_bg.wasm"
js_gz=$(cat "$pkg"/*.js "$pkg"/wasm/*.js | gzip -9 | wc -c)
echo "package: $(stat -c %s "$tarball") bytes packed (npm pack's gzip); wasm $(stat -c %s "$wasm") bytes, $(gzip -9c "$wasm" | wc -c) gzipped; its JavaScript $js_gz bytes gzipped"
epd="$root/xiangqi-core/tests/data/perft.epd"
cargo build --quiet --release -p xiangqi-wasm --example native_peer
native="$("$root/target/release/examples/native_peer" "$epd" "$depth")"
XIANGQI_WASM_DIR="$scratch" XIANGQI_NATIVE="$native" XIANGQI_EPD="$epd" XIANGQI_SEARCH_DEPTH="$depth" \
    node "$here/bench.mjs"
