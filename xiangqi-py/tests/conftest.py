"""Shared paths and helpers: the suite reads the reference data the Rust crates test with."""

import re
from pathlib import Path
from typing import Iterator, List, Tuple

import xiangqi_rs as xiangqi

REPO = Path(__file__).resolve().parents[2]
CORE_DATA = REPO / "xiangqi-core" / "tests" / "data"
RECORDS_DATA = REPO / "xiangqi-records" / "tests" / "data"


def tsv_rows(path: Path) -> Iterator[List[str]]:
    """The rows of a tab-separated file, without comments and the header."""
    lines = [l for l in path.read_text(encoding="utf-8").splitlines() if l and not l.startswith("#")]
    for line in lines[1:]:
        yield line.split("\t")


def epd_ops(path: Path) -> Iterator[Tuple[str, dict]]:
    """(FEN, {opcode: operand}) for each line of an EPD-like file (`FEN ;op value ;...`)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fen, *ops = [part.strip() for part in line.split(";")]
        fields = {}
        for op in ops:
            name, _, value = op.partition(" ")
            fields[name] = value.strip().strip('"')
        yield fen, fields


def play(fen: str, moves: str) -> xiangqi.Board:
    board = xiangqi.Board(fen)
    for text in moves.split():
        board.push_uci(text)
    return board


_FFISH_MOVE = re.compile(r"^([a-i])(\d+)([a-i])(\d+)$")


def from_ffish(move: str) -> str:
    """Fairy-Stockfish numbers ranks 1..10; ICCS 0..9."""
    m = _FFISH_MOVE.match(move)
    assert m, move
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"
