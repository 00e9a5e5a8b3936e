#!/usr/bin/env bash
# Installs the package from the tarball that build.sh packed into a scratch folder, as a
# user would, and runs Node's test runner over it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tarball="$(ls -t "$here"/../xiangqi-wasm-*.tgz | head -1)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm init -y >/dev/null && npm install --no-audit --no-fund --silent "$tarball")
XIANGQI_WASM_DIR="$scratch" node --test "$here"/*.test.mjs
