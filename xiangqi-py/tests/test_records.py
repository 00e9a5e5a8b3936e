"""PGN and XQF records, checked against cchess's readers where it can read the file."""

import cchess
import pytest

import xiangqi_rs as xiangqi
from conftest import RECORDS_DATA

XQF_SAMPLE = RECORDS_DATA / "xqf10_sample_1997.xqf"


def uci(moves):
    return [m.uci() for m in moves]


def test_xqf_agrees_with_cchess():
    ours = xiangqi.read_xqf(XQF_SAMPLE.read_bytes())
    theirs = cchess.read_from_xqf(str(XQF_SAMPLE))
    assert uci(ours.moves) == theirs.dump_iccs_moves()[0]
    assert ours.result == theirs.info["result"] == "0-1"
    assert ours.tag("Red") == theirs.info["red"] == "柳大华"
    assert ours.tag("Black") == theirs.info["black"]
    assert xiangqi.read_from_xqf(XQF_SAMPLE).moves == ours.moves


def test_pgn_first_game_agrees_with_cchess():
    path = RECORDS_DATA / "pgn_utf8_chinese_multigame_noresult.pgn"
    theirs = cchess.read_from_pgn(str(path))
    ours = xiangqi.read_from_pgn(path)[0]
    assert uci(ours.moves) == theirs.dump_iccs_moves()[0]
    assert ours.tag("Red") == theirs.info["red"]


def test_three_notations_give_the_same_games():
    chinese = xiangqi.read_pgn((RECORDS_DATA / "pgn_utf8_chinese_multigame_noresult.pgn").read_bytes())
    wxf = xiangqi.read_pgn((RECORDS_DATA / "pgn_utf8_fullwidth_wxf_multigame.pgn").read_text("utf-8"))
    iccs = xiangqi.read_from_pgn(RECORDS_DATA / "pgn_ascii_iccs_nodash_multigame.pgn")
    assert len(chinese) == len(wxf) == len(iccs) == 15
    for i, (c, w, a) in enumerate(zip(chinese, wxf, iccs)):
        assert c.moves == w.moves
        if i != 1:  # game 2 carries an upstream conversion error in the ICCS file
            assert c.moves == a.moves


def test_big5_records():
    (trad,) = xiangqi.read_from_pgn(RECORDS_DATA / "pgn_big5_trad_front_back.pgn")
    assert len(trad.moves) == 68 and trad.result == "0-1"
    assert trad.tag("Red") == "河北馬國樑" and trad.headers["ECCO"] == "D30"
    (endgame,) = xiangqi.read_from_pgn(RECORDS_DATA / "pgn_big5_endgame_black_first.pgn")
    assert len(endgame.moves) == 43 and endgame.start_board().turn is xiangqi.BLACK


def test_xqbase_example_reaches_the_independent_final_position():
    (game,) = xiangqi.read_from_pgn(RECORDS_DATA / "xqbase_spec_example.pgn")
    assert game.board().board_fen() == "2R6/5k2C/n8/p1p5p/6b2/6p2/9/9/9/4K4"
    assert game.board().turn is xiangqi.BLACK


def test_write_then_read():
    board = xiangqi.Board()
    for text in ["h2e2", "h9g7", "h0g2", "i9h9"]:
        board.push_uci(text)
    game = xiangqi.Game(board)
    game.set_tag("Red", "许银川")
    game.result = "1/2-1/2"
    game.add_comment(1, "中炮")
    for fmt in ("Chinese", "WXF", "ICCS"):
        game.set_tag("Format", fmt)
        (back,) = xiangqi.read_pgn(xiangqi.write_pgn(game))
        assert back.moves == game.moves and back.result == "1/2-1/2"
        assert back.tag("red") == "许银川" and back.comments == [(1, "中炮")]
    assert game.board().fen() == board.fen()
    with pytest.raises(ValueError):
        game.result = "2-0"
    with pytest.raises(ValueError):
        game.add_comment(5, "past the end")


def test_record_errors_say_where():
    with pytest.raises(xiangqi.PgnError, match="line 2"):
        xiangqi.read_pgn('[Game "Chinese Chess"]\n1. h2e2 h2e2\n')
    with pytest.raises(xiangqi.XqfError):
        xiangqi.read_xqf(b"XQ" + bytes(10))
    with pytest.raises(TypeError):
        xiangqi.read_pgn(42)
    assert issubclass(xiangqi.PgnError, ValueError) and issubclass(xiangqi.XqfError, ValueError)
