"""Every parser refuses garbage with a ValueError subclass of this module, never a crash
(Hypothesis over random text and bytes)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xiangqi_rs as xiangqi

BOARD = xiangqi.Board()
PIECE_TEXT = st.text(alphabet="rnbakcpRNBAKCPehEH0123456789/ wb-", max_size=90)
MOVE_TEXT = st.text(alphabet="abcdefghi0123456789+-.=RNBAKCPHE炮马车兵进退平前后一二三四五六七八九１２３", max_size=8)


def refuses_cleanly(call, *args):
    try:
        call(*args)
    except xiangqi.XiangqiError as e:
        assert isinstance(e, ValueError) and str(e)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), PIECE_TEXT))
def test_fen(text):
    refuses_cleanly(xiangqi.Board, text)
    refuses_cleanly(lambda t: xiangqi.Board(t, strict=False), text)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), MOVE_TEXT))
def test_move_text(text):
    for parse in (BOARD.parse_move, BOARD.parse_wxf, BOARD.parse_chinese, BOARD.parse_uci,
                  xiangqi.Move.from_uci, xiangqi.parse_square, xiangqi.Piece):
        refuses_cleanly(parse, text)
    board = BOARD.copy()
    refuses_cleanly(board.push_text, text)
    refuses_cleanly(board.push, text)
    assert board.fen() == BOARD.fen() or len(board.move_stack) == 1


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=2000), st.text(max_size=500).map(lambda t: t.encode("utf-8"))))
def test_records(data):
    refuses_cleanly(xiangqi.read_pgn, data)
    refuses_cleanly(xiangqi.read_xqf, data)
    refuses_cleanly(xiangqi.read_xqf, b"XQ" + data)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=-(2**70), max_value=2**70))
def test_integers(a, b):
    for call in (lambda: xiangqi.Move(a, b), lambda: xiangqi.square(a, b), lambda: BOARD.piece_at(a),
                 lambda: xiangqi.square_name(a), lambda: xiangqi.Move.from_index(a)):
        try:
            call()
        except (xiangqi.XiangqiError, OverflowError):
            pass


def test_exception_hierarchy():
    for name in ("FenError", "IllegalMoveError", "NotationError", "PgnError", "XqfError"):
        cls = getattr(xiangqi, name)
        assert issubclass(cls, xiangqi.XiangqiError) and issubclass(cls, ValueError)
    with pytest.raises(xiangqi.FenError, match="ranks"):
        xiangqi.Board("rnbakabnr/9 w")
    with pytest.raises(TypeError):
        BOARD.push(3.5)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=20))
def test_names(text):
    refuses_cleanly(BOARD.outcome, text)
    refuses_cleanly(lambda name: xiangqi.Engine(level=name, hash_mb=1), text)
    refuses_cleanly(lambda name: xiangqi.Engine(rules=name, hash_mb=1), text)
    game = xiangqi.Game()
    refuses_cleanly(lambda r: setattr(game, "result", r), text)
