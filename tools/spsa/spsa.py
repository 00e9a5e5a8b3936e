#!/usr/bin/env python3
"""SPSA tuning of the search's constants by self-play, in rounds of short matches.

Each iteration perturbs every constant being tuned by +c or -c at random (one draw per
constant), plays the "plus" set against the "minus" set for a few games with the match
example (in-process engines, `tune.NAME=VALUE` keys), and moves each constant towards the side
that scored better: value += R * c * (wins - losses) * delta. The gains follow the schedule
fishtest and OpenBench use: c_k = c / k^gamma and a_k = a / (A + k)^alpha, with c and a set from
each constant's end-of-run step (`step`, from `match --list-tunables`) and a learning rate at
the end of the run (`--r-end`), so that the last iterations move a constant by about
r_end * step per game of difference.

The state (configuration, iteration, the constants' current real values and a log of every
iteration) is one JSON file, rewritten atomically after each iteration: stop the run at any
time and the same command resumes it. Nothing here depends on the machine's speed except with
`--tc`; with `--nodes` the games are the same on a busy machine, only slower.

    cargo build --release --example match
    python3 tools/spsa/spsa.py --state spsa.json --iterations 2000 --games 4 --nodes 10000
    python3 tools/spsa/spsa.py --state spsa.json --show      # the values so far
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass

SCORE = re.compile(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)")


@dataclass
class Spec:
    name: str
    default: int
    lo: int
    hi: int
    step: int


def list_tunables(match: str) -> dict[str, Spec]:
    out = subprocess.run([match, "--list-tunables"], check=True, capture_output=True, text=True)
    specs = {}
    for line in out.stdout.splitlines()[1:]:
        name, default, lo, hi, step = line.split()
        specs[name] = Spec(name, int(default), int(lo), int(hi), int(step))
    return specs


def gains(cfg: dict, spec: Spec, k: int) -> tuple[float, float]:
    """c_k and R_k = a_k / c_k^2 for iteration k (1-based) of a run of cfg['iterations']."""
    n, alpha, gamma = cfg["iterations"], cfg["alpha"], cfg["gamma"]
    big_a = cfg["A"] if cfg["A"] is not None else 0.1 * n
    c = spec.step * n**gamma
    a_end = cfg["r_end"] * spec.step**2
    a = a_end * (big_a + n) ** alpha
    c_k = c / k**gamma
    a_k = a / (big_a + k) ** alpha
    return c_k, a_k / c_k**2


def play(cfg: dict, plus: dict[str, int], minus: dict[str, int], k: int) -> tuple[int, int, int]:
    def engine(name: str, values: dict[str, int]) -> str:
        return ",".join([f"name={name}"] + [f"tune.{p}={v}" for p, v in values.items()])

    cmd = [
        cfg["match"],
        "--engine", engine("plus", plus),
        "--engine", engine("minus", minus),
        "--games", str(cfg["games"]),
        "--concurrency", str(cfg["concurrency"]),
        "--openings", cfg["openings"],
        # A different stretch of the openings file each iteration.
        "--opening-offset", str((k - 1) * (cfg["games"] // 2 + cfg["games"] % 2)),
    ]
    cmd += ["--nodes", str(cfg["nodes"])] if cfg["nodes"] else ["--tc", cfg["tc"]]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"spsa: the match failed ({out.returncode}): {out.stderr.strip()}")
    for line in reversed(out.stdout.splitlines()):
        m = SCORE.match(line)
        if m:
            return int(m[1]), int(m[2]), int(m[3])
    sys.exit("spsa: no `Score of plus vs minus` line in the match's output")


def save(path: str, state: dict) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def show(state: dict, specs: dict[str, Spec]) -> None:
    print(f"iteration {state['iteration']} of {state['config']['iterations']}")
    for name, v in state["theta"].items():
        d = specs[name].default if name in specs else "?"
        print(f"{name:24} {v:9.2f}  (default {d}, now {round(v)})")
    games = sum(r["w"] + r["l"] + r["d"] for r in state["log"])
    print(f"games played: {games}")
    print("match keys: " + ",".join(f"tune.{n}={round(v)}" for n, v in state["theta"].items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the run's JSON file (created, or resumed)")
    ap.add_argument("--match", default="target/release/examples/match")
    ap.add_argument("--params", help="comma-separated constants to tune (default: all)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4, help="games per iteration (pairs of colours)")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--nodes", type=int, default=0, help="nodes per move (else --tc)")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--openings", default="examples/match/openings-master-8ply.txt")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--alpha", type=float, default=0.602)
    ap.add_argument("--gamma", type=float, default=0.101)
    ap.add_argument("--A", type=float, default=None, help="stability constant (default 10 %% of iterations)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", action="store_true", help="print the values so far and stop")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        cfg = state["config"]
        # The binary may have moved; everything else is the run's own.
        cfg["match"] = args.match
    else:
        if args.show:
            sys.exit(f"spsa: no state file {args.state}")
        cfg = {
            "match": args.match, "iterations": args.iterations, "games": args.games,
            "concurrency": args.concurrency, "nodes": args.nodes, "tc": args.tc,
            "openings": args.openings, "r_end": args.r_end, "alpha": args.alpha,
            "gamma": args.gamma, "A": args.A, "seed": args.seed,
        }
        state = {"config": cfg, "iteration": 0, "theta": {}, "log": []}
    specs = list_tunables(cfg["match"])
    if not state["theta"]:
        names = args.params.split(",") if args.params else list(specs)
        unknown = [n for n in names if n not in specs]
        if unknown:
            sys.exit(f"spsa: unknown constants {unknown} (known: {', '.join(specs)})")
        state["theta"] = {n: float(specs[n].default) for n in names}
        save(args.state, state)
    if args.show:
        show(state, specs)
        return

    theta = state["theta"]
    while state["iteration"] < cfg["iterations"]:
        k = state["iteration"] + 1
        rng = random.Random(cfg["seed"] * 1_000_003 + k)
        plus, minus, delta, ck = {}, {}, {}, {}
        for name, v in theta.items():
            s = specs[name]
            c_k, _ = gains(cfg, s, k)
            d = rng.choice((-1, 1))
            delta[name], ck[name] = d, c_k
            plus[name] = min(s.hi, max(s.lo, round(v + c_k * d)))
            minus[name] = min(s.hi, max(s.lo, round(v - c_k * d)))
        w, l, d = play(cfg, plus, minus, k)
        for name in theta:
            s = specs[name]
            c_k, r_k = gains(cfg, s, k)
            theta[name] = min(s.hi, max(s.lo, theta[name] + r_k * c_k * (w - l) * delta[name]))
        state["iteration"] = k
        state["log"].append({"k": k, "w": w, "l": l, "d": d})
        save(args.state, state)
        print(f"iteration {k}: plus-minus {w}-{l}-{d}; " + " ".join(f"{n}={v:.1f}" for n, v in theta.items()), flush=True)
    show(state, specs)


if __name__ == "__main__":
    main()
