"""WXF and Chinese notation both ways, against Fairy-Stockfish's WXF and cchess's Chinese
(`notation.tsv`)."""

import pytest

import xiangqi_rs as xiangqi
from conftest import CORE_DATA, tsv_rows

ROWS = list(tsv_rows(CORE_DATA / "notation.tsv"))


def test_rows_are_read():
    assert len(ROWS) == 200


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}-{r[1]}" for r in ROWS])
def test_notation_pair(row):
    _, _, fen, iccs, _, chinese, chinese_ascii, wxf = row[:8]
    board = xiangqi.Board(fen)
    m = board.parse_uci(iccs)
    assert board.chinese(m) == chinese
    assert board.wxf(m) == wxf.replace("=", ".")
    assert board.parse_chinese(chinese) == m
    assert board.parse_chinese(chinese_ascii) == m
    assert board.parse_wxf(wxf) == m
    for text in (chinese, chinese_ascii, wxf, iccs):
        assert board.parse_move(text) == m


def test_every_legal_move_round_trips():
    for row in ROWS[::10]:
        board = xiangqi.Board(row[2])
        for m in board.legal_moves():
            assert board.parse_move(board.wxf(m)) == m
            assert board.parse_move(board.chinese(m)) == m


def test_push_text_in_each_notation():
    board = xiangqi.Board()
    assert board.push_text("炮二平五").uci() == "h2e2"
    assert board.push_text("H8+7").uci() == "h9g7"
    assert board.push_text("h0g2").uci() == "h0g2"
    assert board.push_text("車９平８").uci() == "i9h9"


def test_notation_errors():
    board = xiangqi.Board()
    with pytest.raises(xiangqi.NotationError, match="no legal move"):
        board.parse_move("炮二进九")
    with pytest.raises(xiangqi.NotationError):
        board.parse_wxf("")
    with pytest.raises(xiangqi.IllegalMoveError):
        board.wxf("h9g7")
