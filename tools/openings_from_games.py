#!/usr/bin/env python3
"""Writes an openings file for the match tool from master games.

Each line of the output is `moves m1 ... mN`: the first N plies of a master game, each
distinct line once, from games at least `--min-plies` long (so the line is not a short
game's whole course), shuffled with a fixed seed so that any prefix of the file is a fair
sample. Used for long matches and SPRTs, where the 100 built-in openings would repeat.

    python3 tools/openings_from_games.py ../shared/data/games/master_games_iccs.txt \
        --plies 8 > examples/match/openings-master-8ply.txt
"""
import argparse
import random
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", help="result<TAB>ICCS moves, one game a line")
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--min-plies", type=int, default=28)
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    seen = set()
    lines = []
    with open(args.games, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                continue
            moves = parts[1].split()
            if len(moves) < args.min_plies:
                continue
            key = " ".join(moves[: args.plies])
            if key not in seen:
                seen.add(key)
                lines.append(key)
    random.Random(args.seed).shuffle(lines)
    out = sys.stdout
    out.write(
        f"# Openings for long matches and SPRTs: the first {args.plies} plies of master games, each line once\n"
        f"# ({len(lines)} lines, from games of at least {args.min_plies} plies, shuffled with a fixed seed).\n"
        "# Source: Chinese Chess Practical Dataset (CCPD) master games, CC BY 4.0; cite Yu-Han Tseng &\n"
        "# Bo-Nian Chen (2026). Written by tools/openings_from_games.py.\n"
    )
    for key in lines:
        out.write(f"moves {key}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
