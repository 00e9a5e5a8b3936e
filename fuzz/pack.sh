#!/usr/bin/env bash
# Writes the corpora that fuzz/run.sh unpacked (and a campaign grew) back into their archives,
# corpus/<target>.tar.xz: each minimised first (`cargo fuzz cmin`), then packed so that the
# same files give the same archive byte for byte (names sorted, times, owners and modes fixed),
# and a commit shows a change only where the corpus changed.
#
#   fuzz/pack.sh [--no-cmin] [TARGET...]     # default: every target with an unpacked corpus
#
# Then `git add fuzz/corpus/*.tar.xz`. The folders stay in target/, outside the source tree.
set -euo pipefail
cd "$(dirname "$0")"
cmin=1
if [ "${1:-}" = "--no-cmin" ]; then
    cmin=0
    shift
fi
corpora="${FUZZ_CORPUS_DIR:-../target/fuzz-corpus}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for d in "$corpora"/*/; do
        [ -d "$d" ] && targets+=("$(basename "$d")")
    done
fi
for t in "${targets[@]}"; do
    dir="$corpora/$t"
    if [ ! -d "$dir" ]; then
        echo "fuzz/pack.sh: no corpus at $dir (fuzz/run.sh unpacks it)" >&2
        exit 1
    fi
    if [ "$cmin" = 1 ]; then
        cargo +nightly fuzz cmin "$t" "$dir"
    fi
    (cd "$dir" && find . -type f | LC_ALL=C sort | sed 's|^\./||') >"$dir.list"
    tar --no-recursion --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
        --mode=a+r,u+w,go-w -C "$dir" -cf - -T "$dir.list" | xz -6 -T1 >"corpus/$t.tar.xz.new"
    rm -f "$dir.list"
    mv "corpus/$t.tar.xz.new" "corpus/$t.tar.xz"
    echo "fuzz/pack.sh: corpus/$t.tar.xz: $(tar -tJf "corpus/$t.tar.xz" | wc -l) inputs"
done
