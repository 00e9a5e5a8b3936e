#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) on its corpus, one after the other, and
# fails on any finding (a crash, a failed check, a timeout over 10 s, more than 2 GB of
# memory); libFuzzer leaves the input that found it in artifacts/<target>/.
#
# The corpora are committed as one archive a target, corpus/<target>.tar.xz (thousands of
# small files would flood the source tree); each is unpacked into target/fuzz-corpus/<target>/
# (at the repository's root, or $FUZZ_CORPUS_DIR/<target>/) before its target runs. New inputs
# that reach new code go there; fuzz/pack.sh minimises that folder and writes the archive back.
# SECONDS 0 replays the corpora only, fuzzing nothing new: a run that fails on a regression,
# never on a finding that chance brings to one run and not another.
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# It needs a nightly toolchain (rustup's, for the sanitizer runtime) and cargo-fuzz
# (`cargo install cargo-fuzz`). Without them it says what is missing and exits 0: a machine
# without nightly cannot fuzz, and that is no failure of the code.
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-20}"
shift || true
missing=""
if ! cargo +nightly --version >/dev/null 2>&1; then
    missing="a nightly toolchain (rustup toolchain install nightly)"
elif ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    missing="cargo-fuzz (cargo install cargo-fuzz)"
fi
if [ -n "$missing" ]; then
    echo "SKIPPED the fuzz run: it needs $missing." >&2
    exit 0
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
corpora="${FUZZ_CORPUS_DIR:-../target/fuzz-corpus}"
# Targets run side by side, FUZZ_JOBS at a time (default: one per core), each on one core as
# libFuzzer runs: the same seconds of fuzzing per target, in half the time on two cores.
jobs="${FUZZ_JOBS:-$(nproc)}"
cargo +nightly fuzz build
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# One target: unpack its corpus, fuzz (or replay), leave the log and the exit status in $logs.
fuzz_one() {
    local t="$1" dir="$corpora/$1" rc=0 limit
    mkdir -p "$dir"
    # Unpacked over what is there: inputs a longer local run added stay until pack.sh.
    if [ -f "corpus/$t.tar.xz" ]; then
        tar -xJf "corpus/$t.tar.xz" -C "$dir"
    fi
    if [ "$secs" = 0 ]; then
        limit=(-runs=0)
    else
        limit=(-max_total_time="$secs")
    fi
    cargo +nightly fuzz run "$t" "$dir" -- "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$logs/$t.log" 2>&1 || rc=$?
    # Renamed into place, so that the loop below never reads a half-written status.
    echo "$rc" >"$logs/$t.rc.part"
    mv "$logs/$t.rc.part" "$logs/$t.rc"
}

# What a finished target reports: its summary (INITED: the edges (cov) the corpus reaches,
# the figure fuzz/README.md tabulates), or on a finding the log's tail and a failure.
report() {
    local t="$1" rc
    rc="$(cat "$logs/$t.rc")"
    echo "fuzz/run.sh: $t, ${secs} s (0: the corpus only), corpus $corpora/$t"
    grep -E "^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" "$logs/$t.log" || true
    if [ "$rc" != 0 ]; then
        tail -40 "$logs/$t.log" >&2
        echo "fuzz/run.sh: $t found a failure; the input is in fuzz/artifacts/$t/" >&2
        return 1
    fi
}

# Start targets while fewer than $jobs run; report each in the targets' order once done, and
# stop at the first failure (the targets still running are waited for, not killed, so their
# artifacts are whole).
next=0
reported=0
failed=0
while [ "$reported" -lt ${#targets[@]} ]; do
    while [ "$failed" = 0 ] && [ "$next" -lt ${#targets[@]} ] \
        && [ "$((next - reported))" -lt "$jobs" ]; do
        fuzz_one "${targets[$next]}" &
        next=$((next + 1))
    done
    t="${targets[$reported]}"
    while [ ! -f "$logs/$t.rc" ]; do
        # No job left running and still no status: the target's job died before it (a
        # corpus that would not unpack, say).
        if [ -z "$(jobs -pr)" ] && [ ! -f "$logs/$t.rc" ]; then
            echo "fuzz/run.sh: $t stopped before its fuzzer ran (its log: above)" >&2
            echo 1 >"$logs/$t.rc"
            touch "$logs/$t.log"
        else
            wait -n || true
        fi
    done
    report "$t" || failed=1
    reported=$((reported + 1))
    if [ "$failed" = 1 ]; then
        wait
        exit 1
    fi
done
