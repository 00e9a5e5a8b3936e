"""The ML encodings: the fixed move table, piece codes and legal-move masks."""

import random

import pytest

import xiangqi_rs as xiangqi


def test_move_table_shape():
    table = xiangqi.move_table()
    assert len(table) == xiangqi.MOVE_TABLE_SIZE == 2086
    assert len(set(table)) == len(table)
    assert table == sorted(table, key=lambda m: (m.from_square, m.to_square))
    for i in (0, 1000, 2085):
        assert table[i].index == i and xiangqi.Move.from_index(i) == table[i]
    with pytest.raises(ValueError):
        xiangqi.Move.from_index(2086)
    assert xiangqi.Move.from_uci("a0b1").index is None  # no piece moves so


def random_boards(n, seed=7):
    rng = random.Random(seed)
    board = xiangqi.Board()
    out = []
    while len(out) < n:
        moves = board.legal_moves()
        if not moves or len(board.move_stack) > 120:
            board = xiangqi.Board()
            continue
        board.push(rng.choice(moves))
        out.append(board.copy())
    return out


def test_every_legal_move_is_in_the_table():
    for board in random_boards(500):
        indices = board.legal_move_indices()
        assert indices == sorted(m.index for m in board.legal_moves())
        mask = board.legal_move_mask()
        assert [i for i, bit in enumerate(mask) if bit] == indices


def fen_codes(fen):
    order = "KABNRCP"
    codes = []
    for row in fen.split()[0].split("/"):
        for ch in row:
            if ch.isdigit():
                codes += [0] * int(ch)
            else:
                code = order.index(ch.upper()) + 1
                codes.append(code if ch.isupper() else code + 7)
    return bytes(codes)


def test_piece_codes_follow_the_fen():
    boards = random_boards(200, seed=3)
    for board in boards:
        assert board.piece_codes() == fen_codes(board.fen())
    assert xiangqi.encode_boards(boards) == b"".join(b.piece_codes() for b in boards)
    masks = xiangqi.legal_move_masks(boards)
    assert len(masks) == len(boards) * 2086
    assert masks[2086:4172] == boards[1].legal_move_mask()


def test_numpy_view():
    np = pytest.importorskip("numpy")
    board = xiangqi.Board()
    array = xiangqi.to_numpy(board)
    assert array.shape == (10, 9) and array.dtype == np.uint8
    assert array[0, 4] == 8 and array[9, 4] == 1  # black general top, red general bottom
    assert xiangqi.to_numpy([board, board]).shape == (2, 10, 9)


def test_move_table_kinds():
    kinds = {"line": 0, "horse": 0, "advisor": 0, "elephant": 0}
    for m in xiangqi.move_table():
        df = abs(m.to_square % 9 - m.from_square % 9)
        dr = abs(m.to_square // 9 - m.from_square // 9)
        kind = "line" if df == 0 or dr == 0 else "horse" if {df, dr} == {1, 2} else "advisor" if df == 1 else "elephant"
        kinds[kind] += 1
    assert kinds == {"line": 90 * 17, "horse": 508, "advisor": 16, "elephant": 32}
