"""The end of the game: `gameend.tsv` (verdicts checked with pyffish) and the 125 WXF
repetition rulings of `repetition_wxf.tsv`."""

import pytest

import xiangqi_rs as xiangqi
from conftest import CORE_DATA, play, tsv_rows

GAMEEND = list(tsv_rows(CORE_DATA / "gameend.tsv"))
RULINGS = list(tsv_rows(CORE_DATA / "repetition_wxf.tsv"))


@pytest.mark.parametrize("row", GAMEEND, ids=[r[0] for r in GAMEEND])
def test_gameend(row):
    name, fen, moves, legal_after, in_check, no_moves_result, optional_end = row[:7]
    board = play(fen, moves)
    assert len(board.legal_moves()) == int(legal_after)
    assert board.is_check() == (in_check == "True")
    outcome = board.outcome()
    bare = not any(c in board.board_fen().upper() for c in "RNHCP")
    if no_moves_result == "-32000":
        assert outcome is not None and outcome.winner == (not board.turn)
        assert outcome.termination == ("checkmate" if board.is_check() else "stalemate")
        assert board.no_moves() and board.is_game_over()
    elif optional_end.startswith("True,") and not name.startswith("move_rule"):
        value = int(optional_end.split(",")[1])
        assert outcome is not None and outcome.termination == "repetition"
        expected = None if value == 0 else (board.turn if value > 0 else not board.turn)
        assert outcome.winner == expected
    elif bare:
        # The draw for lack of attacking material comes before Fairy-Stockfish's 50-move
        # verdict (the move rule here, as Pikafish's, is 120 plies).
        assert outcome is not None and outcome.termination == "no_attacking_material"
    else:
        assert outcome is None


def test_rulings_are_read():
    assert len(RULINGS) == 125


@pytest.mark.parametrize("row", RULINGS, ids=[r[0] for r in RULINGS])
def test_wxf_repetition_ruling(row):
    _, fen, moves, expected = row[:4]
    board = xiangqi.Board(fen, strict=False)
    for text in moves.split():
        board.push_uci(text)
    outcome = board.outcome("asian")
    if outcome is None:
        got = "continue"
    elif outcome.winner is None:
        got = "draw"
    else:
        got = "black_loses" if outcome.winner == xiangqi.RED else "red_loses"
    assert got == expected, str(outcome)


def test_perpetual_check_names_the_violation():
    board = play("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1", "a1a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9")
    for rules in ("asian", "chinese"):
        outcome = board.outcome(rules)
        assert outcome.winner is xiangqi.BLACK
        assert (outcome.termination, outcome.violation) == ("repetition", "perpetual_check")
        assert outcome.result() == "0-1" and "perpetual check" in str(outcome)
    with pytest.raises(ValueError, match="rules"):
        board.outcome("martian")


def test_sixty_move_rule():
    board = xiangqi.Board("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80")
    assert board.outcome() is None and board.plies_toward_move_limit() == 119
    board.push_uci("a1b1")
    outcome = board.outcome()
    assert outcome.termination == "move_limit" and outcome.winner is None
    assert outcome.result() == "1/2-1/2"


def test_no_attacking_material():
    outcome = xiangqi.Board("3ak4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").outcome()
    assert outcome.termination == "no_attacking_material" and outcome.winner is None


def test_checkmate_and_stalemate():
    mate = play("3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b9")
    assert mate.is_checkmate() and not mate.is_stalemate()
    assert mate.outcome().winner is xiangqi.RED
    stale = xiangqi.Board("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert stale.is_stalemate() and not stale.is_checkmate()
    assert stale.outcome().termination == "stalemate"
