#!/usr/bin/env bash
# Builds everything a release ships into dist/ (gitignored), uploading nothing:
#
#   tools/release.sh VERSION [--quick]
#
#   dist/xiangqi-engine-VERSION-x86_64-linux.tar.gz    the engine and xiangqi-egtb, Linux x86-64
#   dist/xiangqi-engine-VERSION-aarch64-linux.tar.gz   the same for Linux on ARM (64-bit)
#   dist/xiangqi-engine-VERSION-x86_64-windows.zip     the same as .exe, Windows 7 and later
#   dist/xiangqi_rs-VERSION-*.whl                       the Python wheel (abi3, CPython 3.9+)
#   dist/xiangqi-wasm-VERSION.tgz                      the npm package
#   dist/xiangqi-web-VERSION-site.zip                  the web board as a static site
#   dist/SHA256SUMS                                    sha256sum -c SHA256SUMS checks them
#
# Each engine archive holds the binaries, README.txt (loading it in a GUI, in English and
# Chinese), README.md, the licences and THIRD-PARTY.txt (the crates built in, with their
# licence texts). VERSION must be the workspace's version (Cargo.toml): the version is
# raised and CHANGELOG.md dated first (docs/RELEASING.md). The cross builds need what
# tools/cross.sh names; the wheel needs python3 with venv (maturin comes from PyPI); the
# npm package and the site need what xiangqi-wasm/build.sh names. --quick builds without
# link-time optimisation (as CI does; the same moves, a slower engine): for trying the
# script, never for files to publish.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
version="${1:-}"
quick=()
if [ "${2:-}" = --quick ]; then
    quick=(--quick)
    export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
fi
if [ -z "$version" ] || [ $# -gt 2 ] || { [ $# = 2 ] && [ -z "${quick[*]}" ]; }; then
    echo "usage: tools/release.sh VERSION [--quick]" >&2
    exit 2
fi
workspace_version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"
if [ "$version" != "$workspace_version" ]; then
    echo "release.sh: VERSION $version is not the workspace's version $workspace_version (Cargo.toml)" >&2
    exit 1
fi
target_dir="${CARGO_TARGET_DIR:-$root/target}"
dist="$root/dist"
rm -rf "$dist"
mkdir -p "$dist"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# One engine archive: PLATFORM (the archive's suffix), TARGET (the Rust target), the folder
# with the binaries, EXE (".exe" or ""), TABLES (the default tablebase folder, as the
# platform writes it).
archive() {
    local platform="$1" target="$2" bin="$3" exe="$4" tables="$5"
    local name="xiangqi-engine-$version-$platform"
    local dir="$stage/$name"
    mkdir -p "$dir"
    cp "$bin/xiangqi-engine$exe" "$bin/xiangqi-egtb$exe" "$dir/"
    cp README.md LICENSE-MIT LICENSE-APACHE "$dir/"
    sed -e "s|@VERSION@|$version|g" -e "s|@PLATFORM@|$platform|g" \
        -e "s|@ENGINE@|xiangqi-engine$exe|g" -e "s|@EXE@|$exe|g" -e "s|@TABLES@|${tables//\\/\\\\}|g" \
        tools/release/ENGINE.txt > "$dir/README.txt"
    python3 tools/release/third_party.py "$target" "$dir/THIRD-PARTY.txt"
    if [ -n "$exe" ]; then
        # Windows users open text files in Notepad: CRLF line ends.
        for f in "$dir"/*.txt "$dir"/*.md "$dir"/LICENSE-*; do
            sed -i 's/\r*$/\r/' "$f"
        done
        (cd "$stage" && zip -qr -X "$dist/$name.zip" "$name")
    else
        tar -C "$stage" --owner=0 --group=0 --sort=name -czf "$dist/$name.tar.gz" "$name"
    fi
}

# --- Engines ------------------------------------------------------------------------------
cargo build --release --locked -p xiangqi-engine -p xiangqi-egtb --bins
archive x86_64-linux x86_64-unknown-linux-gnu "$target_dir/release" "" '~/.cache/xiangqi/egtb'
tools/cross.sh aarch64 "${quick[@]}"
archive aarch64-linux aarch64-unknown-linux-gnu \
    "$target_dir/cross/aarch64-unknown-linux-gnu/release" "" '~/.cache/xiangqi/egtb'
tools/cross.sh windows "${quick[@]}"
archive x86_64-windows x86_64-pc-windows-gnu \
    "$target_dir/cross/x86_64-win7-windows-gnu/release" .exe '%LOCALAPPDATA%\xiangqi\egtb'

# --- Python wheel -------------------------------------------------------------------------
python3 -m venv "$target_dir/release-py"
"$target_dir/release-py/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.7,<2'
"$target_dir/release-py/bin/maturin" build --release --quiet -m xiangqi-py/Cargo.toml --out "$dist"

# --- npm package and static site ----------------------------------------------------------
rm -f xiangqi-wasm/xiangqi-wasm-*.tgz
bash xiangqi-wasm/build.sh
mv "xiangqi-wasm/xiangqi-wasm-$version.tgz" "$dist/"
bash xiangqi-web/export.sh --no-build "$stage/xiangqi-web-$version-site"
(cd "$stage" && zip -qr -X "$dist/xiangqi-web-$version-site.zip" "xiangqi-web-$version-site")

(cd "$dist" && sha256sum -- * > SHA256SUMS)
echo "release.sh: dist/"
cat "$dist/SHA256SUMS"
