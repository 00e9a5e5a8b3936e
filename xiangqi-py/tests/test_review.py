"""Game review: a won position thrown away in one move is the one blunder, the summary
counts it, the annotated PGN carries `??`, the comment and the better line, and a
progress callback streams each move and can stop the review."""

import pytest

import xiangqi_rs as xiangqi

# Red, a chariot up, leaves a chariot where the black chariot takes it for nothing (b6b7??).
THROWN = "3aka3/9/r8/9/9/9/9/1R6R/9/3K5 w"
MOVES = ["i2e2", "f9e8", "b2b6", "a7g7", "b6b7", "g7b7"]


def thrown_board():
    board = xiangqi.Board(THROWN)
    for m in MOVES:
        board.push_uci(m)
    return board


@pytest.fixture(scope="module")
def reviewed():
    return xiangqi.review(thrown_board(), depth=6)


def test_the_thrown_win_is_the_blunder(reviewed):
    assert reviewed.complete
    assert [m.ply for m in reviewed.moves] == [1, 2, 3, 4, 5, 6]
    assert [m.move.uci() for m in reviewed.moves] == MOVES
    assert [m.color for m in reviewed.moves] == [xiangqi.RED, xiangqi.BLACK] * 3
    blunder = reviewed.moves[4]
    assert blunder.classification == "blunder" and blunder.nag == 4
    assert blunder.loss >= 30 and blunder.cp_loss >= 500
    assert blunder.best is not None and blunder.best != blunder.move
    assert blunder.best_line[0] == blunder.best
    for m in reviewed.moves[:4] + reviewed.moves[5:]:
        assert m.classification in ("best", "good"), m
        assert m.nag is None
        assert m.loss >= 0
    for m in reviewed.moves:
        if m.classification == "best":
            assert m.best == m.move and m.loss == 0


def test_summary_per_side(reviewed):
    red, black = reviewed.red, reviewed.black
    assert (red.moves, red.blunders) == (3, 1)
    assert (black.moves, black.blunders) == (3, 0)
    for s in (red, black):
        assert s.best + s.good + s.inaccuracies + s.mistakes + s.blunders == s.moves
    assert red.average_loss > black.average_loss
    assert red.average_cp_loss > 0
    assert reviewed.summary(xiangqi.RED).blunders == 1
    assert reviewed.thresholds == {"inaccuracy": 10.0, "mistake": 20.0, "blunder": 30.0}


def test_the_annotated_pgn(reviewed):
    text = reviewed.pgn()
    assert "$4" in text or "??" in text
    assert "Blunder (-" in text and "Best: " in text
    assert "(" in text, "the better line as a variation"
    game = xiangqi.read_pgn(text)[0]
    assert [m.uci() for m in game.mainline_moves()] == MOVES
    node = game.mainline()[4]
    assert 4 in node.nags
    assert "Blunder" in node.comment
    assert len(game.mainline()[3].variations) == 2, "the move played and the engine's"
    assert reviewed.game().mainline_moves() == game.mainline_moves()


def test_a_record_is_reviewed_by_its_main_line():
    record = xiangqi.Game(thrown_board())
    record.add_comment(5, "kept")
    result = xiangqi.review(record, depth=6)
    assert [m.move.uci() for m in result.moves] == MOVES
    comment = result.game().mainline()[4].comment
    assert comment.startswith("kept") and "Blunder" in comment
    assert record.mainline()[4].nags == [], "the reviewed record is unchanged"


def test_progress_streams_and_can_stop():
    seen = []
    xiangqi.review(thrown_board(), depth=4, progress=seen.append)
    assert [m.ply for m in seen] == [1, 2, 3, 4, 5, 6]

    class Enough(Exception):
        pass

    def stop_after_two(m):
        if m.ply == 2:
            raise Enough

    with pytest.raises(Enough):
        xiangqi.review(thrown_board(), depth=4, progress=stop_after_two)


def test_bad_arguments():
    with pytest.raises(ValueError):
        xiangqi.review(thrown_board(), depth=0)
    with pytest.raises(ValueError):
        xiangqi.review(thrown_board(), movetime=-1)
    with pytest.raises(ValueError):
        xiangqi.review(thrown_board(), depth=4, rules="nope")
    with pytest.raises(TypeError):
        xiangqi.review("h2e2", depth=4)


def test_with_an_engine_and_no_moves():
    engine = xiangqi.Engine(evaluator="classical")
    result = xiangqi.review(xiangqi.Board(), depth=3, engine=engine)
    assert result.moves == [] and result.complete
    assert result.red.moves == 0 and result.red.average_loss == 0
