"""Endgame tablebases: small tables generated here into a temporary folder, their values
checked against positions worked out by hand and against Fairy-Stockfish (pyffish) and
cchess, which know the rules but nothing of the tables."""

import random
import shutil
import struct

import cchess
import pyffish
import pytest

import xiangqi_rs as xiangqi

# Chariot, horse and pawn against advisors, with what their captures lead into; each table
# takes well under a second.
ENDINGS = ["krka", "knka", "kpkaa"]

# Red mates in one: the chariot goes to the d-file (a1d1); e9 is covered by the red general
# along the open e-file, d8 by the chariot, and the advisor on f7 cannot interpose.
MATE_IN_ONE = "3k5/9/5a3/9/9/9/9/9/R8/4K4 w - - 0 1"
# Black to move takes the unprotected chariot with the general: bare generals, a draw. Any
# other move (f9) leaves chariot against general, which red wins.
KING_TAKES = "4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1"
# Black's only legal move is the advisor taking the chariot on e8 (the general is boxed in
# by it): a draw.
ADVISOR_TAKES = "3k1a3/4R4/9/9/9/9/9/9/9/5K3 b - - 0 1"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("egtb")
    xiangqi.Tablebase.generate(ENDINGS, path)
    return path


@pytest.fixture(scope="module")
def tb(folder):
    return xiangqi.Tablebase(folder)


@pytest.fixture(scope="module")
def rule_tb(tmp_path_factory):
    """Chariot against horse (车对马, with krk and knk): both sides have an attacking
    piece, so the table follows the perpetual-check rule and values some positions by it.
    Well under a second."""
    return xiangqi.Tablebase.generate("krkn", tmp_path_factory.mktemp("egtb-rule"))


def rule_value(result):
    return {"result": result, "plies": None, "by_rule": True}


def preference(value):
    """The order of `moves`: quicker mates, wins by the rule, draws, losses by the rule,
    slower mates (ranks within the rule values are not given)."""
    if value["by_rule"]:
        return 1 if value["result"] == "win" else -1
    return {"win": 1000 - (value["plies"] or 0), "draw": 0, "loss": -1000 + (value["plies"] or 0)}[
        value["result"]]


def swap_colours(fen):
    """The same position with the colours swapped: the board turned round (ranks and files
    reversed), the case of every piece swapped, the other side to move."""
    placement, side, *rest = fen.split()
    rows = ["".join(reversed(row)).swapcase() for row in reversed(placement.split("/"))]
    return " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])


def pyffish_mated(fen):
    """Fairy-Stockfish: the side to move has no legal move and has lost."""
    return (not pyffish.legal_moves("xiangqi", fen, [])
            and pyffish.game_result("xiangqi", fen, []) == -32000)


def cchess_no_moves(fen):
    return cchess.ChessBoard(fen).no_moves()


def test_generate_writes_the_endings_and_what_they_need(folder, tb):
    needed = {"krka", "krk", "knka", "knk", "kpkaa", "kpka", "kpk"}
    assert needed <= set(tb.materials)
    assert tb.materials == sorted(tb.materials)
    for name in needed:
        assert (folder / f"{name}.xqtb").is_file()
        assert tb.has(name)
    assert tb.has("KAKR")                      # either side first, any case
    assert not tb.has("kckaa")
    assert str(tb.path) == str(folder)
    assert xiangqi.Tablebase(str(folder)).materials == tb.materials
    assert "tables=" in repr(tb)
    # Generating again keeps what is there and answers the same.
    again = xiangqi.Tablebase.generate("krka", folder)
    assert again.materials == tb.materials


def test_names():
    assert xiangqi.Tablebase.ending_name("KAAKR") == "krkaa"
    assert xiangqi.Tablebase.chinese_name("krkaabb") == "车对士象全"
    assert xiangqi.Tablebase.chinese_name("knka") == "马对单士"
    assert xiangqi.Tablebase.ending(xiangqi.Board(MATE_IN_ONE)) == "krka"
    assert xiangqi.Tablebase.ending(xiangqi.Board(swap_colours(MATE_IN_ONE))) == "krka"
    starter = xiangqi.Tablebase.starter_endings()
    assert len(starter) == 36 and "krkaabb" in starter and "kpk" in starter
    for bad in ["", "kr", "krkx", "kkk"]:
        with pytest.raises(xiangqi.TablebaseError):
            xiangqi.Tablebase.ending_name(bad)


