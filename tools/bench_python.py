#!/usr/bin/env python3
"""The Python module `xiangqi_rs` against cchess and pyffish, on the same machine, in one go.

    python tools/bench_python.py [--games PATH] [--quick]

Needs `xiangqi_rs` (pip install ./xiangqi-py), `cchess` and `pyffish` in the running
interpreter. Each library is timed through its own public API, the way a Python program
would use it; where a library cannot do a job at this size in reasonable time (pyffish
and cchess replaying all 27,704 games), it is timed on the first games of the file and the
rate is reported as measured.

Workloads:
  legal moves   legal-move lists of 2,000 positions from random playouts (positions/s)
  perft         perft(4) from the start (3,290,240 leaves), our native perft; perft(3)
                (79,666 leaves) as a Python loop over each library's legal moves
  playouts      random games from the start to the end or 200 plies, the ML workload
                (playouts/s)
  master games  replaying the 27,704 master games (ICCS move lists) move by move, every
                move checked (games/s); pyffish: its FEN after the whole list, one call a game
"""

import argparse
import random
import sys
import time
from pathlib import Path

import cchess
import pyffish
import xiangqi_rs as xiangqi

START = xiangqi.STARTING_FEN
REPO = Path(__file__).resolve().parents[1]
# shared/ lies in the repository or beside it (or beside a worktree's parent).
GAME_FILES = [d / "shared" / "data" / "games" / "master_games_iccs.txt" for d in (REPO, REPO.parent, REPO.parent.parent)]
DEFAULT_GAMES = next((p for p in GAME_FILES if p.exists()), GAME_FILES[0])


def timed(fn, *args):
    """Seconds for `fn(*args)` and its result: the best of repeated runs while they add up
    to under a second (fast jobs are noisy on a busy machine), else the one run."""
    best, total = None, 0.0
    while True:
        t = time.perf_counter()
        out = fn(*args)
        t = time.perf_counter() - t
        best = t if best is None else min(best, t)
        total += t
        if total >= 1.0:
            return best, out


def to_ffish(m: str) -> str:
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def cchess_legal(board):
    return [
        cchess.pos2iccs(*m)
        for m in board.create_moves()
        if board.is_valid_move_t(m) and not board.is_checked_move(*m)
    ]


def sample_fens(n, seed=1):
    rng = random.Random(seed)
    fens = []
    board = xiangqi.Board()
    while len(fens) < n:
        moves = board.legal_moves()
        if not moves or len(board.move_stack) >= 150:
            board = xiangqi.Board()
            continue
        board.push(rng.choice(moves))
        fens.append(board.fen())
    return fens


# --- legal moves ---------------------------------------------------------------------------

def legal_ours(fens):
    boards = [xiangqi.Board(f) for f in fens]
    t, _ = timed(lambda: [b.legal_moves() for b in boards])
    return len(fens) / t


def legal_ffish(fens):
    t, _ = timed(lambda: [pyffish.legal_moves("xiangqi", f, []) for f in fens])
    return len(fens) / t


def legal_cchess(fens):
    boards = [cchess.ChessBoard(f) for f in fens]
    t, _ = timed(lambda: [cchess_legal(b) for b in boards])
    return len(fens) / t


# --- perft ---------------------------------------------------------------------------------

def perft_py_ours(board, depth):
    if depth == 1:
        return board.count_legal_moves()
    n = 0
    for m in board.legal_moves():
        board.push(m)
        n += perft_py_ours(board, depth - 1)
        board.pop()
    return n


def perft_ffish(moves, depth):
    legal = pyffish.legal_moves("xiangqi", START, moves)
    if depth == 1:
        return len(legal)
    return sum(perft_ffish(moves + [m], depth - 1) for m in legal)


def perft_cchess(board, depth):
    legal = cchess_legal(board)
    if depth == 1:
        return len(legal)
    n = 0
    for m in legal:
        child = board.copy()
        cchess_play(child, m)
        n += perft_cchess(child, depth - 1)
    return n


# --- playouts ------------------------------------------------------------------------------

