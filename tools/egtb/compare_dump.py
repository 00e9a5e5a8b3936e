#!/usr/bin/env python3
"""Compare a text dump of another generator's table with ours, position by position.

The dump has one position a line: `FEN<TAB>win N` / `loss N` / `draw`, N the distance to
mate in plies for the side to move (FelicityEgtb's values, dumped with its own probing
code outside this repository; see docs/EGTB.md). Every FEN is probed with
`xiangqi-egtb probe --dir DIR`, and the two are compared: win/draw/loss and the distance.

    python3 tools/egtb/compare_dump.py --dir TABLES dump.tsv [dump2.tsv ...]

Exit status 1 on any difference; the first ten of each kind are printed.
"""
import argparse
import subprocess
import sys


def parse_theirs(text):
    text = text.strip()
    if text == "draw":
        return ("draw", None)
    kind, n = text.split()
    return (kind, int(n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True, help="our tables")
    ap.add_argument("--bin", default="target/release/xiangqi-egtb", help="our command")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()
    failed = False
    for path in args.dumps:
        fens, theirs = [], []
        with open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                fen, value = line.rstrip("\n").split("\t")
                fens.append(fen)
                theirs.append(parse_theirs(value))
        out = subprocess.run(
            [args.bin, "probe", "--dir", args.dir],
            input="\n".join(fens) + "\n",
            capture_output=True,
            text=True,
        )
        ours = []
        for line in out.stdout.splitlines():
            fen, kind, plies = line.split("\t")
            ours.append((kind, None if plies == "-" else int(plies)))
        if len(ours) != len(fens):
            print(f"{path}: {len(fens)} positions, {len(ours)} answers: {out.stderr}")
            failed = True
            continue
        wdl_diff, dtm_diff, no_table = [], [], []
        for fen, t, o in zip(fens, theirs, ours):
            if o[0] in ("none", "error"):
                no_table.append((fen, t, o))
            elif t[0] != o[0]:
                wdl_diff.append((fen, t, o))
            elif t[1] != o[1]:
                dtm_diff.append((fen, t, o))
        print(
            f"{path}: {len(fens)} positions; win/draw/loss differ on {len(wdl_diff)}, "
            f"distance on {len(dtm_diff)}, no answer on {len(no_table)}"
        )
        for name, rows in (("wdl", wdl_diff), ("dtm", dtm_diff), ("none", no_table)):
            for fen, t, o in rows[:10]:
                print(f"    {name}: {fen}: theirs {t}, ours {o}")
        failed |= bool(wdl_diff or dtm_diff or no_table)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