def test_mate_in_one(tb):
    board = xiangqi.Board(MATE_IN_ONE)
    assert tb.probe_wdl(board) == "win"
    assert tb.probe_dtm(board) == 1
    assert tb.probe(board) == {"result": "win", "plies": 1, "by_rule": False}
    mate = xiangqi.Move.from_uci("a1d1")
    assert tb.best_move(board) == mate
    moves = tb.moves(board)
    assert moves[0] == (mate, 1)
    assert sorted(m for m, _ in moves) == sorted(board.legal_moves())
    assert [m for m, v in moves if v == 1] == [mate]     # the only mate in one
    board.push(mate)
    assert board.is_checkmate()
    # Mated: a loss at distance 0, nothing to play, and Fairy-Stockfish agrees.
    assert tb.probe_wdl(board) == "loss"
    assert tb.probe_dtm(board) == 0
    assert tb.probe(board) == {"result": "loss", "plies": 0, "by_rule": False}
    assert tb.moves(board) == [] and tb.probe_moves(board) == []
    assert tb.best_move(board) is None
    assert pyffish_mated(board.fen()) and cchess_no_moves(board.fen())


def test_colours_swapped_and_mirrored_agree(tb):
    swapped = xiangqi.Board(swap_colours(MATE_IN_ONE))
    assert tb.probe_dtm(swapped) == 1
    assert tb.best_move(swapped) == xiangqi.Move.from_uci("i8f8")
    mirrored = xiangqi.Board(MATE_IN_ONE).mirror()
    assert tb.probe_dtm(mirrored) == 1
    assert tb.best_move(mirrored) == xiangqi.Move.from_uci("a1d1").mirror()


def test_the_defender_takes_the_attacker(tb):
    board = xiangqi.Board(KING_TAKES)
    assert tb.probe_wdl(board) == "draw" and tb.probe_dtm(board) == 0
    assert tb.probe(board) == {"result": "draw", "plies": None, "by_rule": False}
    assert tb.best_move(board) == xiangqi.Move.from_uci("e9e8")
    values = dict(tb.moves(board))
    assert values[xiangqi.Move.from_uci("e9e8")] == 0
    # Running away leaves chariot against general: lost, an even number of plies to mate.
    away = values[xiangqi.Move.from_uci("e9f9")]
    assert away < 0 and away % 2 == 0

    board = xiangqi.Board(ADVISOR_TAKES)
    take = xiangqi.Move.from_uci("f9e8")
    assert board.legal_moves() == [take]
    assert tb.probe_wdl(board) == "draw" and tb.moves(board) == [(take, 0)]
    # The capture leads into advisor against general, where nobody can attack.
    board.push(take)
    assert tb.probe_wdl(board) == "draw"
    assert board.outcome() is not None and board.outcome().termination == "no_attacking_material"


def test_no_table_gives_none(tb):
    for board in [xiangqi.Board(), xiangqi.Board("3k5/9/5a3/9/9/9/9/9/R8/2C1K4 w - - 0 1")]:
        assert tb.probe_wdl(board) is None
        assert tb.probe_dtm(board) is None
        assert tb.probe(board) is None
        assert tb.moves(board) is None
        assert tb.probe_moves(board) is None
        assert tb.best_move(board) is None
    assert tb.random_position("kckaa") is None


def test_empty_folder_knows_only_dead_draws(tmp_path):
    tb = xiangqi.Tablebase(tmp_path)
    assert tb.materials == []
    assert tb.probe_dtm(xiangqi.Board(MATE_IN_ONE)) is None
    bare = xiangqi.Board("3ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1")
    assert tb.probe_wdl(bare) == "draw" and tb.probe_dtm(bare) == 0


def test_best_play_counts_down_to_mate(tb):
    for ending in ENDINGS:
        for seed in range(3):
            board = tb.random_position(ending, "win", seed, min_plies=7)
            assert board is not None, (ending, seed)
            dtm = start = tb.probe_dtm(board)
            assert dtm >= 7 and dtm % 2 == 1
            plies = 0
            while dtm != 0:
                move = tb.best_move(board)
                board.push(move)
                plies += 1
                after = tb.probe_dtm(board)
                # The winner comes one ply nearer to mate; so does the loser, as slowly as it can.
                assert after == (-(dtm - 1) if dtm > 0 else -dtm - 1), (board.fen(), dtm, after)
                dtm = after
            assert tb.probe_wdl(board) == "loss" and board.no_moves()
            assert plies == start
            assert pyffish_mated(board.fen()) and cchess_no_moves(board.fen())


