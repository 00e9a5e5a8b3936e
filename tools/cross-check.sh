#!/usr/bin/env bash
# Tests the cross-built engine (tools/cross.sh) where it can run here:
#
#   tools/cross-check.sh windows   # under Wine (apt install wine)
#   tools/cross-check.sh aarch64   # under qemu-aarch64 (apt install qemu-user)
#
# Windows: the fixed bench signature (node count) equal to the Linux build's; UCI, UCCI and
# CECP sessions over pipes with CRLF input (tools/cross/sessions.py): the starter tables made
# under %LOCALAPPDATA% on a first run and waited for by isready, the tables opened from a
# Windows path with spaces, the end of input; then a short match of the .exe against the
# Linux build through the match example (both over pipes, fixed nodes): any forfeit (a
# crash, an illegal move, no move) fails.
# aarch64: perft from three positions and the bench signature equal to the Linux build's,
# the net's evaluations equal (the portable code path against x86-64's AVX2), and the same
# protocol sessions.
#
# The Linux build to compare with: HOST_BIN (a folder with xiangqi-engine and
# examples/match), by default target/release; build it with
#   cargo build --release -p xiangqi-engine && cargo build --release --example match
# BENCH_DEPTH (default 12, that of `bench` and its signature), MATCH_GAMES (default 4) and
# MATCH_NODES (nodes a move, default 20000) make the run shorter or longer.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
platform="${1:-}"
host="${HOST_BIN:-$target_dir/release}"
depth="${BENCH_DEPTH:-12}"
games="${MATCH_GAMES:-4}"
match_nodes="${MATCH_NODES:-20000}"
for f in "$host/xiangqi-engine" "$host/examples/match"; do
    if [ ! -x "$f" ]; then
        echo "cross-check.sh: no $f (set HOST_BIN, or build it: see the head of this script)" >&2
        exit 1
    fi
done
work="$(mktemp -d)"
# Wine's server outlives the programs it ran by a few seconds: ended before the folder goes.
trap 'if [ -n "${WINEPREFIX:-}" ]; then wineserver -k 2>/dev/null || true; fi; rm -rf "$work"' EXIT
fail() { echo "cross-check.sh: FAILED: $*" >&2; exit 1; }
# The Linux build's tables go to a folder of this run, not the user's cache; the engine under
# test finds its default folder as on a first run (the variable would override it).
export XIANGQI_EGTB_DIR="$work/host-tables"

# The node count of `bench DEPTH` ("Nodes searched  : N").
signature() { "$@" bench "$depth" | tr -d '\r' | sed -n 's/^Nodes searched *: *//p'; }

case "$platform" in
windows)
    command -v wine >/dev/null || fail "no wine (apt install wine)"
    exe="$target_dir/cross/x86_64-win7-windows-gnu/release/xiangqi-engine.exe"
    [ -f "$exe" ] || fail "no $exe (tools/cross.sh windows)"
    export WINEPREFIX="$work/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
    wine wineboot --init >/dev/null 2>&1 || true
    run=(env -u XIANGQI_EGTB_DIR wine "$exe")
    # Tables under a Windows path with a space: C:\xiangqi tables\egtb.
    dir="$WINEPREFIX/drive_c/xiangqi tables/egtb"
    tables_path='C:\xiangqi tables\egtb'
    windows=(--windows)
    ;;
aarch64)
    command -v qemu-aarch64 >/dev/null || fail "no qemu-aarch64 (apt install qemu-user)"
    exe="$target_dir/cross/aarch64-unknown-linux-gnu/release/xiangqi-engine"
    [ -f "$exe" ] || fail "no $exe (tools/cross.sh aarch64)"
    export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
    run=(env -u XIANGQI_EGTB_DIR qemu-aarch64 "$exe")
    dir="$work/xiangqi tables/egtb"
    tables_path="$dir"
    windows=()
    # Each run's default tablebase folder: fresh, as on a first run.
    export XDG_CACHE_HOME="$work/cache"
    ;;
*)
    echo "usage: tools/cross-check.sh windows|aarch64" >&2
    exit 2
    ;;
esac

echo "cross-check.sh: $("${run[@]}" uci </dev/null | tr -d '\r' | sed -n 's/^id name //p') on $platform"

