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
cargo +nightly fuzz build
for t in "${targets[@]}"; do
    dir="$corpora/$t"
    mkdir -p "$dir"
    # Unpacked over what is there: inputs a longer local run added stay until pack.sh.
    if [ -f "corpus/$t.tar.xz" ]; then
        tar -xJf "corpus/$t.tar.xz" -C "$dir"
    fi
    echo "fuzz/run.sh: $t, ${secs} s (0: the corpus only), corpus $dir"
    log="$(mktemp)"
    rc=0
    if [ "$secs" = 0 ]; then
        limit=(-runs=0)
    else
        limit=(-max_total_time="$secs")
    fi
    cargo +nightly fuzz run "$t" "$dir" -- "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1 || rc=$?
    # INITED: the edges (cov) the corpus reaches, the figure fuzz/README.md tabulates.
    grep -E "^(#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)" "$log" || true
    if [ "$rc" -ne 0 ]; then
        tail -40 "$log" >&2
        rm -f "$log"
        echo "fuzz/run.sh: $t found a failure; the input is in fuzz/artifacts/$t/" >&2
        exit 1
    fi
    rm -f "$log"
done
