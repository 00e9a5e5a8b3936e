"""Legal moves, check and the end of the game on 10,000 random playout positions, against
two independent implementations: Fairy-Stockfish (pyffish) and cchess (pure Python).

`XIANGQI_CROSSCHECK_POSITIONS` changes the number of positions (default 10,000)."""

import os
import random
from concurrent.futures import ProcessPoolExecutor

import cchess
import pyffish
import pytest

import xiangqi_rs as xiangqi
from conftest import from_ffish

POSITIONS = int(os.environ.get("XIANGQI_CROSSCHECK_POSITIONS", "10000"))


def playout_positions(n, seed=2024):
    """Every position of random playouts from the start (each playout ends at the game's
    end or after 200 plies), with its legal moves and whether the side to move is in check."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = xiangqi.Board()
        while len(out) < n and len(board.move_stack) < 200:
            moves = board.legal_moves()
            out.append((board.fen(), sorted(m.uci() for m in moves), board.is_check()))
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
    return out


@pytest.fixture(scope="module")
def positions():
    return playout_positions(POSITIONS)


def test_positions_cover_game_ends(positions):
    assert len(positions) == POSITIONS
    assert len({fen for fen, _, _ in positions}) > POSITIONS * 0.9
    if POSITIONS >= 10_000:
        assert sum(1 for _, moves, _ in positions if not moves) >= 5
        assert sum(1 for _, _, check in positions if check) >= 200


def test_against_pyffish(positions):
    mismatches = []
    for fen, moves, check in positions:
        theirs = sorted(from_ffish(m) for m in pyffish.legal_moves("xiangqi", fen, []))
        if theirs != moves:
            mismatches.append((fen, set(moves) ^ set(theirs)))
            continue
        if pyffish.gives_check("xiangqi", fen, []) != check:
            mismatches.append((fen, "check"))
        if not moves:
            # No legal move: the side to move has lost (checkmate or stalemate alike).
            if pyffish.game_result("xiangqi", fen, []) != -32000:
                mismatches.append((fen, "game end"))
            outcome = xiangqi.Board(fen).outcome()
            if outcome is None or outcome.termination not in ("checkmate", "stalemate"):
                mismatches.append((fen, "our outcome"))
    assert not mismatches, mismatches[:5]


def cchess_view(fen):
    """cchess's legal moves, check and game end for `fen`."""
    board = cchess.ChessBoard(fen)
    moves = sorted(
        cchess.pos2iccs(*m)
        for m in board.create_moves()
        if board.is_valid_move_t(m) and not board.is_checked_move(*m)
    )
    # cchess's is_checking() asks whether the side to move gives check: swap sides.
    other = board.copy()
    other.next_turn()
    return moves, other.is_checking(), board.no_moves()


def test_against_cchess(positions):
    fens = [fen for fen, _, _ in positions]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        views = list(pool.map(cchess_view, fens, chunksize=200))
    mismatches = []
    for (fen, moves, check), (theirs, their_check, no_moves) in zip(positions, views):
        if theirs != moves:
            mismatches.append((fen, set(moves) ^ set(theirs)))
        elif their_check != check or no_moves != (not moves):
            mismatches.append((fen, "check or game end"))
    assert not mismatches, mismatches[:5]