# --- bench (and perft) against the Linux build ----------------------------------------------
want="$(signature "$host/xiangqi-engine")"
got="$(signature "${run[@]}")"
echo "bench $depth signature: linux x86-64 $want, $platform $got"
[ -n "$want" ] && [ "$want" = "$got" ] || fail "bench signature $got, expected $want"
for spec in "startpos|4" "fen r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1|3" \
    "fen 1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1|3"; do
    pos="${spec%|*}" d="${spec##*|}"
    a="$(printf 'position %s\ngo perft %s\nquit\n' "$pos" "$d" | "$host/xiangqi-engine" | sed -n 's/^Nodes searched: //p')"
    b="$(printf 'position %s\ngo perft %s\nquit\n' "$pos" "$d" | "${run[@]}" | tr -d '\r' | sed -n 's/^Nodes searched: //p')"
    echo "perft $d ${pos:0:24}...: linux x86-64 $a, $platform $b"
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "perft $d of $pos: $b, expected $a"
done

# --- the net's evaluations (the SIMD path on x86-64, the portable one elsewhere) -------------
a="$(python3 "$root/tools/cross/sessions.py" --fingerprint -- "$host/xiangqi-engine")"
b="$(python3 "$root/tools/cross/sessions.py" "${windows[@]}" --fingerprint -- "${run[@]}")"
echo "$a"
[ -n "$a" ] && [ "$a" = "$b" ] || fail "the net's evaluations differ: $b"
echo "NNUE evaluations and depth-7 searches: equal"

# --- protocol sessions --------------------------------------------------------------------
XIANGQI_EGTB_DIR="$dir" "$host/xiangqi-engine" >/dev/null <<EOF
isready
quit
EOF
[ -f "$dir/krkaabb.xqtb" ] || fail "the starter set was not made in $dir"
if [ "$platform" = windows ]; then
    # The default folder as on a first run (the runs above may have filled it): the starter
    # set is generated under %LOCALAPPDATA% and isready waits for it.
    rm -rf "$WINEPREFIX"/drive_c/users/*/AppData/Local/xiangqi
    first_run=(--first-run)
else
    # Under QEMU generating the starter set takes minutes (emulated: ten times slower than
    # native), past isready's patience: the Linux build's tables (the same files) stand in.
    rm -rf "$XDG_CACHE_HOME/xiangqi"
    mkdir -p "$XDG_CACHE_HOME/xiangqi"
    cp -r "$dir" "$XDG_CACHE_HOME/xiangqi/egtb"
    first_run=()
fi
python3 "$root/tools/cross/sessions.py" "${windows[@]}" "${first_run[@]}" \
    --tables-path "$tables_path" -- "${run[@]}"

# --- xiangqi-egtb.exe: a table generated into a Windows path, equal to the Linux build's ---
egtb_exe="${exe%xiangqi-engine.exe}xiangqi-egtb.exe"
if [ "$platform" = windows ] && [ -f "$egtb_exe" ]; then
    mine="$WINEPREFIX/drive_c/xiangqi tables/made here"
    wine "$egtb_exe" generate -j 2 --dir 'C:\xiangqi tables\made here' krkaa >/dev/null 2>&1 ||
        fail "xiangqi-egtb.exe generate"
    cmp "$mine/krkaa.xqtb" "$dir/krkaa.xqtb" || fail "krkaa.xqtb differs from the Linux build's"
    probed="$(echo "3ak4/4a4/9/9/9/9/9/9/9/R3K4 w - - 0 1" |
        wine "$egtb_exe" probe --dir 'C:\xiangqi tables\made here' 2>/dev/null | tr -d '\r')"
    echo "xiangqi-egtb.exe: krkaa generated equal to the Linux build's; probe: $probed"
    echo "$probed" | grep -q win || fail "xiangqi-egtb.exe probe: $probed"
elif [ "$platform" = windows ]; then
    echo "cross-check.sh: skipped xiangqi-egtb.exe: not built (tools/cross.sh windows without --engine-only)"
fi

# --- a short match against the Linux build (Windows) ---------------------------------------
if [ "$platform" = windows ]; then
    out="$("$host/examples/match" --games "$games" --nodes "$match_nodes" --max-plies 200 \
        --engine "name=windows,cmd=$(command -v env),arg=-u,arg=XIANGQI_EGTB_DIR,arg=$(command -v wine),arg=$exe" \
        --engine "name=linux,cmd=$host/xiangqi-engine" 2>&1)" || fail "the match: $out"
    echo "$out" | grep -E '^(Results|Score)' || true
    if echo "$out" | grep -E 'failed:|loses on time|made no move|illegal move'; then
        fail "a game ended in a forfeit"
    fi
    echo "$out" | grep -q "^Score of windows vs linux" || fail "no match result: $out"
fi
echo "cross-check.sh: $platform passed"
