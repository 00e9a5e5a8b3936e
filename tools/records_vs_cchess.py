#!/usr/bin/env python3
"""Cross-check of xiangqi-records against cchess (PyPI), an independent implementation.

For every record file given (default: the samples in xiangqi-records/tests/data), read it
with the `records` example and with cchess, and compare the main line (ICCS) and the
number of lines (leaves of the variation tree). A file cchess cannot read, or reads with
no moves, is reported as such and not counted. Exit status 1 on any disagreement.

    python3 tools/records_vs_cchess.py [--records PATH-TO-records-BINARY] [FILE...]
    python3 tools/records_vs_cchess.py --dump FILE...   # cchess's reading only, for tests:
        # per game "FILE<TAB>GAME<TAB>LINES<TAB>ICCS MAIN LINE", or "FILE<TAB>unreadable<TAB>WHY"

cchess 1.25.5 reads XQF, PGN (the first game only, UTF-8, Chinese notation), CBF, CBR and
CBL (libraries, with read_from_lib).
"""

import argparse
import glob
import os
import subprocess
import sys

import cchess
from cchess import Game

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def ours(binary, path):
    """Game number in the file -> (main line, number of lines), from the records example."""
    out = subprocess.run([binary, path], capture_output=True, text=True, check=False).stdout
    games = {}
    number, main = None, None
    for line in out.splitlines():
        if line.startswith("game:"):
            number = int(line.split()[1])
        elif line.startswith("main:"):
            main = line[len("main:"):].split()
        elif line.startswith("lines:"):
            games[number] = (main, int(line.split()[1]))
    return games


def theirs(path):
    """Per game: (main line, number of lines), from cchess; None when it cannot read it."""
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext == ".cbl":
            lib = Game.read_from_lib(path)
            found = lib["games"] if isinstance(lib, dict) else lib
        else:
            found = [Game.read_from(path)]
    except Exception as e:  # cchess raises plain Exceptions for what it cannot read
        return None, f"{type(e).__name__}: {str(e)[:80]}"
    games = []
    for g in found:
        if g is None:
            continue
        lines = g.dump_iccs_moves()
        games.append((lines[0] if lines else [], max(len(lines), 1)))
    return games, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", default=os.path.join(ROOT, "target", "release", "examples", "records"))
    ap.add_argument("--dump", action="store_true", help="print cchess's reading only")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.dump:
        for path in args.files:
            them, why = theirs(path)
            if them is None or not any(m for m, _ in them):
                print(f"{path}\tunreadable\t{why or 'no moves'}")
                continue
            for i, (main_line, lines) in enumerate(them):
                print(f"{path}\t{i + 1}\t{lines}\t{' '.join(main_line)}")
        return 0
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "xiangqi-records", "tests", "data", "*.*")))
    files = [f for f in files if not f.endswith(".md")]
    print(f"cchess {getattr(cchess, '__version__', '?')}")
    compared = disagreed = unreadable = 0
    for path in files:
        name = os.path.basename(path)
        them, why = theirs(path)
        us = ours(args.records, path)
        if them is None or not any(m for m, _ in them):
            unreadable += 1
            print(f"cchess cannot read  {name}: {why or 'no moves'} (ours: {len(us)} games)")
            continue
        for i, (their_main, their_lines) in enumerate(them):
            if i + 1 not in us:
                if their_main:
                    disagreed += 1
                    print(f"DIFFER  {name} game {i + 1}: we read no game there")
                else:
                    print(f"note    {name} game {i + 1}: empty for cchess, not loaded by us")
                continue
            our_main, our_lines = us[i + 1]
            compared += 1
            if our_main != their_main or our_lines != their_lines:
                disagreed += 1
                k = next((j for j, (a, b) in enumerate(zip(our_main, their_main)) if a != b),
                         min(len(our_main), len(their_main)))
                print(f"DIFFER  {name} game {i + 1}: main {len(our_main)} vs {len(their_main)} plies "
                      f"(first difference at ply {k + 1}), lines {our_lines} vs {their_lines}")
        else:
            print(f"same    {name}: {len(them)} game(s), lines {[l for _, l in them][:5]}")
    print(f"{compared} games compared, {disagreed} differ, {unreadable} files cchess cannot read")
    return 1 if disagreed else 0


if __name__ == "__main__":
    sys.exit(main())
