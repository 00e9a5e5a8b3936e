#!/usr/bin/env python3
"""Reading speed of xiangqi-records against cchess (PyPI), on the same files, in one run.

Runs the `bench` example (which writes the files: the 27,704 master games as one PGN
file and as one PGN and one XQF file per game for the first N games, and their first
plies merged into one opening tree, as XQF and PGN), then times cchess reading the
per-game files and the tree (cchess reads one game per PGN file, UTF-8 only, so the
one-file PGN of all games is ours alone).

    python3 tools/records_bench.py [--games N] [--plies P] [--out DIR]
"""

import argparse
import glob
import os
import subprocess
import sys
import time

from cchess import Game

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MASTER = os.path.join(ROOT, "..", "shared", "data", "games", "master_games_iccs.txt")


def cchess_time(files):
    start = time.perf_counter()
    games = 0
    for f in files:
        try:
            g = Game.read_from(f)
            g.dump_iccs_moves()
            games += 1
        except Exception:
            pass
    return games, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--plies", type=int, default=30)
    ap.add_argument("--out", default="/tmp/xiangqi-records-bench")
    ap.add_argument("--master", default=os.environ.get("MASTER_GAMES", MASTER))
    ap.add_argument("--bench", default=os.path.join(ROOT, "target", "release", "examples", "bench"))
    args = ap.parse_args()
    out = subprocess.run([args.bench, args.master, args.out, str(args.games), str(args.plies)],
                         capture_output=True, text=True, check=True)
    sys.stderr.write(out.stderr)
    print("| reader | input | files | games | MB | seconds | games/s | MB/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for line in out.stdout.splitlines():
        parts = line.split()
        name, (files, games, size, secs, gps, mbs) = " ".join(parts[:-6]), parts[-6:]
        print(f"| xiangqi-records | {name} | {files} | {games} | {int(size) / 1e6:.1f} | {float(secs):.3f} | {gps} | {mbs} |")
    for pattern in ("games/*.pgn", "games/*.xqf", "tree.xqf"):
        files = sorted(glob.glob(os.path.join(args.out, pattern)))
        size = sum(os.path.getsize(f) for f in files)
        games, secs = cchess_time(files)
        print(f"| cchess | {pattern} | {len(files)} | {games} | {size / 1e6:.1f} | {secs:.3f} | "
              f"{games / secs:.0f} | {size / secs / 1e6:.2f} |")


if __name__ == "__main__":
    main()
