#!/usr/bin/env bash
# Cross-builds the engine (xiangqi-engine) and the tablebase command (xiangqi-egtb) for
# another platform, from Linux x86-64:
#
#   tools/cross.sh windows [--quick]   # target/cross/x86_64-win7-windows-gnu/release/*.exe
#   tools/cross.sh aarch64 [--quick]   # target/cross/aarch64-unknown-linux-gnu/release/*
#
# (under $CARGO_TARGET_DIR/cross when that is set).
#
# Windows is built for x86_64-win7-windows-gnu, not x86_64-pc-windows-gnu: today's standard
# library for the latter draws its random numbers from ProcessPrng in bcryptprimitives.dll,
# which Debian's Wine 8 (where CI runs the .exe) does not have, so such an .exe does not
# start there; the win7 target's std uses RtlGenRandom and older APIs, starts under Wine 8
# and also runs on Windows 7 and 8, where many xiangqi GUIs still live, as on 10 and 11. It is
# a tier-3 target (no prebuilt std): std is built for it (-Zbuild-std) with Debian's rustc-web
# toolchain (apt install rustc-web cargo-web rust-web-src rust-web-llvm) or a rustup nightly
# with rust-src, linked by MinGW-w64 (apt install gcc-mingw-w64-x86-64).
#
# aarch64 uses rustup's aarch64-unknown-linux-gnu target when it is installed, else builds
# std as above; gcc-aarch64-linux-gnu links it (and compiles zstd). Run it with qemu-aarch64
# (Debian's qemu-user): tools/cross-check.sh aarch64.
#
# --quick: no link-time optimisation and parallel code generation, for CI (the same moves and
# node counts, a somewhat slower engine); releases are built without it. --engine-only: not
# xiangqi-egtb (CI tests only the engine).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
platform="${1:-}"
shift || true
quick=0
packages=(-p xiangqi-engine -p xiangqi-egtb)
for arg in "$@"; do
    case "$arg" in
        --quick) quick=1 ;;
        --engine-only) packages=(-p xiangqi-engine) ;;
        *) echo "cross.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done
case "$platform" in
    windows) target=x86_64-win7-windows-gnu; cc=x86_64-w64-mingw32-gcc ;;
    aarch64) target=aarch64-unknown-linux-gnu; cc=aarch64-linux-gnu-gcc ;;
    *) echo "usage: tools/cross.sh windows|aarch64 [--quick] [--engine-only]" >&2; exit 2 ;;
esac
if ! command -v "$cc" >/dev/null; then
    echo "cross.sh: $cc not found: apt install $([ "$platform" = windows ] && echo gcc-mingw-w64-x86-64 || echo gcc-aarch64-linux-gnu)" >&2
    exit 1
fi
if [ "$quick" = 1 ]; then
    export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
fi
target_env="$(echo "$target" | tr a-z- A-Z_)"
export "CARGO_TARGET_${target_env}_LINKER=$cc"
export "CC_$(echo "$target" | tr - _)=$cc"
export "AR_$(echo "$target" | tr - _)=${cc%gcc}ar"
out="${CARGO_TARGET_DIR:-$root/target}/cross"
build=(build --release --locked --target "$target" --target-dir "$out"
       --manifest-path "$root/Cargo.toml" "${packages[@]}" --bins)

if rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "cross.sh: rustup's toolchain with the $target target"
    cargo "${build[@]}"
elif [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ]; then
    echo "cross.sh: Debian's rustc-web toolchain ($(/usr/bin/rustc --version)), std built for $target"
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 /usr/bin/cargo "${build[@]}" -Zbuild-std=std,panic_unwind
else
    echo "cross.sh: no toolchain for $target: apt install rustc-web cargo-web rust-web-src rust-web-llvm" >&2
    exit 1
fi
ls -l "$out/$target/release/"xiangqi-e{ngine,gtb}{,.exe} 2>/dev/null || true
