#!/usr/bin/env bash
# The differential test of the repetition judge against Fairy-Stockfish (pyffish) and
# cchess, end to end: a virtual environment with both (tools/repetition/.venv, ignored),
# the two Rust examples, a set of cycles, and the comparison (docs/REPETITION.md).
#
#   tools/repetition/run.sh [PER_CLASS [GAMES]] [-- DIFF_ARGS...]
#
# PER_CLASS cycles of each class (default 1000; the full run is 34000 with
# GAMES=/path/to/master_games_iccs.txt). GAMES: master games, `result<TAB>ICCS moves` per
# line (default the repo's sample). Env: PROFILE (cargo profile, default release; CI uses
# test to reuse its build), SEED (default 18), NODES (engine nodes per move, default 2000),
# OUT (folder for the cycles and the disagreements, default target/repetition), CYCLES (a
# file of cycles to judge instead of generating them: CI judges the pinned sample
# tools/repetition/ci-cycles.tsv, so that a change of the search, which plays the self-play
# class, does not change what CI tests).
set -euo pipefail
cd "$(dirname "$0")/../.."
PER_CLASS=1000
GAMES=xiangqi-eval/tests/data/master_sample.txt
if [ $# -gt 0 ] && [ "$1" != "--" ]; then PER_CLASS=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != "--" ]; then GAMES=$1; shift; fi
if [ "${1:-}" = "--" ]; then shift; fi
PROFILE=${PROFILE:-release}
OUT=${OUT:-target/repetition}
VENV=tools/repetition/.venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q --disable-pip-version-check pyffish==0.0.90 cchess==1.25.5
cargo build -q --profile "$PROFILE" -p xiangqi-core --example repetition_judge \
    -p xiangqi-search --example repetition_cycles
case "$PROFILE" in
    dev|test) BIN=target/debug/examples ;;
    *) BIN=target/$PROFILE/examples ;;
esac
mkdir -p "$OUT"
if [ -n "${CYCLES:-}" ]; then
    cp "$CYCLES" "$OUT/cycles.tsv"
else
    "$BIN/repetition_cycles" --per-class "$PER_CLASS" --games "$GAMES" --seed "${SEED:-18}" \
        --nodes "${NODES:-2000}" > "$OUT/cycles.tsv"
fi
"$VENV/bin/python" tools/repetition/diff.py "$OUT/cycles.tsv" \
    --judge "$BIN/repetition_judge" --examples "$OUT/disagreements.tsv" "$@"
