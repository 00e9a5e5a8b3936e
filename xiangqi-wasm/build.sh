#!/usr/bin/env bash
# Builds the npm package xiangqi-wasm: the crate for wasm32-unknown-unknown, wasm-bindgen's
# ES-module glue, the JavaScript half (js/) and the types, then `npm pack`, which leaves
# xiangqi-wasm-VERSION.tgz in this folder. Nothing is uploaded.
#
# Toolchain: a rustup toolchain with the wasm32-unknown-unknown target, or else Debian's
# (apt install rustc-web cargo-web rust-web-src rust-web-llvm lld-22), which builds the
# standard library for the target itself (-Zbuild-std). The wasm-bindgen command must be
# the exact version of the wasm-bindgen crate (Cargo.toml pins it):
#   cargo install wasm-bindgen-cli --version =0.2.130
# WASM_BINDGEN names it when it is not on PATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
target_dir="$root/target/wasm"
export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128"

if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "build.sh: rustup's toolchain with the wasm32-unknown-unknown target"
    cargo build --release -p xiangqi-wasm --target wasm32-unknown-unknown --target-dir "$target_dir" \
        --manifest-path "$root/Cargo.toml"
elif [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ]; then
    echo "build.sh: Debian's rustc-web toolchain ($(/usr/bin/rustc --version)), std built for the target"
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo build --release -p xiangqi-wasm \
        --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --target-dir "$target_dir" \
        --manifest-path "$root/Cargo.toml"
else
    echo "build.sh: no toolchain for wasm32-unknown-unknown: 'rustup target add wasm32-unknown-unknown'," >&2
    echo "or apt install rustc-web cargo-web rust-web-src rust-web-llvm lld-22" >&2
    exit 1
fi

bindgen="${WASM_BINDGEN:-wasm-bindgen}"
want="$(sed -n 's/^wasm-bindgen = "=\(.*\)"/\1/p' "$here/Cargo.toml")"
have="$("$bindgen" --version | awk '{print $2}')"
if [ "$want" != "$have" ]; then
    echo "build.sh: wasm-bindgen $have found, the crate needs $want: cargo install wasm-bindgen-cli --version =$want" >&2
    exit 1
fi

pkg="$here/pkg"
rm -rf "$pkg"
mkdir -p "$pkg/wasm"
"$bindgen" --target web --weak-refs --out-dir "$pkg/wasm" \
    "$target_dir/wasm32-unknown-unknown/release/xiangqi_wasm.wasm"
cp "$here"/js/*.js "$here"/js/*.d.ts "$here/README.md" "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$pkg/"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -1)"
sed "s/\"version\": \"0.0.0\"/\"version\": \"$version\"/" "$here/js/package.json" > "$pkg/package.json"
(cd "$here" && npm pack "$pkg" --pack-destination "$here" --silent)
ls -l "$here"/xiangqi-wasm-*.tgz