def test_move_values_agree_with_the_positions_they_lead_to(tb):
    for ending in ENDINGS:
        for seed in range(4):
            board = tb.random_position(ending, None, seed)
            moves = tb.moves(board)
            if not moves:
                continue
            values = [v for _, v in moves]
            # A position is worth its best move.
            assert tb.probe_dtm(board) == values[0]
            # probe_moves gives the same moves with the same values, as dicts.
            detailed = tb.probe_moves(board)
            assert [m for m, _ in detailed] == [m for m, _ in moves]
            assert detailed[0][1] == tb.probe(board)
            for (_, v), (_, d) in zip(moves, detailed):
                assert not d["by_rule"]
                assert v == {"win": d["plies"], "draw": 0, "loss": -(d["plies"] or 0)}[d["result"]]
            for move, value in moves:
                after = board.copy()
                after.push(move)
                wdl, dtm = tb.probe_wdl(after), tb.probe_dtm(after)
                expected = {"draw": 0, "loss": -dtm + 1, "win": -(dtm + 1)}[wdl]
                assert value == expected, (board.fen(), move, value, wdl, dtm)
            # Best first: quickest wins, then draws, then the slowest losses.
            key = [(1, -v) if v > 0 else (0, 0) if v == 0 else (-1, -v) for v in values]
            assert key == sorted(key, reverse=True)


def test_mates_in_one_agree_with_pyffish(tb):
    """Every move the table values 1 mates by Fairy-Stockfish; a few that it values
    otherwise do not."""
    rng = random.Random(7)
    mates = others = 0
    for ending in ENDINGS:
        for seed in range(40):
            board = tb.random_position(ending, "win", seed)
            for move, value in tb.moves(board):
                if value != 1 and rng.random() > 0.2:
                    continue
                after = board.copy()
                after.push(move)
                assert pyffish_mated(after.fen()) == (value == 1), (board.fen(), move, value)
                mates += value == 1
                others += value != 1
    assert mates >= 20 and others >= 100


def test_random_position(tb):
    a = tb.random_position("krka", "win", 5)
    b = tb.random_position("KAKR", result="win", seed=5)
    assert a is not None and a.fen() == b.fen()
    assert a.turn == xiangqi.RED and xiangqi.Tablebase.ending(a) == "krka"
    assert tb.probe_wdl(a) == "win"
    far = tb.random_position("knka", "win", 1, min_plies=15)
    assert far is not None and tb.probe_dtm(far) >= 15
    # Red to move always saves its chariot: no drawn position of krka with red to move; a
    # pawn against two advisors is mostly a draw.
    assert tb.random_position("krka", "draw", 3) is None
    drawn = tb.random_position("kpkaa", "draw", 3)
    assert drawn is not None and tb.probe_wdl(drawn) == "draw"
    anything = {tb.probe_wdl(tb.random_position(e, None, s)) for e in ENDINGS for s in range(10)}
    assert anything == {"win", "draw"}
    assert len({tb.random_position("krka", "win", s).fen() for s in range(10)}) > 5
    with pytest.raises(ValueError):
        tb.random_position("krka", "lost")
    with pytest.raises(ValueError):
        tb.random_position("krka", "draw", min_plies=3)
    with pytest.raises(xiangqi.TablebaseError):
        tb.random_position("krkx")
    # No side can give perpetual check with one attacker: no value by the rule here.
    assert tb.random_position("krka", "win", 0, by_rule=True) is None
    assert tb.probe(tb.random_position("krka", "win", 0, by_rule=False))["by_rule"] is False
    for bad in [dict(result="draw"), dict(min_plies=3)]:
        with pytest.raises(ValueError):
            tb.random_position("krka", seed=0, by_rule=True, **bad)


