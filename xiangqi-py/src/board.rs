//! `Board`: a position with the moves that led to it, so that the repetition rules and
//! the 60-move rule can judge the game.

use crate::errors::{py, IllegalMoveError};
use crate::moves::{color_to_py, move_arg, square_arg, Move, Piece};
use crate::outcome::{rules_arg, Outcome};
use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use xiangqi_core::{Game, Position, Problems, START_FEN};

/// A xiangqi board: the current position and the moves played since the start position.
///
/// `Board()` is the standard start; `Board(fen)` starts from a FEN.
#[pyclass(module = "xiangqi_rs")]
#[derive(Clone)]
pub struct Board {
    pub(crate) game: Game,
}

impl Board {
    /// The current position.
    pub(crate) fn pos(&self) -> &Position {
        self.game.position()
    }

    /// Plays `m` if legal; the board is unchanged otherwise.
    fn play(&mut self, m: xiangqi_core::Move) -> PyResult<()> {
        py(self.game.play(m))
    }
}

#[pymethods]
impl Board {
    /// The start position, or the position of `fen`. With `strict=False`, advisors,
    /// elephants and pawns may stand off their points (composed problems); positions that
    /// break the rules of play (generals facing, the side not to move in check, too many
    /// pieces) are refused either way.
    #[new]
    #[pyo3(signature = (fen = None, *, strict = true))]
    fn new(fen: Option<&str>, strict: bool) -> PyResult<Board> {
        let allowed = if strict {
            Problems::empty()
        } else {
            Problems::ADVISOR_OFF_POINTS | Problems::ELEPHANT_OFF_POINTS | Problems::PAWN_OFF_POINTS
        };
        let start = match fen {
            None => Position::startpos(),
            Some(text) => py(Position::from_fen_allowing(text, allowed))?,
        };
        Ok(Board {
            game: Game::new(start),
        })
    }

    /// The FEN of the current position.
    fn fen(&self) -> String {
        self.pos().fen()
    }

    /// The board field of the FEN alone (no side to move or counters).
    fn board_fen(&self) -> String {
        let fen = self.pos().fen();
        fen.split(' ').next().unwrap_or_default().to_string()
    }

    /// The side to move: `RED` (`True`) or `BLACK` (`False`).
    #[getter]
    fn turn(&self) -> bool {
        color_to_py(self.pos().side_to_move())
    }

