//! Squares, colours, pieces and moves as Python sees them.
//!
//! A square is an `int` 0..=89, `rank * 9 + file` (ICCS: files `a`..`i` from red's left,
//! ranks `0`..`9` from red's back rank); a colour is a `bool`, `RED = True`.

use crate::errors::value_error;
use pyo3::prelude::*;
use xiangqi_core::{Color, Piece as CorePiece, Square};

/// The colour as Python's `bool` (`RED = True`).
pub fn color_to_py(color: Color) -> bool {
    color == Color::Red
}

/// `square` checked to be 0..=89.
pub fn square_arg(square: i64) -> PyResult<Square> {
    u8::try_from(square)
        .ok()
        .and_then(Square::new)
        .ok_or_else(|| value_error(format!("square {square} is not in 0..=89")))
}

/// The square index of `file` (0..=8) and `rank` (0..=9).
#[pyfunction]
pub fn square(file: i64, rank: i64) -> PyResult<u8> {
    if !(0..9).contains(&file) || !(0..10).contains(&rank) {
        return Err(value_error(format!(
            "file {file} / rank {rank} is off the board (files 0..=8, ranks 0..=9)"
        )));
    }
    Ok((rank * 9 + file) as u8)
}

/// The ICCS name of a square: `square_name(4) == "e0"`.
#[pyfunction]
pub fn square_name(square: i64) -> PyResult<String> {
    Ok(square_arg(square)?.to_string())
}

/// The square named `name` (`"e0"`, case-insensitive).
#[pyfunction]
pub fn parse_square(name: &str) -> PyResult<u8> {
    Square::from_iccs(&name.to_ascii_lowercase())
        .map(|s| s.index() as u8)
        .ok_or_else(|| value_error(format!("{name:?} is not a square name like e0 or h9")))
}

/// A piece: its colour and role.
#[pyclass(module = "xiangqi_rs", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(pub CorePiece);

/// Role names, in the core's index order.
const ROLE_NAMES: [&str; 7] = [
    "king", "advisor", "elephant", "horse", "chariot", "cannon", "pawn",
];

#[pymethods]
impl Piece {
    /// The piece of FEN letter `symbol` (upper case red; `K A B N R C P`, also `E H`).
    #[new]
    fn new(symbol: &str) -> PyResult<Piece> {
        let mut chars = symbol.chars();
        match (chars.next().and_then(CorePiece::from_char), chars.next()) {
            (Some(p), None) => Ok(Piece(p)),
            _ => Err(value_error(format!(
                "{symbol:?} is not a piece letter (KABNRCP red, kabnrcp black)"
            ))),
        }
    }

    /// The FEN letter: upper case for red.
    fn symbol(&self) -> String {
        self.0.char().to_string()
    }

    /// The Chinese character (帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒).
    fn chinese(&self) -> String {
        self.0.chinese().to_string()
    }

    /// `RED` (`True`) or `BLACK` (`False`).
    #[getter]
    fn color(&self) -> bool {
        color_to_py(self.0.color)
    }

    /// `"king"`, `"advisor"`, `"elephant"`, `"horse"`, `"chariot"`, `"cannon"` or `"pawn"`.
    #[getter]
    fn role(&self) -> &'static str {
        ROLE_NAMES[self.0.role.index()]
    }

    /// The piece code of the batch encoding: 1..=7 red, 8..=14 black (0 is an empty point).
    #[getter]
    fn code(&self) -> u8 {
        crate::encoding::piece_code(self.0)
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece({:?})", self.symbol())
    }
}

/// A move from one square to another, as ICCS/UCI writes it (`h2e2`).
///
/// It knows nothing of a position: legality is the board's business.
#[pyclass(module = "xiangqi_rs", frozen, eq, hash, ord)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub xiangqi_core::Move);

#[pymethods]
impl Move {
    /// The move from `from_square` to `to_square` (ints 0..=89, different).
    #[new]
    fn new(from_square: i64, to_square: i64) -> PyResult<Move> {
        let (from, to) = (square_arg(from_square)?, square_arg(to_square)?);
        xiangqi_core::Move::try_new(from, to)
            .map(Move)
            .ok_or_else(|| value_error("a move needs two different squares"))
    }

    /// Reads ICCS/UCI coordinates: `h2e2` (also `H2-E2`).
    #[staticmethod]
    fn from_uci(text: &str) -> PyResult<Move> {
        let parsed: Result<xiangqi_core::UciMove, _> =
            text.replace('-', "").to_ascii_lowercase().parse();
        let uci = parsed.map_err(|e| crate::errors::NotationError::new_err(e.to_string()))?;
        let m = xiangqi_core::Move::try_new(uci.from, uci.to)
            .ok_or_else(|| value_error(format!("{text:?}: a move needs two different squares")))?;
        Ok(Move(m))
    }

    /// The move at `index` of the fixed move table (see `move_table()`).
    #[staticmethod]
    fn from_index(index: i64) -> PyResult<Move> {
        crate::encoding::move_at(index).map(Move)
    }

    /// The ICCS/UCI text: `h2e2`.
    fn uci(&self) -> String {
        self.0.to_string()
    }

    /// Where the piece starts (0..=89).
    // The names are Python properties (as python-chess names them), not conversions.
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn from_square(&self) -> u8 {
        self.0.from().index() as u8
    }

    /// Where the piece lands (0..=89).
    #[allow(clippy::wrong_self_convention)]
    #[getter]
    fn to_square(&self) -> u8 {
        self.0.to().index() as u8
    }

    /// The move's index in the fixed move table, or `None` if no piece can ever move so.
    #[getter]
    fn index(&self) -> Option<u16> {
        crate::encoding::index_of(self.0)
    }

    /// The move mirrored left-right (file a <-> i).
    fn mirror(&self) -> Move {
        Move(self.0.flip_horizontal())
    }

    fn __str__(&self) -> String {
        self.uci()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_uci('{}')", self.0)
    }
}

/// A `Move` argument, given as a `Move` or as its ICCS text.
pub fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<xiangqi_core::Move> {
    if let Ok(m) = obj.cast::<Move>() {
        return Ok(m.get().0);
    }
    if let Ok(text) = obj.extract::<String>() {
        return Move::from_uci(&text).map(|m| m.0);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "expected a Move or its ICCS text like 'h2e2'",
    ))
}