def test_values_by_the_perpetual_check_rule(rule_tb):
    """In 车对马 red wins many positions only by the rule (black can hold only by checking
    with its horse for ever): a win without a distance, which `probe` tells apart from a
    missing table, the moves valued the same way, and the table's best moves for both sides
    played out under the Asian rules end in red's win."""
    tb = rule_tb
    assert {"krkn", "krk", "knk"} <= set(tb.materials)
    rule_moves = 0
    violations = set()
    for seed in range(3):
        board = tb.random_position("krkn", "win", seed, by_rule=True)
        assert board is not None and board.turn == xiangqi.RED, seed
        assert tb.probe(board) == rule_value("win")
        assert tb.probe_wdl(board) == "win"
        assert tb.probe_dtm(board) is None           # no distance, but a table
        moves, detailed = tb.moves(board), tb.probe_moves(board)
        assert [m for m, _ in detailed] == [m for m, _ in moves]
        assert sorted(m for m, _ in moves) == sorted(board.legal_moves())
        # Best first, the best worth the position; no mate in a position won by the rule.
        best = tb.best_move(board)
        assert detailed[0] == (best, rule_value("win"))
        assert [preference(v) for _, v in detailed] == sorted(
            (preference(v) for _, v in detailed), reverse=True)
        assert not any(v["result"] == "win" and not v["by_rule"] for _, v in detailed)
        for (move, dtm), (_, value) in zip(moves, detailed):
            # moves() keeps its ints: a value by the rule is None there.
            if value["by_rule"]:
                assert dtm is None
                rule_moves += 1
            else:
                assert dtm == {"win": value["plies"], "draw": 0,
                               "loss": -(value["plies"] or 0)}[value["result"]]
            # Each value is the flip of the position the move leads to, the rule kept.
            after = board.copy()
            after.push(move)
            then = tb.probe(after)
            assert then["by_rule"] == value["by_rule"], (board.fen(), move)
            assert then["result"] == {"win": "loss", "draw": "draw", "loss": "win"}[value["result"]]
            assert value["plies"] == (None if then["plies"] is None else then["plies"] + 1)
        # After the best move black, to move, loses by the rule.
        after = board.copy()
        after.push(best)
        assert tb.probe(after) == rule_value("loss")
        assert tb.probe_wdl(after) == "loss" and tb.probe_dtm(after) is None
        assert tb.probe_moves(after)[0][1] == rule_value("loss")
        # The table's moves for both sides, under the Asian rules: red wins (black loses by
        # perpetual check, or is mated after a capture that leaves it no defence).
        game = board.copy()
        for _ in range(1000):
            if game.outcome() is not None:
                break
            game.push(tb.best_move(game))
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == xiangqi.RED, (board.fen(), outcome)
        violations.add(outcome.violation)
    assert rule_moves >= 3
    assert "perpetual_check" in violations
    # The same table's wins by mate keep their distance.
    mate = tb.random_position("krkn", "win", 1, by_rule=False, min_plies=3)
    value = tb.probe(mate)
    assert value["result"] == "win" and not value["by_rule"] and value["plies"] >= 3
    assert tb.probe_dtm(mate) == value["plies"]


def test_missing_folder(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError) as e:
        xiangqi.Tablebase(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(xiangqi.TablebaseError):
        xiangqi.Tablebase.generate(["krkz"], tmp_path)
    with pytest.raises(TypeError):
        xiangqi.Tablebase.generate(42, tmp_path)


def test_damaged_tables_raise_naming_the_file(folder, tmp_path):
    # Every compressed block spoilt: the header opens, the first probe fails its checksum.
    blocks = tmp_path / "blocks"
    blocks.mkdir()
    path = blocks / "krk.xqtb"
    shutil.copy(folder / "krk.xqtb", path)
    data = bytearray(path.read_bytes())
    (nblocks,) = struct.unpack_from("<I", data, 58)
    start = 64 + 2 * nblocks * 16 + 4
    for i in range(start, len(data)):
        data[i] ^= 0xA5
    path.write_bytes(bytes(data))
    tb = xiangqi.Tablebase(blocks)
    with pytest.raises(xiangqi.TablebaseError) as e:
        tb.probe_dtm(xiangqi.Board(KING_TAKES))
    assert "krk.xqtb" in str(e.value) and e.value.path == str(path)
    assert isinstance(e.value, ValueError)

    # A damaged header, a file cut short and a file that is no table fail when opened.
    for name, spoil in [
        ("header", lambda d: d[:20] + bytes([d[20] ^ 1]) + d[21:]),
        ("short", lambda d: d[:40]),
        ("junk", lambda d: b"not a table at all" * 10),
    ]:
        sub = tmp_path / name
        sub.mkdir()
        target = sub / "krk.xqtb"
        target.write_bytes(spoil((folder / "krk.xqtb").read_bytes()))
        with pytest.raises(xiangqi.TablebaseError) as e:
            xiangqi.Tablebase(sub)
        assert e.value.path == str(target) and "krk.xqtb" in str(e.value)


def test_default_folder_generates_the_starter_set(tmp_path, monkeypatch):
    """`Tablebase()` makes the starter set in `$XIANGQI_EGTB_DIR` the first time, then
    opens it as it is."""
    monkeypatch.setenv("XIANGQI_EGTB_DIR", str(tmp_path))
    assert xiangqi.Tablebase.default_path() == tmp_path
    tb = xiangqi.Tablebase()
    assert str(tb.path) == str(tmp_path)
    assert set(xiangqi.Tablebase.starter_endings()) <= set(tb.materials)
    assert tb.probe_dtm(xiangqi.Board(MATE_IN_ONE)) == 1
    assert len(xiangqi.Tablebase().materials) == len(tb.materials)