    /// Plies since the last capture, as the FEN counts them.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos().halfmove_clock()
    }

    /// The move number (starts at 1, grows after black's move).
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos().fullmove_number()
    }

    /// The moves played since the start position, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.game.moves().iter().copied().map(Move).collect()
    }

    /// The FEN the board started from.
    fn start_fen(&self) -> String {
        self.game.start_position().fen()
    }

    /// Every legal move of the side to move.
    fn legal_moves(&self) -> Vec<Move> {
        self.pos().legal_moves().into_iter().map(Move).collect()
    }

    /// The legal captures of the side to move.
    fn legal_captures(&self) -> Vec<Move> {
        self.pos().legal_captures().into_iter().map(Move).collect()
    }

    /// The number of legal moves (faster than `len(legal_moves())`).
    fn count_legal_moves(&self) -> usize {
        self.pos().count_legal_moves()
    }

    /// Is `move` (a `Move` or ICCS text) legal here?
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.pos().is_legal(move_arg(r#move)?))
    }

    /// Plays `move` (a `Move` or ICCS text).
    ///
    /// Raises `IllegalMoveError` if it is not legal; the board is then unchanged.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = move_arg(r#move)?;
        self.play(m)
    }

    /// Plays the move written in ICCS/UCI (`h2e2`) and returns it.
    fn push_uci(&mut self, text: &str) -> PyResult<Move> {
        let m = py(self
            .pos()
            .parse_uci(&text.replace('-', "").to_ascii_lowercase()))?;
        self.play(m)?;
        Ok(Move(m))
    }

    /// Plays the move written in any notation (ICCS, WXF `C2.5`, Chinese `炮二平五`) and
    /// returns it.
    fn push_text(&mut self, text: &str) -> PyResult<Move> {
        let m = py(self.pos().parse_move(text))?;
        self.play(m)?;
        Ok(Move(m))
    }

    /// Takes back the last move and returns it; `IndexError` at the start.
    fn pop(&mut self) -> PyResult<Move> {
        let m = self
            .game
            .undo()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))?;
        Ok(Move(m))
    }

    /// The last move played, or `None` at the start.
    fn peek(&self) -> Option<Move> {
        self.game.moves().last().copied().map(Move)
    }

    /// Is the side to move in check?
    fn is_check(&self) -> bool {
        self.pos().is_check()
    }

    /// Is the side to move checkmated?
    fn is_checkmate(&self) -> bool {
        self.pos().is_check() && !self.pos().has_legal_move()
    }

    /// Has the side to move no legal move without being in check (困毙, a loss)?
    fn is_stalemate(&self) -> bool {
        !self.pos().is_check() && !self.pos().has_legal_move()
    }

    /// Has the side to move no legal move at all (checkmate or stalemate: it has lost)?
    fn no_moves(&self) -> bool {
        !self.pos().has_legal_move()
    }

    /// Does `move` give check?
    fn gives_check(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.legal_arg(r#move)?;
        Ok(self.pos().gives_check(m))
    }

    /// Does `move` capture (does a piece stand on its to-square)?
    fn is_capture(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = move_arg(r#move)?;
        Ok(self.pos().piece_at(m.to()).is_some())
    }

    /// The end of the game, or `None` while it goes on: checkmate and stalemate, a third
    /// repetition judged by `rules` (`"asian"`, the default, or `"chinese"`: perpetual
    /// check and chase lose), the 60-move rule, and no attacking material on either side.
    #[pyo3(signature = (rules = "asian"))]
    fn outcome(&self, rules: &str) -> PyResult<Option<Outcome>> {
        Ok(self.game.outcome(rules_arg(rules)?).map(Outcome::from))
    }

    /// `outcome(rules) is not None`.
    #[pyo3(signature = (rules = "asian"))]
    fn is_game_over(&self, rules: &str) -> PyResult<bool> {
        Ok(self.game.outcome(rules_arg(rules)?).is_some())
    }

    /// Plies that count toward the 60-move rule (120 ends the game).
    fn plies_toward_move_limit(&self) -> u32 {
        self.game.plies_toward_move_limit()
    }

    /// The piece on `square` (0..=89), or `None`.
    fn piece_at(&self, square: i64) -> PyResult<Option<Piece>> {
        Ok(self.pos().piece_at(square_arg(square)?).map(Piece))
    }

    /// Every piece on the board as `{square: Piece}`.
    fn piece_map(&self) -> std::collections::BTreeMap<u8, Piece> {
        self.pos()
            .all_pieces()
            .map(|(s, p)| (s.index() as u8, Piece(p)))
            .collect()
    }

    /// Leaf nodes of the legal move tree `depth` plies deep (the GIL is released).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.pos().clone();
        py.detach(move || pos.perft(depth))
    }

    /// `perft(depth - 1)` after each legal move, as `{uci: count}`.
    fn divide(&self, py: Python<'_>, depth: u32) -> std::collections::BTreeMap<String, u64> {
        let pos = self.pos().clone();
        py.detach(move || {
            pos.divide(depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect()
        })
    }

    /// The Zobrist key of the position (the engine's hash).
    fn key(&self) -> u64 {
        self.pos().key()
    }

    /// The move in WXF notation: `C2.5`.
    fn wxf(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.legal_arg(r#move)?;
        Ok(self.pos().to_wxf(m))
    }

    /// The move in Chinese notation: `炮二平五`.
    fn chinese(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.legal_arg(r#move)?;
        Ok(self.pos().to_chinese(m))
    }

    /// Reads a legal move in any notation: ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`) or Chinese
    /// (`炮二平五`, `马８进７`, traditional characters too).
    fn parse_move(&self, text: &str) -> PyResult<Move> {
        py(self.pos().parse_move(text)).map(Move)
    }

    /// Reads a legal move in WXF notation.
    fn parse_wxf(&self, text: &str) -> PyResult<Move> {
        py(self.pos().parse_wxf(text)).map(Move)
    }

    /// Reads a legal move in Chinese notation.
    fn parse_chinese(&self, text: &str) -> PyResult<Move> {
        py(self.pos().parse_chinese(text)).map(Move)
    }

    /// Reads a legal move in ICCS/UCI coordinates.
    fn parse_uci(&self, text: &str) -> PyResult<Move> {
        py(self
            .pos()
            .parse_uci(&text.replace('-', "").to_ascii_lowercase()))
        .map(Move)
    }

    /// The position mirrored left-right (file a <-> i), without history.
    fn mirror(&self) -> Board {
        Board {
            game: Game::new(self.pos().flip_horizontal()),
        }
    }

    /// A copy with the same history.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The piece codes of the 10x9 board as 90 bytes, row by row from rank 9 (black's back
    /// rank, the FEN's first row) down to rank 0, files a..i in each row: 0 empty, 1..=7 red
    /// king, advisor, elephant, horse, chariot, cannon, pawn, 8..=14 the same for black.
    fn piece_codes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &crate::encoding::piece_codes(self.pos()))
    }

    /// The legal moves as indices into the fixed move table (`move_table()`), ascending.
    fn legal_move_indices(&self) -> Vec<u16> {
        crate::encoding::legal_indices(self.pos())
    }

    /// The legal moves as a 0/1 mask over the move table: `MOVE_TABLE_SIZE` bytes.
    fn legal_move_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &crate::encoding::legal_mask(self.pos()))
    }

    fn __str__(&self) -> String {
        self.pos().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos().fen())
    }

    /// Same position, side to move and counters (history is not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Board>() {
            Ok(b) => *b.borrow().pos() == *self.pos(),
            Err(_) => false,
        }
    }

    /// The standard start FEN.
    #[classattr]
    const STARTING_FEN: &'static str = START_FEN;
}

impl Board {
    /// A `Move` argument that must be legal here.
    fn legal_arg(&self, obj: &Bound<'_, PyAny>) -> PyResult<xiangqi_core::Move> {
        let m = move_arg(obj)?;
        self.pos().check_legal(m).map(|()| m).map_err(|e| {
            IllegalMoveError::new_err(format!(
                "{m} is not a legal move in {}: {}",
                self.pos().fen(),
                e.reason
            ))
        })
    }
}
