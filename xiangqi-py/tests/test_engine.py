"""The engine: the mates of `mates.epd`, info per iteration, the GIL released, stop from
another thread."""

import threading
import time

import pytest

import xiangqi_rs as xiangqi
from conftest import CORE_DATA, REPO, epd_ops

MATES = list(epd_ops(CORE_DATA / "mates.epd"))


def test_mates_are_read():
    assert len(MATES) >= 16


@pytest.fixture(scope="module")
def engine():
    return xiangqi.Engine(threads=1, hash_mb=16)


@pytest.mark.parametrize("fen,ops", MATES, ids=[ops.get("id", "") for _, ops in MATES])
def test_finds_the_mate(engine, fen, ops):
    engine.new_game()
    result = engine.search(xiangqi.Board(fen), nodes=300_000)
    assert result.best_move.uci() in ops["bm"].split()
    assert result.mate == int(ops["dm"])
    assert result.pv[0] == result.best_move


def test_info_per_iteration(engine):
    infos = []
    result = engine.search(xiangqi.Board(), depth=6, info=infos.append)
    assert [i.depth for i in infos] == list(range(1, 7))
    assert all(i.nodes > 0 and i.pv and i.multipv == 1 for i in infos)
    assert result.depth == 6 and result.best_move in xiangqi.Board().legal_moves()
    assert result.nodes >= infos[-1].nodes


def test_multipv(engine):
    infos = []
    engine.search(xiangqi.Board(), depth=3, multipv=3, info=infos.append)
    assert {i.multipv for i in infos if i.depth == 3} == {1, 2, 3}


def test_callback_exception_stops_and_is_raised(engine):
    def boom(info):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        engine.search(xiangqi.Board(), depth=30, info=boom)


def test_gil_released_and_stop_from_another_thread():
    engine = xiangqi.Engine()
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.005)

    def stopper():
        time.sleep(0.3)
        engine.stop()

    threads = [threading.Thread(target=ticker), threading.Thread(target=stopper)]
    for t in threads:
        t.start()
    start = time.monotonic()
    result = engine.search(xiangqi.Board(), infinite=True)
    elapsed = time.monotonic() - start
    done.set()
    for t in threads:
        t.join()
    assert result.best_move is not None
    assert elapsed < 10
    assert len(ticks) > 10  # Python threads ran while the search held no GIL


def test_analysis_iterator():
    engine = xiangqi.Engine(threads=2)
    analysis = engine.analysis(xiangqi.Board(), depth=5)
    assert analysis.result is None
    depths = [info.depth for info in analysis]
    assert depths == [1, 2, 3, 4, 5]
    assert analysis.result.depth == 5


def test_analysis_stop():
    engine = xiangqi.Engine()
    analysis = engine.analysis(xiangqi.Board(), infinite=True)
    first = next(analysis)
    analysis.stop()
    rest = list(analysis)
    assert first.depth == 1 and analysis.result.best_move is not None
    assert len(rest) < 200


def test_levels_and_errors():
    assert xiangqi.Engine.levels()[0] == "beginner" and "full" in xiangqi.Engine.levels()
    weak = xiangqi.Engine(level="beginner")
    assert weak.search(xiangqi.Board(), depth=10).nodes <= 2_000
    with pytest.raises(ValueError, match="levels"):
        xiangqi.Engine(level="grandmaster")
    with pytest.raises(ValueError):
        xiangqi.Engine(threads=0)
    assert weak.search(xiangqi.Board()).best_move is not None  # the level caps the search
    with pytest.raises(ValueError, match="limit"):
        xiangqi.Engine().search(xiangqi.Board())
    with pytest.raises(ValueError):
        weak.search(xiangqi.Board(), nodes=0)
    with pytest.raises(ValueError):
        weak.search(xiangqi.Board(), movetime=-1.0)


def test_no_legal_move():
    mated = xiangqi.Board("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert xiangqi.Engine().search(mated, depth=3).best_move is None


def test_keyboard_interrupt_stops_a_search():
    import _thread
    import signal

    engine = xiangqi.Engine()
    # A process started in the background by a shell (nohup, `&`) inherits SIGINT ignored,
    # and then interrupt_main() does nothing: Python's own handler for the test's span.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.3, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.search(xiangqi.Board(), infinite=True)
        assert time.monotonic() - start < 30
    finally:
        signal.signal(signal.SIGINT, previous)


def test_dropped_analysis_stops_its_search():
    engine = xiangqi.Engine()
    analysis = engine.analysis(xiangqi.Board(), infinite=True)
    next(analysis)
    del analysis
    start = time.monotonic()
    assert engine.search(xiangqi.Board(), depth=2).best_move is not None  # the engine is free
    assert time.monotonic() - start < 30


NET = REPO / "xiangqi-nnue" / "nets" / "default.nnue"
OPENING = ["h2e2", "h9g7", "h0g2", "i9h9"]


def opening_board():
    board = xiangqi.Board()
    for m in OPENING:
        board.push(m)
    return board


def test_evaluator_choice():
    board = opening_board()
    nnue = xiangqi.Engine()
    assert nnue.evaluator == "nnue"
    classical = xiangqi.Engine(evaluator="classical")
    assert classical.evaluator == "classical"
    a = nnue.search(board, depth=6)
    b = classical.search(board, depth=6)
    assert (a.score, a.nodes) != (b.score, b.nodes)
    # The repository's net file is the built-in net: the same search, node for node.
    from_file = xiangqi.Engine(eval_file=NET)
    assert from_file.evaluator == "nnue"
    c = from_file.search(board, depth=6)
    assert (c.best_move, c.score, c.nodes) == (a.best_move, a.score, a.nodes)
    assert xiangqi.Engine(eval_file=str(NET)).search(board, depth=6).nodes == a.nodes


def test_bad_evaluator_arguments(tmp_path):
    with pytest.raises(xiangqi.XiangqiError, match="evaluators: nnue, classical"):
        xiangqi.Engine(evaluator="neural")
    with pytest.raises(xiangqi.XiangqiError, match="takes none"):
        xiangqi.Engine(evaluator="classical", eval_file=NET)
    with pytest.raises(FileNotFoundError, match="cannot read the net"):
        xiangqi.Engine(eval_file=tmp_path / "missing.nnue")
    garbage = tmp_path / "garbage.nnue"
    garbage.write_bytes(b"not a net at all")
    with pytest.raises(xiangqi.XiangqiError, match="garbage.nnue"):
        xiangqi.Engine(eval_file=garbage)
    damaged = bytearray(NET.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    broken = tmp_path / "damaged.nnue"
    broken.write_bytes(bytes(damaged))
    with pytest.raises(xiangqi.XiangqiError, match="damaged.nnue"):
        xiangqi.Engine(eval_file=broken)
