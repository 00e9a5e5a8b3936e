"""Board, Move and Piece: FEN, moves, make/unmake, perft against the suite's counts."""

import copy

import pytest

import xiangqi_rs as xiangqi
from conftest import CORE_DATA, epd_ops

PERFT_LEAF_LIMIT = 5_000_000


def perft_cases():
    for fen, ops in epd_ops(CORE_DATA / "perft.epd"):
        for name, value in ops.items():
            if name.startswith("D") and name[1:].isdigit() and int(value) <= PERFT_LEAF_LIMIT:
                yield pytest.param(fen, int(name[1:]), int(value), id=f"{fen[:20]}-D{name[1:]}")


@pytest.mark.parametrize("fen,depth,count", list(perft_cases()))
def test_perft_suite(fen, depth, count):
    assert xiangqi.Board(fen).perft(depth) == count


def test_perft_suite_is_read():
    assert len(list(perft_cases())) >= 40


def test_divide_sums_to_perft():
    board = xiangqi.Board()
    split = board.divide(3)
    assert len(split) == 44
    assert sum(split.values()) == board.perft(3) == 79_666


@pytest.mark.parametrize("fen", sorted({fen for fen, _ in epd_ops(CORE_DATA / "perft.epd")}))
def test_fen_round_trip(fen):
    board = xiangqi.Board(fen)
    assert xiangqi.Board(board.fen()).fen() == board.fen()
    assert board.board_fen() == fen.split()[0]
    assert repr(board) == f"Board('{board.fen()}')"


def test_start_position():
    board = xiangqi.Board()
    assert board.fen() == xiangqi.STARTING_FEN == xiangqi.Board.STARTING_FEN
    assert board.turn is xiangqi.RED
    assert len(board.legal_moves()) == board.count_legal_moves() == 44
    assert board.halfmove_clock == 0 and board.fullmove_number == 1
    assert not board.is_check() and board.outcome() is None
    assert board.piece_at(xiangqi.parse_square("e0")).symbol() == "K"
    assert board.piece_at(xiangqi.parse_square("e9")).chinese() == "将"
    assert board.piece_at(xiangqi.parse_square("e5")) is None
    assert len(board.piece_map()) == 32
    assert "a b c d e f g h i" in str(board)


def test_push_pop_restores_everything():
    board = xiangqi.Board()
    fen, key = board.fen(), board.key()
    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    for text in moves:
        board.push_uci(text)
    assert [m.uci() for m in board.move_stack] == moves
    assert board.peek() == xiangqi.Move.from_uci("i9h9")
    assert board.key() != key
    for text in reversed(moves):
        assert board.pop().uci() == text
    assert board.fen() == fen and board.key() == key
    assert board.peek() is None
    with pytest.raises(IndexError):
        board.pop()


def test_illegal_move_leaves_board_unchanged():
    board = xiangqi.Board()
    before = board.fen()
    for text in ["a0a5", "e0e1x", "h9g7", "e0f1"]:
        with pytest.raises(ValueError):
            board.push(text)
    with pytest.raises(xiangqi.IllegalMoveError, match="the piece on h9 is black's"):
        board.push(xiangqi.Move.from_uci("h9g7"))  # black's move, red to play
    with pytest.raises(xiangqi.IllegalMoveError, match="horse's leg is blocked"):
        board.push(xiangqi.Move.from_uci("b0d1"))
    assert board.fen() == before and board.move_stack == []


def test_move_object():
    m = xiangqi.Move.from_uci("H2-E2")
    assert (m.from_square, m.to_square) == (xiangqi.parse_square("h2"), xiangqi.parse_square("e2"))
    assert str(m) == m.uci() == "h2e2"
    assert m == xiangqi.Move(m.from_square, m.to_square)
    assert hash(m) == hash(xiangqi.Move.from_uci("h2e2"))
    assert m.mirror().uci() == "b2e2"
    assert sorted([xiangqi.Move.from_uci("b0c2"), xiangqi.Move.from_uci("a0a1")])[0].uci() == "a0a1"
    assert eval(repr(m), {"Move": xiangqi.Move}) == m
    with pytest.raises(ValueError):
        xiangqi.Move(4, 4)
    with pytest.raises(ValueError):
        xiangqi.Move(0, 90)


def test_squares():
    assert xiangqi.square(4, 0) == 4 and xiangqi.square_name(4) == "e0"
    assert xiangqi.parse_square("I9") == 89
    for bad in [(9, 0), (0, 10), (-1, 0)]:
        with pytest.raises(ValueError):
            xiangqi.square(*bad)


def test_copy_is_independent():
    board = xiangqi.Board()
    board.push_uci("h2e2")
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        assert other == board and other.move_stack == board.move_stack
        other.push_uci("h9g7")
        assert other != board
    assert len(board.move_stack) == 1


def test_checks_captures_and_mirror():
    board = xiangqi.Board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w - - 0 1")
    assert board.gives_check("b2e2")
    assert not board.is_capture("b2e2")
    assert board.is_capture("b2b9")
    board.push_uci("b2e2")
    assert board.is_check() and not board.is_checkmate()
    mirrored = xiangqi.Board().mirror()
    assert mirrored.fen() == xiangqi.STARTING_FEN


def test_pieces():
    p = xiangqi.Piece("N")
    assert (p.color, p.role, p.code, p.chinese()) == (xiangqi.RED, "horse", 4, "马")
    assert xiangqi.Piece("c").role == "cannon" and xiangqi.Piece("c").color is xiangqi.BLACK
    with pytest.raises(ValueError):
        xiangqi.Piece("x")


def test_module_docstring_examples():
    import doctest

    failures, tried = doctest.testmod(xiangqi)
    assert tried >= 4 and failures == 0
