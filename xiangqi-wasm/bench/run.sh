#!/usr/bin/env bash
# Installs the packed tarball into a scratch folder and runs bench.mjs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tarball="$(ls -t "$here"/../xiangqi-wasm-*.tgz | head -1)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$tarball")
echo "package: $(stat -c %s "$tarball") bytes packed (gzip); wasm $(stat -c %s "$scratch"/node_modules/xiangqi-wasm/wasm/xiangqi_wasm_bg.wasm) bytes, $(gzip -9c "$scratch"/node_modules/xiangqi-wasm/wasm/xiangqi_wasm_bg.wasm | wc -c) gzipped"
XIANGQI_WASM_DIR="$scratch" node "$here/bench.mjs"
