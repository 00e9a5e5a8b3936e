#!/usr/bin/env python3
"""Judge a match played from tablebase positions (docs/EGTB.md).

Reads the match tool's PGN (`--pgn`), probes each game's start position with
`xiangqi-egtb probe`, and counts, for the engine named by --engine: from a won position
with its side to move (by mate, or by the perpetual-check rule: counted apart), every
game converted; from a drawn position, no game lost.

    python3 tools/egtb/match_report.py --dir TABLES --engine xiangqi games.pgn
"""
import argparse
import re
import subprocess
import sys


def games(path):
    tags = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r'\[(\w+) "(.*)"\]', line)
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.strip() and tags and not line.startswith("["):
            if "Result" in tags and tags.get("_done") is None:
                tags["_done"] = True
                yield tags
                tags = {}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--engine", required=True, help="the engine's name in the PGN")
    ap.add_argument("--bin", default="target/release/xiangqi-egtb")
    ap.add_argument("pgn")
    args = ap.parse_args()
    gs = list(games(args.pgn))
    fens = [g["FEN"] for g in gs]
    out = subprocess.run([args.bin, "probe", "--dir", args.dir], input="\n".join(fens) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    value = {}
    for line in out:
        fen, result, plies = line.split("\t")
        value[fen] = (result, plies)
    rows = {"won, ours": [0, 0], "won, theirs": [0, 0], "drawn": [0, 0],
            "rule, ours": [0, 0], "rule, theirs": [0, 0]}
    by_rule_games = 0
    failures = []
    for g in gs:
        result, plies = value[g["FEN"]]
        ours_red = g["Red"] == args.engine
        ours_score = {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[g["Result"]]
        if not ours_red:
            ours_score = 1 - ours_score
        if "perpetual check" in g.get("Termination", ""):
            by_rule_games += 1
        if result == "win" and plies == "rule":  # won by the perpetual-check rule
            key = "rule, ours" if ours_red else "rule, theirs"
            ok = ours_score == 1 if ours_red else True
        elif result == "win":  # red, to move, wins with best play
            key = "won, ours" if ours_red else "won, theirs"
            ok = ours_score == 1 if ours_red else True
        elif result == "draw":
            key = "drawn"
            ok = ours_score >= 0.5
        else:
            print(f"start position not a red win or a draw: {g['FEN']} {result}")
            continue
        rows[key][0] += 1
        rows[key][1] += ours_score
        if not ok:
            failures.append((g["Round"], g["FEN"], g["Result"], g.get("Termination", "")))
    print("| start | games | our score | required |")
    print("|---|---|---|---|")
    print(f"| won, our side to move | {rows['won, ours'][0]} | {rows['won, ours'][1]} | every game won |")
    print(f"| won, their side to move | {rows['won, theirs'][0]} | {rows['won, theirs'][1]} | (we defend) |")
    if rows["rule, ours"][0] or rows["rule, theirs"][0]:
        print(f"| won by the perpetual-check rule, our side to move | {rows['rule, ours'][0]} | {rows['rule, ours'][1]} | every game won |")
        print(f"| won by the perpetual-check rule, their side to move | {rows['rule, theirs'][0]} | {rows['rule, theirs'][1]} | (we defend) |")
    print(f"| drawn | {rows['drawn'][0]} | {rows['drawn'][1]} | no game lost |")
    print(f"games ended by a loss for perpetual check: {by_rule_games}")
    for f in failures:
        print("FAILED:", *f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
