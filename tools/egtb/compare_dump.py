#!/usr/bin/env python3
"""Compare a text dump of another generator's table with ours, position by position.

The dump has one position a line: `FEN<TAB>VALUE[<TAB>NOTE...]`, VALUE one of `win N`,
`loss N`, `draw`, `win rule`, `loss rule`: N the distance to mate in plies for the side to
move, `rule` a value that the other generator decided by a perpetual-check (or chase) rule
rather than by mate (FelicityEgtb's values, dumped with its own probing code outside this
repository; see docs/EGTB.md). Any further columns are kept as a note and printed with the
examples (e.g. the other generator's raw score). Every FEN is probed with
`xiangqi-egtb probe --dir DIR`, whose plies column is a number, `-` (draw) or `rule` (a value
decided by the perpetual-check rule), and every disagreement falls in one class:

    a  we say win/loss by rule, they say draw
    b  they say win/loss (by rule or not), we say draw
    c  win/draw/loss differ otherwise
    d  same win/draw/loss, distance differs (two distances, or a distance against `rule`)
    none  we have no table or no answer for the position

    python3 tools/egtb/compare_dump.py --dir TABLES dump.tsv [dump2.tsv ...]
        [--examples 10] [--write PREFIX] [--chunk 1000000]

The counts per class (and of every pair of values, as a matrix) are printed for each dump,
with the first examples of each class; `--write PREFIX` writes every disagreement to
PREFIX.<dump name>.<class>.tsv. The dump is read and probed a chunk at a time, so dumps of
tens of millions of positions fit in memory. Exit status 1 on any disagreement.
"""
import argparse
import collections
import os
import subprocess
import sys

CLASSES = ("a", "b", "c", "d", "none")
DESCRIPTION = {
    "a": "we: win/loss by rule, they: draw",
    "b": "they: win/loss (by rule or not), we: draw",
    "c": "win/draw/loss differ otherwise",
    "d": "same win/draw/loss, distance differs",
    "none": "no answer from us",
}


def parse_theirs(text):
    """`win 12` -> ("win", 12); `win rule` -> ("win", "rule"); `draw` -> ("draw", None)."""
    text = text.strip()
    if text == "draw":
        return ("draw", None)
    kind, n = text.split()
    if kind not in ("win", "loss"):
        raise ValueError(f"unknown value {text!r}")
    return (kind, "rule" if n == "rule" else int(n))


def parse_ours(kind, plies):
    if plies == "-":
        return (kind, None)
    if plies == "rule":
        return (kind, "rule")
    return (kind, int(plies))


def label(value):
    """A short name of a value for the matrix: win, win-rule, draw, loss, loss-rule, none."""
    kind, n = value
    return f"{kind}-rule" if n == "rule" else kind


def classify(theirs, ours):
    """The class of a disagreement, or None when the two agree."""
    if ours[0] not in ("win", "draw", "loss"):
        return "none"
    if theirs == ours:
        return None
    if ours[1] == "rule" and theirs[0] == "draw":
        return "a"
    if theirs[0] in ("win", "loss") and ours[0] == "draw":
        return "b"
    if theirs[0] != ours[0]:
        return "c"
    return "d"


def show(value):
    kind, n = value
    return kind if n is None else f"{kind} {n}"


def probe(args, fens):
    """Our values of `fens`, in order, from one run of the probe command."""
    out = subprocess.run(
        [args.bin, "probe", "--dir", args.dir],
        input="\n".join(fens) + "\n",
        capture_output=True,
        text=True,
    )
    ours = []
    for line in out.stdout.splitlines():
        fen, kind, plies = line.split("\t")
        ours.append(parse_ours(kind, plies))
    if len(ours) != len(fens):
        raise RuntimeError(f"{len(fens)} positions, {len(ours)} answers: {out.stderr}")
    return ours


def chunks(path, size):
    """The dump's lines as (fens, theirs, notes) lists of at most `size` positions each."""
    fens, theirs, notes = [], [], []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            fens.append(cols[0])
            theirs.append(parse_theirs(cols[1]))
            notes.append(" ".join(cols[2:]))
            if len(fens) == size:
                yield fens, theirs, notes
                fens, theirs, notes = [], [], []
    if fens:
        yield fens, theirs, notes


def compare(path, args):
    """Compare one dump, a chunk of positions at a time (a dump may hold tens of millions)."""
    counts = collections.Counter()
    examples = {c: [] for c in CLASSES}
    matrix = collections.Counter()
    d_kinds = collections.Counter()
    files = {}
    total = 0
    try:
        for fens, theirs, notes in chunks(path, args.chunk):
            total += len(fens)
            ours = probe(args, fens)
            for fen, t, o, note in zip(fens, theirs, ours, notes):
                matrix[(label(t), label(o))] += 1
                c = classify(t, o)
                if c is None:
                    continue
                counts[c] += 1
                if len(examples[c]) < args.examples:
                    examples[c].append((fen, t, o, note))
                if c == "d":
                    d_kinds["rule against a distance" if "rule" in (t[1], o[1]) else "two distances"] += 1
                if args.write:
                    if c not in files:
                        base = os.path.splitext(os.path.basename(path))[0]
                        files[c] = open(f"{args.write}.{base}.{c}.tsv", "w")
                    files[c].write(f"{fen}\t{show(t)}\t{show(o)}\t{note}\n")
    except RuntimeError as e:
        print(f"{path}: {e}")
        return True
    finally:
        for f in files.values():
            f.close()
    agree = total - sum(counts.values())
    print(
        f"{path}: {total} positions, {agree} agree; "
        + ", ".join(f"{c}: {counts[c]}" for c in CLASSES)
    )
    theirs_labels = sorted({t for t, _ in matrix}, key=LABEL_ORDER.index)
    ours_labels = sorted({o for _, o in matrix}, key=LABEL_ORDER.index)
    print("    theirs \\ ours  " + "".join(f"{o:>11}" for o in ours_labels))
    for t in theirs_labels:
        print(f"    {t:<15}" + "".join(f"{matrix[(t, o)]:>11}" for o in ours_labels))
    for c in CLASSES:
        if not counts[c]:
            continue
        extra = ""
        if c == "d":
            extra = " (" + ", ".join(f"{k}: {n}" for k, n in sorted(d_kinds.items())) + ")"
        print(f"  class {c}, {DESCRIPTION[c]}: {counts[c]}{extra}")
        for fen, t, o, note in examples[c]:
            print(f"    {fen}: theirs {show(t)}{' (' + note + ')' if note else ''}, ours {show(o)}")
    return any(counts.values())


LABEL_ORDER = ["win", "win-rule", "draw", "loss-rule", "loss", "none", "error"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="our tables")
    ap.add_argument("--bin", default="target/release/xiangqi-egtb", help="our command")
    ap.add_argument("--examples", type=int, default=10, help="examples printed per class")
    ap.add_argument("--write", metavar="PREFIX", help="write every disagreement to PREFIX.DUMP.CLASS.tsv")
    ap.add_argument("--chunk", type=int, default=1_000_000, help="positions probed per run of our command")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()
    failed = False
    for path in args.dumps:
        failed |= compare(path, args)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
