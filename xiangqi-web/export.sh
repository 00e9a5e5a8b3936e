#!/usr/bin/env bash
# Writes the web board as a static site into DIR: the page's own files (the same ones the
# server embeds) and the library compiled to WebAssembly, which answers the page's API
# requests in the browser. Any static file server or host serves DIR as it is (no server
# program, no special headers):
#
#   xiangqi-web/export.sh site && python3 -m http.server --directory site
#
# It builds the WebAssembly first with xiangqi-wasm/build.sh (see there for the toolchain);
# --no-build uses the last build (xiangqi-wasm/pkg) instead.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
build=1
out=""
for arg in "$@"; do
    case "$arg" in
        --no-build) build=0 ;;
        -*) echo "export.sh: unknown option $arg" >&2; exit 2 ;;
        *) out="$arg" ;;
    esac
done
if [ -z "$out" ]; then
    echo "usage: xiangqi-web/export.sh [--no-build] DIR" >&2
    exit 2
fi
if [ "$build" = 1 ]; then
    bash "$root/xiangqi-wasm/build.sh"
fi
wasm="$root/xiangqi-wasm/pkg/wasm"
if [ ! -f "$wasm/xiangqi_wasm_bg.wasm" ]; then
    echo "export.sh: no WebAssembly build in $wasm: run without --no-build" >&2
    exit 1
fi

mkdir -p "$out"
rm -rf "$out/assets" "$out/index.html" "$out/sw.js"
mkdir -p "$out/assets/wasm"
cp "$here"/static/*.js "$here"/static/*.css "$here"/static/*.svg "$out/assets/"
# The service worker (offline after one visit) serves the whole site from beside the page.
mv "$out/assets/sw.js" "$out/sw.js"
cp "$wasm/xiangqi_wasm.js" "$wasm/xiangqi_wasm_bg.wasm" "$out/assets/wasm/"
# The one difference from the served page: it answers its own requests.
sed 's/<html lang="en">/<html lang="en" data-backend="wasm">/' "$here/static/index.html" > "$out/index.html"
grep -q 'data-backend="wasm"' "$out/index.html" || {
    echo "export.sh: index.html has no <html lang=\"en\"> to mark" >&2
    exit 1
}
echo "export.sh: the static site is in $out ($(du -sh "$out" | cut -f1))"
