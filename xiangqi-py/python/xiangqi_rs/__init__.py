"""Chinese chess (xiangqi): rules, notation, records and a strong engine, in Rust.

Squares are ints 0..89 (``rank * 9 + file``; ICCS files a..i from red's left, ranks 0..9
from red's back rank), colours are bools (``RED = True``), moves are ``Move`` objects
written in ICCS (``h2e2``). ``read`` loads game records of every common format (PGN,
XQF, DhtmlXQ/UBB, CBF, CBR/CBL, plain move lists) with their variations and comments;
``Tablebase`` probes endgame tables (distance to mate).

>>> import xiangqi_rs as xiangqi
>>> board = xiangqi.Board()
>>> len(board.legal_moves())
44
>>> board.push_text("炮二平五")
Move.from_uci('h2e2')
>>> board.wxf(board.parse_move("h9g7"))
'H8+7'
"""

from typing import TYPE_CHECKING, Any, Sequence

from ._xiangqi import (
    BLACK,
    MOVE_TABLE_SIZE,
    RED,
    STARTING_FEN,
    Analysis,
    Board,
    Engine,
    FenError,
    Game,
    GameNode,
    IllegalMoveError,
    Move,
    MoveReview,
    NotationError,
    Outcome,
    PgnError,
    Piece,
    RecordError,
    RecordWarning,
    Records,
    Review,
    SearchInfo,
    SearchResult,
    SideSummary,
    Tablebase,
    TablebaseError,
    XiangqiError,
    XqfError,
    __version__,
    ecco_name,
    encode_boards,
    legal_move_masks,
    move_table,
    parse_square,
    read,
    read_cbf,
    read_cbr,
    read_from_pgn,
    read_from_xqf,
    read_pgn,
    read_ubb,
    read_xqf,
    review,
    square,
    square_name,
    write,
    write_cbf,
    write_pgn,
    write_ubb,
    write_xqf,
)

if TYPE_CHECKING:
    import numpy

__all__ = [
    "BLACK",
    "MOVE_TABLE_SIZE",
    "RED",
    "STARTING_FEN",
    "Analysis",
    "Board",
    "Engine",
    "FenError",
    "Game",
    "GameNode",
    "IllegalMoveError",
    "Move",
    "MoveReview",
    "NotationError",
    "Outcome",
    "PgnError",
    "Piece",
    "RecordError",
    "RecordWarning",
    "Records",
    "Review",
    "SearchInfo",
    "SearchResult",
    "SideSummary",
    "Tablebase",
    "TablebaseError",
    "XiangqiError",
    "XqfError",
    "__version__",
    "ecco_name",
    "encode_boards",
    "legal_move_masks",
    "move_table",
    "parse_square",
    "read",
    "read_cbf",
    "read_cbr",
    "read_from_pgn",
    "read_from_xqf",
    "read_pgn",
    "read_ubb",
    "read_xqf",
    "review",
    "square",
    "square_name",
    "to_numpy",
    "write",
    "write_cbf",
    "write_pgn",
    "write_ubb",
    "write_xqf",
]


def _numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("xiangqi_rs.to_numpy needs NumPy: pip install numpy") from e
    return numpy


def to_numpy(boards: "Board | Sequence[Board]") -> "numpy.ndarray":
    """The piece codes as a NumPy ``uint8`` array: shape ``(10, 9)`` for one board,
    ``(n, 10, 9)`` for a sequence (row 0 is rank 9, as ``Board.piece_codes`` orders them).
    The array is a read-only view of the bytes, not a copy."""
    np = _numpy()
    if isinstance(boards, Board):
        return np.frombuffer(boards.piece_codes(), dtype=np.uint8).reshape(10, 9)
    data = encode_boards(list(boards))
    return np.frombuffer(data, dtype=np.uint8).reshape(-1, 10, 9)