def playouts(n, start, legal, play, seed=2):
    """Plies played in `n` random games of at most 200 plies each."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(n):
        state = start()
        for _ in range(200):
            moves = legal(state)
            if not moves:
                break
            play(state, rng.choice(moves))
            plies += 1
    return plies


def cchess_play(board, move):
    board.move_iccs(move)
    board.next_turn()


PLAYOUTS = {
    "ours": (xiangqi.Board, xiangqi.Board.legal_moves, xiangqi.Board.push),
    "pyffish": (list, lambda moves: pyffish.legal_moves("xiangqi", START, moves), list.append),
    "cchess": (lambda: cchess.ChessBoard(START), cchess_legal, cchess_play),
}


# --- master games --------------------------------------------------------------------------

def games_ours(games):
    for moves in games:
        board = xiangqi.Board()
        for m in moves:
            board.push_uci(m)


def games_ffish(games):
    for moves in games:
        pyffish.get_fen("xiangqi", START, [to_ffish(m) for m in moves])


def games_cchess(games):
    for moves in games:
        board = cchess.ChessBoard(START)
        for m in moves:
            if board.move_iccs(m) is None:
                raise ValueError(m)
            board.next_turn()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=Path, default=DEFAULT_GAMES)
    ap.add_argument("--quick", action="store_true", help="smaller jobs, for a smoke test")
    args = ap.parse_args()
    q = args.quick
    rows = []

    fens = sample_fens(200 if q else 2000)
    cfens = fens[: 50 if q else 300]
    rows.append(("legal moves (positions/s)", legal_ours(fens), legal_ffish(fens), legal_cchess(cfens), ""))

    depth = 3 if q else 4
    t_native, n = timed(xiangqi.Board().perft, depth)
    assert n == (79_666 if q else 3_290_240), n
    rows.append((f"perft({depth}), native (leaves/s)", n / t_native, None, None, f"{n:,} leaves in {t_native:.3f} s"))
    # A Python loop over each library's move generator (pyffish and cchess have no perft).
    loop = 2 if q else 3
    t_loop, n2 = timed(perft_py_ours, xiangqi.Board(), loop)
    t_ffish, n3 = timed(perft_ffish, [], loop)
    t_cc, n4 = timed(perft_cchess, cchess.ChessBoard(START), loop)
    assert n2 == n3 == n4 == (1_920 if q else 79_666), (n2, n3, n4)
    rows.append(
        (
            f"perft({loop}), Python loop (leaves/s)",
            n2 / t_loop,
            n2 / t_ffish,
            n2 / t_cc,
            f"{t_loop:.3f} s / {t_ffish:.1f} s / {t_cc:.1f} s",
        )
    )

    counts = (5, 2, 1) if q else (200, 20, 3)
    rates = []
    for (start, legal, play), k in zip(PLAYOUTS.values(), counts):
        t, plies = timed(playouts, k, start, legal, play)
        rates.append((k / t, plies / t))
    rows.append(("random playouts (playouts/s)", rates[0][0], rates[1][0], rates[2][0],
                 "plies/s: " + ", ".join(f"{r[1]:,.0f}" for r in rates)))

    games = []
    if args.games.exists():
        for line in args.games.read_text(encoding="utf-8").splitlines():
            result, _, moves = line.partition("\t")
            games.append(moves.split())
    if games:
        sub = games[:500] if q else games
        fsub = games[: 100 if q else 2000]
        csub = games[: 5 if q else 100]
        t_o, _ = timed(games_ours, sub)
        t_f, _ = timed(games_ffish, fsub)
        t_c, _ = timed(games_cchess, csub)
        rows.append(("master games (games/s)", len(sub) / t_o, len(fsub) / t_f, len(csub) / t_c,
                     f"ours: all {len(sub):,} in {t_o:.1f} s; pyffish on {len(fsub):,}, cchess on {len(csub)}"))
    else:
        print(f"(no master games file at {args.games}: that row is left out)", file=sys.stderr)

    print(f"Python {sys.version.split()[0]}; xiangqi {xiangqi.__version__}")
    print()
    print("| workload | xiangqi | pyffish | cchess | xiangqi / pyffish | xiangqi / cchess | notes |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name, ours, ffish, cc, note in rows:
        def cell(v):
            return "—" if v is None else f"{v:,.0f}" if v >= 10 else f"{v:.2f}"

        def ratio(v):
            return "—" if v is None else f"{ours / v:,.1f}x"

        print(f"| {name} | {cell(ours)} | {cell(ffish)} | {cell(cc)} | {ratio(ffish)} | {ratio(cc)} | {note} |")


if __name__ == "__main__":
    main()
