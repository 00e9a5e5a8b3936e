#!/usr/bin/env python3
"""The engine's node rate with its net, two or more builds side by side.

Usage: python3 tools/nps_nnue.py DEPTH ENGINE [ENGINE ...] [--rounds N]

Each ENGINE is a UCI binary (for example two builds of `xiangqi-engine`, one per commit).
Each searches four openings to a fixed depth with its default evaluator (the net), one
thread, 16 MiB; the same net and search give the same tree, so only the time differs. The
engines alternate, round by round, so that a change in the machine's load falls on all of
them; run it on a quiet machine. `bench` cannot serve here: it keeps the hand-written
evaluator so that its node count stays the search's signature.
"""

import argparse
import subprocess
import time

OPENINGS = [
    "startpos",
    "startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "startpos moves b2e2 b9c7 b0c2 a9b9 a0b0 h9g7 h0g2 i9h9",
    "startpos moves c3c4 g6g5 b0c2 b9c7 h2g2 h9i7",
]


def search_all(engine, depth):
    """Nodes and seconds over the openings, for one engine."""
    proc = subprocess.Popen(
        [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(word):
        last_info = None
        for line in proc.stdout:
            if line.startswith("info") and " nodes " in line:
                last_info = line
            if line.startswith(word):
                return last_info
        raise RuntimeError(f"{engine} stopped before '{word}'")

    send("uci")
    until("uciok")
    send("setoption name Hash value 16")
    nodes, seconds = 0, 0.0
    for opening in OPENINGS:
        send("ucinewgame")
        send("position " + opening)
        send("isready")
        until("readyok")
        start = time.perf_counter()
        send(f"go depth {depth}")
        info = until("bestmove")
        seconds += time.perf_counter() - start
        words = info.split()
        nodes += int(words[words.index("nodes") + 1])
    send("quit")
    proc.wait()
    return nodes, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("depth", type=int)
    parser.add_argument("engines", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates = {engine: [] for engine in args.engines}
    for _ in range(args.rounds):
        for engine in args.engines:
            nodes, seconds = search_all(engine, args.depth)
            rates[engine].append(nodes / seconds)
            print(f"{engine}: {nodes} nodes in {seconds:.2f} s, {nodes / seconds / 1e6:.3f} M nodes/s", flush=True)
    for engine, values in rates.items():
        print(f"{engine}: mean {sum(values) / len(values) / 1e6:.3f} M nodes/s over {len(values)} rounds")


if __name__ == "__main__":
    main()
